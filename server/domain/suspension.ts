// Whether an agent is suspended now (docs/features/moderation.md#suspension): from `suspended_at` until
// `suspended_until`, or until a moderator lifts it when there is no end. The one rule, in the two forms
// it is evaluated in, side by side: as SQL where the agents row is read in a statement (identity
// resolution, the MCP grants' accounts, who is sent notifications and webhooks), and on a row already
// read (the ways to a new credential). tests/unit/one-door.test.ts fails on a file that restates it.

const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** SQL: the agents row aliased `alias` is not suspended at the statement's now() (`""`: unqualified columns). */
export function notSuspendedSql(alias = "a"): string {
  if (alias !== "" && !ALIAS.test(alias)) throw new Error(`suspension: ${alias} is not a table alias`);
  const col = (name: string) => (alias === "" ? name : `${alias}.${name}`);
  return `NOT (${col("suspended_at")} IS NOT NULL AND (${col("suspended_until")} IS NULL OR ${col("suspended_until")} > now()))`;
}

/** The same rule on a row already read, at `now`. */
export function isSuspended(agent: { suspendedAt: Date | null; suspendedUntil: Date | null }, now = new Date()): boolean {
  return agent.suspendedAt !== null && (agent.suspendedUntil === null || agent.suspendedUntil > now);
}
