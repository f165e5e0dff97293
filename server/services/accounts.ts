// Accounts people manage themselves (docs/features/accounts.md): the profile, the password (changed,
// or reset through a mailed link), the email's verification, signing out everywhere, the export of
// everything the account holds, and deletion.
//
// Mailed tokens: 256 random bits, stored only as their SHA-256, spent by one conditional UPDATE (so a
// link works exactly once), and bound to the address they were sent to.
import { randomBytes } from "node:crypto";
import { db, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { hashToken } from "../auth/tokens.ts";
import { AppError, badRequest, forbidden, notFound } from "../errors.ts";
import { agentSelect, toAgent } from "../contract/common.ts";
import type { AccountExport, AccountOut, UpdateProfileInput } from "../contract/accounts.ts";
import {
  ACCOUNT_TOKEN_BYTES,
  ACCOUNT_TOKEN_PREFIX,
  EMAIL_VERIFICATION_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  TOMBSTONE_AGENT_ID,
  TOMBSTONE_DISPLAY_NAME,
  TOMBSTONE_USERNAME,
  TOMBSTONE_USERNAME_KEY,
  type AccountTokenPurpose,
} from "../domain/accounts.ts";
import { assertMailAvailable, sendMail, webUrl } from "../mail/mailer.ts";
import { log } from "../log/logger.ts";
import { applyAdminEmails } from "./moderation.ts";
import { removeVoteIn } from "./votes.ts";
import { setEvidenceVoteIn } from "./evidence.ts";

type Tx = Prisma.TransactionClient;

export const INVALID_LINK = "token: the link is invalid, used or expired";
const invalidLink = () => new AppError("invalid", INVALID_LINK, [{ field: "token", message: INVALID_LINK }]);

/** The credential a request came with: a password change ends every other one. */
export interface OwnCredential {
  familyId?: string;
  sessionId?: string;
}

// ---- the account and its profile ----

export async function getAccount(agentId: string, client: Tx | ReturnType<typeof db> = db()): Promise<AccountOut> {
  const agent = await client.agent.findUnique({
    where: { id: agentId },
    select: { ...agentSelect, email: true, emailVerified: true, passwordHash: true },
  });
  if (!agent) throw notFound("Agent not found");
  return { ...toAgent(agent), email: agent.email, email_verified: agent.emailVerified !== null, has_password: agent.passwordHash !== null };
}

/** PATCH /auth/me: only the fields given change; an empty bio removes it. */
export async function updateProfile(agentId: string, input: UpdateProfileInput): Promise<AccountOut> {
  const data: Prisma.AgentUpdateInput = {};
  if (input.display_name !== undefined) data.displayName = input.display_name;
  if (input.bio !== undefined) data.bio = input.bio === null || input.bio === "" ? null : input.bio;
  if (Object.keys(data).length > 0) await db().agent.update({ where: { id: agentId }, data });
  return getAccount(agentId);
}

// ---- credentials ----

/**
 * Ends the agent's logins: every refresh-token family and every web session, except the one named in
 * `keep`. `everything` also refuses web sessions from before sessions were kept on the server (they
 * carry no id to delete; sessions_valid_after is their cut-off, to the second).
 */
async function endCredentials(tx: Tx, agentId: string, keep: OwnCredential, everything: boolean): Promise<void> {
  const now = new Date();
  await tx.refreshTokenFamily.updateMany({
    where: { agentId, revokedAt: null, ...(keep.familyId ? { id: { not: keep.familyId } } : {}) },
    data: { revokedAt: now },
  });
  await tx.session.deleteMany({
    where: { agentId, ...(keep.sessionId ? { sessionToken: { not: hashToken(keep.sessionId) } } : {}) },
  });
  if (everything) {
    await tx.agent.update({ where: { id: agentId }, data: { sessionsValidAfter: new Date(Math.floor(now.getTime() / 1000) * 1000) } });
  }
}

/** POST /auth/password: the caller's own login stays; every other one ends at once. */
export async function changePassword(agentId: string, input: { current_password: string; new_password: string }, own: OwnCredential): Promise<void> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { passwordHash: true } });
  // An account without a password (OAuth only) sets one through a mailed reset link instead.
  if (!agent || !(await verifyPassword(input.current_password, agent.passwordHash))) throw forbidden();
  const passwordHash = await hashPassword(input.new_password);
  await db().$transaction(async (tx) => {
    await tx.agent.update({ where: { id: agentId }, data: { passwordHash } });
    await endCredentials(tx, agentId, own, false);
  });
}

/** "Sign out everywhere": every login of the agent ends, the caller's own included. */
export async function signOutEverywhere(agentId: string): Promise<void> {
  await db().$transaction((tx) => endCredentials(tx, agentId, {}, true));
}

// ---- mailed links ----

async function issueAccountToken(agentId: string, email: string, purpose: AccountTokenPurpose, ttlMs: number): Promise<string> {
  const token = `${ACCOUNT_TOKEN_PREFIX[purpose]}${randomBytes(ACCOUNT_TOKEN_BYTES).toString("base64url")}`;
  const now = new Date();
  await db().$transaction([
    // Only the newest link of a kind works; spent and expired ones are of no further use.
    db().accountToken.deleteMany({ where: { agentId, purpose } }),
    db().accountToken.create({
      data: { tokenHash: hashToken(token), agentId, purpose, email, expiresAt: new Date(now.getTime() + ttlMs) },
    }),
  ]);
  return token;
}

/**
 * Spends a mailed token inside `tx`: the agent it belongs to, or null when it is unknown, used,
 * expired, or was sent to an address that is no longer the account's.
 */
async function spendAccountToken(tx: Tx, token: string, purpose: AccountTokenPurpose): Promise<string | null> {
  const tokenHash = hashToken(token);
  const now = new Date();
  const claimed = await tx.accountToken.updateMany({
    where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (claimed.count !== 1) return null;
  const row = await tx.accountToken.findUniqueOrThrow({ where: { tokenHash }, select: { agentId: true, email: true, agent: { select: { email: true } } } });
  return row.agent.email === row.email ? row.agentId : null;
}

function linkMail(to: string, subject: string, intro: string, action: string, link: string, outro: string) {
  const text = `${intro}\n\n${action}:\n${link}\n\n${outro}\n`;
  const html =
    `<p>${intro}</p><p><a href="${link}">${action}</a></p>` +
    `<p style="color:#555">If the button does not work, open this address: ${link}</p><p style="color:#555">${outro}</p>`;
  return { to, subject, text, html, link };
}

/**
 * POST /auth/password-reset: 202 whether or not the address is known. The mail goes out after the
 * answer, so the time taken says nothing about the address either.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  assertMailAvailable();
  const agent = await db().agent.findUnique({ where: { email }, select: { id: true } });
  if (!agent) return;
  void (async () => {
    const token = await issueAccountToken(agent.id, email, "password_reset", PASSWORD_RESET_TTL_MS);
    const link = webUrl(`/reset-password?token=${encodeURIComponent(token)}`);
    await sendMail(
      linkMail(
        email,
        "Reset your password",
        "Someone (hopefully you) asked to reset the password of your Claims account.",
        "Choose a new password",
        link,
        "The link works once, within an hour. If you did not ask for it, ignore this mail: your password stays as it is.",
      ),
    );
  })().catch((err: unknown) => log().error({ err: (err as Error).message }, "[accounts] password-reset mail failed"));
}

/**
 * POST /auth/password-reset/confirm: the new password, and every login of the account ends. Following
 * the mailed link proves the address, so it also counts as verified.
 */
export async function confirmPasswordReset(token: string, newPassword: string): Promise<void> {
  const known = await db().accountToken.findUnique({ where: { tokenHash: hashToken(token) }, select: { usedAt: true, expiresAt: true } });
  if (!known || known.usedAt || known.expiresAt <= new Date()) throw invalidLink();
  const passwordHash = await hashPassword(newPassword);
  const agentId = await db().$transaction(async (tx) => {
    const owner = await spendAccountToken(tx, token, "password_reset");
    if (!owner) return null;
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: owner }, select: { emailVerified: true } });
    await tx.agent.update({ where: { id: owner }, data: { passwordHash, emailVerified: agent.emailVerified ?? new Date() } });
    await endCredentials(tx, owner, {}, true);
    return owner;
  });
  if (!agentId) throw invalidLink();
  await applyAdminEmails(agentId);
}

/** POST /auth/email/verify: mails a link valid for a day (nothing to do when already verified). */
export async function requestEmailVerification(agentId: string): Promise<void> {
  assertMailAvailable();
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { email: true, emailVerified: true } });
  if (!agent) throw notFound("Agent not found");
  if (!agent.email) throw badRequest("email: the account has no email address to verify");
  if (agent.emailVerified) return;
  const token = await issueAccountToken(agentId, agent.email, "email_verification", EMAIL_VERIFICATION_TTL_MS);
  const link = webUrl(`/verify-email?token=${encodeURIComponent(token)}`);
  await sendMail(
    linkMail(
      agent.email,
      "Verify your email address",
      "Please confirm that this address belongs to your Claims account.",
      "Verify my email address",
      link,
      "The link works once, within 24 hours. If you did not ask for it, ignore this mail.",
    ),
  );
}

/** POST /auth/email/verify/confirm: the address is verified; ADMIN_EMAILS may apply from now on. */
export async function confirmEmailVerification(token: string): Promise<void> {
  const agentId = await db().$transaction(async (tx) => {
    const owner = await spendAccountToken(tx, token, "email_verification");
    if (owner) await tx.agent.updateMany({ where: { id: owner, emailVerified: null }, data: { emailVerified: new Date() } });
    return owner;
  });
  if (!agentId) throw invalidLink();
  await applyAdminEmails(agentId);
}

// ---- export ----

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** GET /auth/me/export: everything the account holds, without secrets (key and webhook secrets, hashes). */
export async function exportAccount(agentId: string): Promise<AccountExport> {
  const where = { agentId };
  const [account, agent, claims, evidence, comments, votes, evidenceVotes, outcomes, bookmarks, follows, notifications, apiKeys, webhooks, history] =
    await Promise.all([
      getAccount(agentId),
      db().agent.findUniqueOrThrow({ where: { id: agentId }, select: { accounts: { select: { provider: true } } } }),
      db().claim.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().evidence.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().comment.findMany({ where: { authorId: agentId }, orderBy: { createdAt: "asc" } }),
      db().claimVote.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().evidenceVote.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().voteOutcomeRecord.findMany({ where, orderBy: { resolvedAt: "asc" } }),
      db().bookmark.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().follow.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().notification.findMany({ where, orderBy: { updatedAt: "asc" } }),
      db().apiKey.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().webhook.findMany({ where, orderBy: { createdAt: "asc" } }),
      db().reputationEvent.findMany({ where, orderBy: { id: "asc" } }),
    ]);
  return {
    exported_at: new Date().toISOString(),
    account: { ...account, oauth_providers: agent.accounts.map((a) => a.provider) },
    claims: claims.map((c) => ({
      id: c.id,
      statement: c.statement,
      complexity_tier: c.complexityTier,
      tags: c.tags,
      gradient: c.gradient,
      vote_count: c.voteCount,
      evidence_count: c.evidenceCount,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
    })),
    evidence: evidence.map((e) => ({
      id: e.id,
      claim_id: e.claimId,
      position: e.position,
      content_type: e.contentType,
      content: e.content,
      upvotes: e.upvotes,
      downvotes: e.downvotes,
      hidden: e.hiddenAt !== null,
      created_at: iso(e.createdAt),
    })),
    comments: comments.map((c) => ({
      id: c.id,
      claim_id: c.claimId,
      parent_id: c.parentId,
      content: c.content,
      is_deleted: c.isDeleted,
      is_edited: c.isEdited,
      hidden: c.hiddenAt !== null,
      created_at: iso(c.createdAt),
    })),
    votes: votes.map((v) => ({ claim_id: v.claimId, value: v.value, created_at: iso(v.createdAt), updated_at: iso(v.updatedAt) })),
    evidence_votes: evidenceVotes.map((v) => ({ evidence_id: v.evidenceId, direction: v.direction, created_at: iso(v.createdAt) })),
    resolved_votes: outcomes.map((o) => ({
      claim_id: o.claimId,
      value: o.value,
      outcome: o.outcome,
      consensus_true: o.consensusTrue,
      resolved_at: iso(o.resolvedAt),
    })),
    bookmarks: bookmarks.map((b) => ({ claim_id: b.claimId, created_at: iso(b.createdAt) })),
    follows: follows.map((f) => ({
      claim_id: f.claimId,
      notify_on_vote: f.notifyOnVote,
      notify_on_evidence: f.notifyOnEvidence,
      notify_on_comment: f.notifyOnComment,
      created_at: iso(f.createdAt),
    })),
    notifications: notifications.map((n) => ({
      claim_id: n.claimId,
      reasons: { votes: n.votes, evidence: n.evidence, comments: n.comments, resolved: n.resolved },
      unread: n.unread,
      updated_at: iso(n.updatedAt),
      last_read_at: iso(n.lastReadAt),
    })),
    api_keys: apiKeys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      created_at: iso(k.createdAt),
      expires_at: iso(k.expiresAt),
      last_used_at: iso(k.lastUsedAt),
      revoked_at: iso(k.revokedAt),
    })),
    webhooks: webhooks.map((w) => ({
      id: w.id,
      url: w.url,
      events: w.events,
      description: w.description,
      status: w.status,
      created_at: iso(w.createdAt),
    })),
    reputation_history: history.map((h) => ({
      date: iso(h.createdAt),
      reputation_score: h.reputationScore,
      delta: h.delta,
      reason: h.reason,
      claim_id: h.claimId,
      evidence_id: h.evidenceId,
    })),
  };
}

// ---- deletion ----

/** PostgreSQL's deadlock_detected: deletion takes many locks, and retries when it loses a race. */
const DEADLOCK = "40P01";
const DELETE_ATTEMPTS = 3;

function isDeadlock(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === DEADLOCK) return true;
  }
  return false;
}

/**
 * POST /auth/me/delete, after the password (or, for accounts without one, the username typed as
 * confirmation) matched. Logins end first, so no new request of the account starts; then one
 * transaction removes the person and corrects everything they moved (deleteAccountIn).
 */
export async function deleteAccount(agentId: string, input: { password?: string; confirm?: string }): Promise<void> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { username: true, passwordHash: true } });
  if (!agent) throw notFound("Agent not found");
  const confirmed = agent.passwordHash
    ? await verifyPassword(input.password ?? "", agent.passwordHash)
    : input.confirm !== undefined && input.confirm.trim().toLowerCase() === agent.username.toLowerCase();
  if (!confirmed) throw forbidden();
  await db().$transaction(async (tx) => {
    await endCredentials(tx, agentId, {}, true);
    await tx.apiKey.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: new Date() } });
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await sqlTransaction((tx) => deleteAccountIn(tx, agentId));
      return;
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DELETE_ATTEMPTS) throw err;
    }
  }
}

/**
 * One transaction. Each evidence vote and claim vote of the agent is removed through the same road as
 * DELETE /evidence/{id}/vote and DELETE /claims/{id}/vote (reputation reversed; sums, counts and
 * gradients moved), resolved-vote records lose their owner but stay (others' track records and the
 * crowd they were compared with do not change), what the agent wrote passes to the tombstone, the
 * username is retired, and the agents row goes with everything that hangs on it (ON DELETE CASCADE:
 * logins, OAuth links, keys, webhooks, bookmarks, follows, notifications, reports, reputation events).
 */
async function deleteAccountIn(tx: SqlTx, agentId: string): Promise<void> {
  const [agent] = await tx.query<{ username_key: string }>(Prisma.sql`
    SELECT username_key FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`);
  if (!agent) return;
  const evidenceVotes = await tx.query<{ evidence_id: string }>(Prisma.sql`
    SELECT evidence_id::text AS evidence_id FROM evidence_votes WHERE agent_id = ${agentId}::uuid ORDER BY evidence_id`);
  for (const v of evidenceVotes) await setEvidenceVoteIn(tx, agentId, v.evidence_id, null, "include");
  const claimVotes = await tx.query<{ claim_id: string }>(Prisma.sql`
    SELECT claim_id::text AS claim_id FROM claim_votes WHERE agent_id = ${agentId}::uuid ORDER BY claim_id`);
  for (const v of claimVotes) await removeVoteIn(tx, agentId, v.claim_id, "include");

  await tx.execute(Prisma.sql`UPDATE vote_outcomes SET agent_id = NULL WHERE agent_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`
    INSERT INTO agents (id, username, username_key, display_name, updated_at)
    VALUES (${TOMBSTONE_AGENT_ID}::uuid, ${TOMBSTONE_USERNAME}, ${TOMBSTONE_USERNAME_KEY}, ${TOMBSTONE_DISPLAY_NAME}, now())
    ON CONFLICT (id) DO NOTHING`);
  const tombstone = Prisma.sql`${TOMBSTONE_AGENT_ID}::uuid`;
  await tx.execute(Prisma.sql`UPDATE claims SET author_id = ${tombstone} WHERE author_id = ${agentId}::uuid`);
  // Others' votes on this evidence moved the deleted person's reputation, not the tombstone's: the
  // tombstone owes nothing when they are changed or removed later.
  await tx.execute(Prisma.sql`
    UPDATE evidence_votes SET applied_delta = 0
    WHERE evidence_id IN (SELECT id FROM evidence WHERE author_id = ${agentId}::uuid)`);
  await tx.execute(Prisma.sql`UPDATE evidence SET author_id = ${tombstone} WHERE author_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`UPDATE comments SET author_id = ${tombstone} WHERE author_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`UPDATE moderation_audit SET actor_id = ${tombstone} WHERE actor_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`UPDATE outbox_events SET actor_id = NULL WHERE actor_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`DELETE FROM reports WHERE target_type = 'agent' AND target_id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`
    INSERT INTO retired_usernames (key_hash) VALUES (${hashToken(agent.username_key)}) ON CONFLICT DO NOTHING`);
  await tx.execute(Prisma.sql`DELETE FROM agents WHERE id = ${agentId}::uuid`);
}

/** Whether a username was given up by a deleted account (usernames are never reused). */
export async function isRetiredUsername(username: string, client: Tx | ReturnType<typeof db> = db()): Promise<boolean> {
  const found = await client.retiredUsername.findUnique({ where: { keyHash: hashToken(username.toLowerCase()) }, select: { keyHash: true } });
  return found !== null;
}
