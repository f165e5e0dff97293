// Deletion of an account (docs/features/accounts.md, "Deletion"): the person and their votes go,
// what they wrote passes to the tombstone. Every reference to the account is handled as the list in
// account-references.ts says.
import { db, sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { hashToken } from "../auth/tokens.ts";
import { confirmationFailed, notFound } from "../errors.ts";
import { TOMBSTONE_AGENT_ID, TOMBSTONE_DISPLAY_NAME, TOMBSTONE_USERNAME, TOMBSTONE_USERNAME_KEY } from "../domain/accounts.ts";
import { endCredentials } from "./accounts.ts";
import { removeVoteIn } from "./votes.ts";
import { setEvidenceVoteIn } from "./evidence.ts";
import { changeRelevanceIn } from "./arguments.ts";
import { AGENT_REFERENCES, rowsNaming, type AgentReference, type ReversedTable } from "./account-references.ts";

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
 * confirmation) matched. Every credential ends first (logins, API keys, MCP clients' grants and the
 * OAuth server's sessions), so no new request of the account starts; then one transaction removes
 * the person and corrects everything they moved (deleteAccountIn).
 */
export async function deleteAccount(agentId: string, input: { password?: string; confirm?: string }): Promise<void> {
  const agent = await db().agent.findUnique({ where: { id: agentId }, select: { username: true, passwordHash: true } });
  if (!agent) throw notFound("Agent not found");
  const confirmed = agent.passwordHash
    ? await verifyPassword(input.password ?? "", agent.passwordHash)
    : input.confirm !== undefined && input.confirm.trim().toLowerCase() === agent.username.toLowerCase();
  if (!confirmed) throw confirmationFailed();
  await db().$transaction((tx) => endCredentials(tx, { agentId, everything: true, also: { apiKeys: true, mcpGrants: true, oauthSessions: true } }));
  for (let attempt = 1; ; attempt++) {
    try {
      await sqlTransaction((tx) => deleteAccountIn(tx, agentId));
      return;
    } catch (err) {
      if (!isDeadlock(err) || attempt >= DELETE_ATTEMPTS) throw err;
    }
  }
}

/** Removes each of the agent's rows of a `reversed` reference through the endpoint's own road. */
const REVERSE: Record<ReversedTable, (tx: SqlTx, agentId: string) => Promise<void>> = {
  async evidence_votes(tx, agentId) {
    const votes = await tx.query<{ evidence_id: string }>(Prisma.sql`
      SELECT evidence_id::text AS evidence_id FROM evidence_votes WHERE agent_id = ${agentId}::uuid ORDER BY evidence_id`);
    for (const v of votes) await setEvidenceVoteIn(tx, { agentId, evidenceId: v.evidence_id, next: null, hidden: "include" });
  },
  async claim_votes(tx, agentId) {
    const votes = await tx.query<{ claim_id: string }>(Prisma.sql`
      SELECT claim_id::text AS claim_id FROM claim_votes WHERE agent_id = ${agentId}::uuid ORDER BY claim_id`);
    for (const v of votes) await removeVoteIn(tx, { agentId, claimId: v.claim_id, hidden: "include" });
  },
  async relevance_votes(tx, agentId) {
    const votes = await tx.query<{ argument_id: string }>(Prisma.sql`
      SELECT argument_id::text AS argument_id FROM relevance_votes WHERE agent_id = ${agentId}::uuid ORDER BY argument_id`);
    for (const v of votes) await changeRelevanceIn(tx, { agentId, argumentId: v.argument_id, next: null, hidden: "include" });
  },
};

/**
 * One transaction, following the list of everything that points at an account
 * (account-references.ts): `reversed` rows go through their endpoint's road (every sum, count,
 * gradient and reputation they moved moves back), then `tombstone`, `set_null` and `delete` rows are
 * rewritten, the username is retired, and the agents row goes with its `cascade` rows.
 */
async function deleteAccountIn(tx: SqlTx, agentId: string): Promise<void> {
  const [agent] = await tx.query<{ username_key: string }>(Prisma.sql`
    SELECT username_key FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`);
  if (!agent) return;
  const self = Prisma.sql`${agentId}::uuid`;
  for (const ref of AGENT_REFERENCES) if (ref.onDeletion === "reversed") await REVERSE[ref.table](tx, agentId);

  await tx.execute(Prisma.sql`
    INSERT INTO agents (id, username, username_key, display_name, updated_at)
    VALUES (${TOMBSTONE_AGENT_ID}::uuid, ${TOMBSTONE_USERNAME}, ${TOMBSTONE_USERNAME_KEY}, ${TOMBSTONE_DISPLAY_NAME}, now())
    ON CONFLICT (id) DO NOTHING`);
  // Others' votes on this evidence moved the deleted person's reputation, not the tombstone's: the
  // tombstone owes nothing when they are changed or removed later.
  await tx.execute(Prisma.sql`
    UPDATE evidence_votes SET applied_delta = 0
    WHERE evidence_id IN (SELECT id FROM evidence WHERE author_id = ${self})`);

  const tombstone = Prisma.sql`${TOMBSTONE_AGENT_ID}::uuid`;
  for (const ref of AGENT_REFERENCES as readonly AgentReference[]) {
    const table = Prisma.raw(ref.table);
    const column = Prisma.raw(ref.column);
    const rows = rowsNaming(ref, self);
    if (ref.onDeletion === "tombstone") await tx.execute(Prisma.sql`UPDATE ${table} SET ${column} = ${tombstone} WHERE ${rows}`);
    else if (ref.onDeletion === "set_null") await tx.execute(Prisma.sql`UPDATE ${table} SET ${column} = NULL WHERE ${rows}`);
    else if (ref.onDeletion === "delete") await tx.execute(Prisma.sql`DELETE FROM ${table} WHERE ${rows}`);
  }
  await tx.execute(Prisma.sql`
    INSERT INTO retired_usernames (key_hash) VALUES (${hashToken(agent.username_key)}) ON CONFLICT DO NOTHING`);
  await tx.execute(Prisma.sql`DELETE FROM agents WHERE id = ${self}`);
}
