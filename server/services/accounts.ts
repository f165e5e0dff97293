// Accounts people manage themselves (docs/features/accounts.md): the profile, the password (changed,
// or reset through a mailed link), the email's verification and signing out everywhere. The export
// is account-export.ts, deletion account-deletion.ts.
//
// Mailed tokens: 256 random bits, stored only as their SHA-256, spent by one conditional UPDATE (so a
// link works exactly once), and bound to the address they were sent to.
import { randomBytes } from "node:crypto";
import { db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { hashPassword, verifyPassword } from "../auth/passwords.ts";
import { hashToken } from "../auth/tokens.ts";
import { AppError, badRequest, confirmationFailed, notFound } from "../errors.ts";
import { agentSelect, toAgent } from "../contract/common.ts";
import type { AccountOut, UpdateProfileInput } from "../contract/accounts.ts";
import {
  ACCOUNT_TOKEN_BYTES,
  ACCOUNT_TOKEN_PREFIX,
  EMAIL_VERIFICATION_TTL_MS,
  PASSWORD_RESET_TTL_MS,
  type AccountTokenPurpose,
} from "../domain/accounts.ts";
import { assertMailAvailable, sendMail, webUrl } from "../mail/mailer.ts";
import { log } from "../log/logger.ts";
import { limitMailTo } from "../ratelimit/limiter.ts";
import { applyAdminEmails } from "./moderation.ts";

type Tx = Prisma.TransactionClient;

export const INVALID_LINK = "token: the link is invalid, used or expired";
const invalidLink = () => new AppError("invalid_link", INVALID_LINK, [{ field: "token", message: INVALID_LINK, rule: "invalid" }]);

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
 * What an action ends besides the logins (docs/security.md#which-action-ends-which-credential holds
 * the whole table; each action below passes its row).
 */
export interface AlsoEnded {
  /** Every live API key is revoked. */
  apiKeys?: boolean;
  /** Every MCP grant goes, with the codes, access and refresh tokens issued under it. */
  mcpGrants?: boolean;
  /** The OAuth server's browser sessions go (and consents on their way back into it, which would make one). */
  oauthSessions?: boolean;
  /** Unused mailed links go: the password-reset ones, or every kind. */
  mailedLinks?: "password_reset" | "all";
}

/** The OAuth server's own browser session (oidc-provider's model name in mcp_oauth_artifacts). */
const OAUTH_SESSION = "Session";
/**
 * Not a grant nor issued under one: the OAuth server's sessions (ended on their own), clients (nobody's)
 * and interactions (their person is named only inside the payload).
 */
const NOT_A_GRANT = [OAUTH_SESSION, "Client", "Interaction"];

/**
 * Ends the agent's logins: every refresh-token family and every web session, except the one named in
 * `keep`. `everything` also refuses web sessions from before sessions were kept on the server (they
 * carry no id to delete; sessions_valid_after is their cut-off, to the second). `also` names what
 * else the action ends.
 */
export async function endCredentials(
  tx: Tx,
  { agentId, keep = {}, everything, also = {} }: { agentId: string; keep?: OwnCredential; everything: boolean; also?: AlsoEnded },
): Promise<void> {
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
  // A sign-in's one-time code not yet exchanged is a login on its way: a password change sets no
  // cut-off, and a code made in the cut-off's own second is not before it.
  await tx.oAuthExchangeCode.deleteMany({ where: { agentId, usedAt: null } });
  if (also.apiKeys) await tx.apiKey.updateMany({ where: { agentId, revokedAt: null }, data: { revokedAt: now } });
  // Deleted, as a revocation at the OAuth server deletes them: the provider finds no such token, code or grant.
  if (also.mcpGrants) await tx.mcpOAuthArtifact.deleteMany({ where: { agentId, kind: { notIn: NOT_A_GRANT } } });
  if (also.oauthSessions) {
    await tx.mcpOAuthArtifact.deleteMany({ where: { agentId, kind: OAUTH_SESSION } });
    await tx.$executeRaw`
      DELETE FROM mcp_oauth_artifacts
      WHERE kind = 'Interaction' AND payload->'result'->'login'->>'accountId' = ${agentId}`;
  }
  if (also.mailedLinks) {
    await tx.accountToken.deleteMany({ where: { agentId, usedAt: null, ...(also.mailedLinks === "all" ? {} : { purpose: also.mailedLinks }) } });
  }
}

/**
 * POST /auth/password: the caller's own login stays; every other login, the OAuth server's sessions
 * and every reset link mailed before it end at once.
 */
export async function changePassword(agentId: string, input: { current_password: string; new_password: string }, own: OwnCredential): Promise<void> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { passwordHash: true } });
  // An account without a password (OAuth only) sets one through a mailed reset link instead.
  if (!agent || !(await verifyPassword(input.current_password, agent.passwordHash))) throw confirmationFailed();
  const passwordHash = await hashPassword(input.new_password);
  await db().$transaction(async (tx) => {
    await tx.agent.update({ where: { id: agentId }, data: { passwordHash } });
    await endCredentials(tx, { agentId, keep: own, everything: false, also: { oauthSessions: true, mailedLinks: "password_reset" } });
  });
}

/**
 * "Sign out everywhere": every login of the agent ends, the caller's own included, with the MCP
 * clients' grants and the OAuth server's sessions; API keys only when asked (programs the owner runs
 * keep working otherwise).
 */
export async function signOutEverywhere(agentId: string, input: { revoke_api_keys?: boolean } = {}): Promise<void> {
  await db().$transaction((tx) =>
    endCredentials(tx, { agentId, everything: true, also: { mcpGrants: true, oauthSessions: true, apiKeys: input.revoke_api_keys === true } }),
  );
}

// ---- mailed links ----

async function issueAccountToken({
  agentId,
  email,
  purpose,
  ttlMs,
}: {
  agentId: string;
  email: string;
  purpose: AccountTokenPurpose;
  ttlMs: number;
}): Promise<string> {
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

/**
 * Whether another link may be mailed to this address now (docs/security.md, "Limits": a few per hour,
 * however many clients ask). Over it nothing is sent, and the request is answered as usual.
 */
async function mailAllowed(address: string): Promise<boolean> {
  if ((await limitMailTo(address)).success) return true;
  log().info("[accounts] mail to an address over its hourly budget not sent");
  return false;
}

/** A mail whose point is one link: `intro`, the link labelled `action`, then `outro`. */
function linkMail({ to, subject, intro, action, link, outro }: { to: string; subject: string; intro: string; action: string; link: string; outro: string }) {
  const text = `${intro}\n\n${action}:\n${link}\n\n${outro}\n`;
  const html =
    `<p>${intro}</p><p><a href="${link}">${action}</a></p>` +
    `<p style="color:#555">If the button does not work, open this address: ${link}</p><p style="color:#555">${outro}</p>`;
  return { to, subject, text, html, link };
}

/**
 * POST /auth/password-reset: 202 whether or not the address is known, and whether or not the
 * address's mail budget is spent. The mail goes out after the answer, so the time taken says nothing
 * about the address either.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  assertMailAvailable();
  const agent = await db().agent.findUnique({ where: { email }, select: { id: true } });
  if (!agent) return;
  void (async () => {
    if (!(await mailAllowed(email))) return;
    const token = await issueAccountToken({ agentId: agent.id, email, purpose: "password_reset", ttlMs: PASSWORD_RESET_TTL_MS });
    await sendMail(
      linkMail({
        to: email,
        subject: "Reset your password",
        intro: "Someone (hopefully you) asked to reset the password of your Claims account.",
        action: "Choose a new password",
        link: webUrl(`/reset-password?token=${encodeURIComponent(token)}`),
        outro: "The link works once, within an hour. If you did not ask for it, ignore this mail: your password stays as it is.",
      }),
    );
  })().catch((err: unknown) => log().error({ err: (err as Error).message }, "[accounts] password-reset mail failed"));
}

/**
 * POST /auth/password-reset/confirm: the new password, and every credential of the account minted
 * before it ends: logins, API keys, MCP grants and tokens, the OAuth server's sessions, other mailed
 * links. Following the mailed link proves the address, so it also counts as verified.
 */
export async function confirmPasswordReset({ token, newPassword }: { token: string; newPassword: string }): Promise<void> {
  const known = await db().accountToken.findUnique({ where: { tokenHash: hashToken(token) }, select: { usedAt: true, expiresAt: true } });
  if (!known || known.usedAt || known.expiresAt <= new Date()) throw invalidLink();
  const passwordHash = await hashPassword(newPassword);
  const agentId = await db().$transaction(async (tx) => {
    const owner = await spendAccountToken(tx, token, "password_reset");
    if (!owner) return null;
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: owner }, select: { emailVerified: true } });
    await tx.agent.update({ where: { id: owner }, data: { passwordHash, emailVerified: agent.emailVerified ?? new Date() } });
    // Whoever held the account before the address was proven keeps nothing (docs/security.md#which-action-ends-which-credential).
    await endCredentials(tx, { agentId: owner, everything: true, also: { apiKeys: true, mcpGrants: true, oauthSessions: true, mailedLinks: "all" } });
    return owner;
  });
  if (!agentId) throw invalidLink();
  await applyAdminEmails(agentId);
}

/**
 * POST /auth/email/verify: mails a link valid for a day (nothing to do when already verified, nothing
 * sent when the address's mail budget is spent).
 */
export async function requestEmailVerification(agentId: string): Promise<void> {
  const send = await prepareEmailVerification(agentId);
  await send?.();
}

/**
 * The stored part of a verification mail (the checks, the budget, the link's token), done now; what it
 * returns sends the mail. Sign-up awaits the first and not the second, so nothing is written after
 * its answer (docs/features/accounts.md). Undefined: nothing to send.
 */
export async function prepareEmailVerification(agentId: string): Promise<(() => Promise<void>) | undefined> {
  assertMailAvailable();
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { email: true, emailVerified: true } });
  if (!agent) throw notFound("Agent not found");
  if (!agent.email) throw badRequest("email: the account has no email address to verify");
  if (agent.emailVerified) return undefined;
  const email = agent.email;
  if (!(await mailAllowed(email))) return undefined;
  const token = await issueAccountToken({ agentId, email, purpose: "email_verification", ttlMs: EMAIL_VERIFICATION_TTL_MS });
  return () =>
    sendMail(
      linkMail({
        to: email,
        subject: "Verify your email address",
        intro: "Please confirm that this address belongs to your Claims account.",
        action: "Verify my email address",
        link: webUrl(`/verify-email?token=${encodeURIComponent(token)}`),
        outro: "The link works once, within 24 hours. If you did not ask for it, ignore this mail.",
      }),
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

/** Whether a username was given up by a deleted account (usernames are never reused). */
export async function isRetiredUsername(username: string, client: Tx | ReturnType<typeof db> = db()): Promise<boolean> {
  const found = await client.retiredUsername.findUnique({ where: { keyHash: hashToken(username.toLowerCase()) }, select: { keyHash: true } });
  return found !== null;
}
