// Everything in the database that points at an account, with what deleting the account does with it
// (docs/features/accounts.md, "Deletion"). Deletion follows this list (account-deletion.ts), and
// tests/api/account-references.test.ts walks the database's catalog and fails on a foreign key to
// agents, or a uuid column, that is not listed here: a new table cannot break deletion silently.
import { Prisma } from "../db/generated/client.ts";

/**
 * - `reversed`: each row is removed first through the endpoint's own road (what it moved — sums,
 *   counts, gradients, reputation — moves back); the foreign key's cascade then finds nothing.
 * - `cascade`: the person's own; goes with the agents row (ON DELETE CASCADE).
 * - `tombstone`: what the person wrote or did for others stays, attributed to the tombstone agent.
 * - `set_null`: stays, without an owner.
 * - `delete`: removed by deletion (no foreign key does it).
 * - `kept`: stays as it is; `why` says why that is safe.
 */
export type OnAccountDeletion = "reversed" | "cascade" | "tombstone" | "set_null" | "delete" | "kept";

export interface AgentReference {
  table: string;
  column: string;
  /** The foreign key's ON DELETE rule in the schema, or null where no foreign key exists. */
  foreignKey: "cascade" | "set null" | "restrict" | null;
  onDeletion: OnAccountDeletion;
  /** The rows whose column names the agent, when not every row's does (a polymorphic or JSON column). */
  rowsOf?: (agent: Prisma.Sql) => Prisma.Sql;
  why: string;
}

export const AGENT_REFERENCES = [
  // ---- reversed first, in this order (evidence votes move their authors' reputation) ----
  {
    table: "evidence_votes",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "reversed",
    why: "each vote removed as DELETE /evidence/{id}/vote removes it: the author's reputation and the evidence's counts move back",
  },
  {
    table: "claim_votes",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "reversed",
    why: "each vote removed as DELETE /claims/{id}/vote removes it: sums, counts, gradients and history move back",
  },
  {
    table: "relevance_votes",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "reversed",
    why: "each vote removed as DELETE /arguments/{id}/relevance removes it: the argument's running sums move back",
  },

  // ---- what the person wrote or did for others passes to the tombstone ----
  { table: "claims", column: "author_id", foreignKey: "restrict", onDeletion: "tombstone", why: "others voted on it and argue with it" },
  { table: "evidence", column: "author_id", foreignKey: "restrict", onDeletion: "tombstone", why: "others voted on it" },
  { table: "comments", column: "author_id", foreignKey: "restrict", onDeletion: "tombstone", why: "others replied to it" },
  { table: "arguments", column: "author_id", foreignKey: "restrict", onDeletion: "tombstone", why: "the link between two claims is part of others' argument trees" },
  { table: "claim_checks", column: "proposer_id", foreignKey: "restrict", onDeletion: "tombstone", why: "a proposed outcome stays part of the check's record (its bond has moved)" },
  { table: "claim_checks", column: "disputer_id", foreignKey: "restrict", onDeletion: "tombstone", why: "a dispute stays part of the check's record (its bond has moved)" },
  { table: "claim_checks", column: "settled_by_id", foreignKey: "restrict", onDeletion: "tombstone", why: "the settlement stays, by the moderator who is now the tombstone" },
  { table: "check_clarifications", column: "author_id", foreignKey: "restrict", onDeletion: "tombstone", why: "a clarification is part of the check's terms others voted under" },
  {
    table: "moderation_audit",
    column: "actor_id",
    foreignKey: "restrict",
    onDeletion: "tombstone",
    why: "the audit keeps every action; its append-only trigger allows exactly this change",
  },
  { table: "reports", column: "resolved_by", foreignKey: null, onDeletion: "tombstone", why: "the report stays resolved, by the moderator who is now the tombstone" },

  // ---- stays without its owner ----
  {
    table: "vote_outcomes",
    column: "agent_id",
    foreignKey: "set null",
    onDeletion: "set_null",
    why: "others' track records and the crowd each of their votes was compared with do not change",
  },
  { table: "outbox_events", column: "actor_id", foreignKey: null, onDeletion: "set_null", why: "the event stays for its followers; the actor is only used to spare them their own events" },
  { table: "notifications", column: "last_actor_id", foreignKey: "set null", onDeletion: "set_null", why: "others' inbox threads stay; they no longer name the person as who acted" },

  // ---- removed by deletion ----
  {
    table: "reports",
    column: "target_id",
    foreignKey: null,
    onDeletion: "delete",
    rowsOf: (agent) => Prisma.sql`target_type = 'agent' AND target_id = ${agent}`,
    why: "reports about the person: there is no one left to judge",
  },
  {
    table: "mcp_oauth_artifacts",
    column: "payload",
    foreignKey: null,
    onDeletion: "delete",
    rowsOf: (agent) =>
      Prisma.sql`kind = 'Interaction' AND (payload->'session'->>'accountId' = ${agent}::text OR payload->'result'->'login'->>'accountId' = ${agent}::text)`,
    why: "a consent in flight names the person only in its JSON: resumed after the deletion it would issue a code to no one",
  },

  // ---- stays as it is ----
  {
    table: "moderation_audit",
    column: "target_id",
    foreignKey: null,
    onDeletion: "kept",
    rowsOf: (agent) => Prisma.sql`target_type = 'agent' AND target_id = ${agent}`,
    why: "the append-only audit keeps the action; the id of an account that no longer exists names no one (the log shows no name)",
  },
  {
    table: "outbox_events",
    column: "fanout_cursor",
    foreignKey: null,
    onDeletion: "kept",
    why: "a position in a claim's followers during a fan-out: the next batch starts after it whether or not that follower still exists",
  },

  // ---- the person's own: goes with the agents row ----
  { table: "accounts", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "OAuth provider links" },
  { table: "check_votes_at_close", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "its votes as they stood at a check's close_at: they leave the world scores with the votes themselves" },
  { table: "sessions", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "web sessions" },
  { table: "oauth_exchange_codes", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "one-time sign-in codes" },
  { table: "refresh_token_families", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "refresh tokens (refresh_tokens go with their family)" },
  { table: "api_keys", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "API keys (revoked before the deletion's transaction starts)" },
  {
    table: "mcp_oauth_artifacts",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "cascade",
    why: "MCP clients' grants, codes and tokens, and the OAuth server's sessions",
  },
  { table: "account_tokens", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "mailed reset and verification links" },
  { table: "bookmarks", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the person's bookmarks" },
  { table: "follows", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the person's follows" },
  { table: "topic_follows", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the topics the person follows" },
  { table: "agent_follows", column: "follower_id", foreignKey: "cascade", onDeletion: "cascade", why: "the people the person follows" },
  { table: "agent_follows", column: "followee_id", foreignKey: "cascade", onDeletion: "cascade", why: "others' follows of the person: there is no one left to follow" },
  { table: "notifications", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the person's inbox" },
  { table: "webhooks", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the person's webhooks (their deliveries go with them)" },
  {
    table: "reputation_events",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "cascade",
    why: "the person's reputation history (events of others' reputation name claims and evidence, not agents)",
  },
  {
    table: "reports",
    column: "reporter_id",
    foreignKey: "cascade",
    onDeletion: "cascade",
    why: "reports the person filed: a report stands for its reporter",
  },
  { table: "agent_bridging", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the person's factor in the bridging fit (the next fit runs without their votes)" },
  { table: "standing_pending", column: "agent_id", foreignKey: "cascade", onDeletion: "cascade", why: "the mark that the person's standing is to be decided again (their votes are gone with them)" },
  {
    table: "agent_track_records",
    column: "agent_id",
    foreignKey: "cascade",
    onDeletion: "cascade",
    why: "the person's track record (kept from vote_outcomes, which lose the person)",
  },
] as const satisfies readonly AgentReference[];

export type AgentReferenceEntry = (typeof AGENT_REFERENCES)[number];
/** The tables whose rows deletion removes one by one through the endpoint's road. */
export type ReversedTable = Extract<AgentReferenceEntry, { onDeletion: "reversed" }>["table"];

/** The rows of a reference that name the agent. */
export function rowsNaming(ref: AgentReference, agent: Prisma.Sql): Prisma.Sql {
  return ref.rowsOf ? ref.rowsOf(agent) : Prisma.sql`${Prisma.raw(ref.column)} = ${agent}`;
}
