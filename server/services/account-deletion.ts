// Deletion of an account (docs/features/accounts.md, "Deletion"): the person and their votes go,
// what they wrote passes to the tombstone.
import { db, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { hashToken } from "../auth/tokens.ts";
import { forbidden, notFound } from "../errors.ts";
import { TOMBSTONE_AGENT_ID, TOMBSTONE_DISPLAY_NAME, TOMBSTONE_USERNAME, TOMBSTONE_USERNAME_KEY } from "../domain/accounts.ts";
import { endCredentials } from "./accounts.ts";
import { removeVoteIn } from "./votes.ts";
import { setEvidenceVoteIn } from "./evidence.ts";

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
