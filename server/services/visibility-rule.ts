// The visibility rule as SQL text (docs/features/moderation.md), in a module that imports nothing:
// visibility.ts builds every service's predicates from it, and the benchmark's yardstick
// (bench/bare-server.ts), which runs the services' statements without Prisma, takes the same text.

const ALIAS = /^[a-z_][a-z0-9_]*$/;

/** `name`, refused unless it is a plain table alias (the rule is pasted into SQL text). */
export function tableAlias(name: string): string {
  if (!ALIAS.test(name)) throw new Error(`visibility: ${name} is not a table alias`);
  return name;
}

/** The SQL text of the claim rule, for the counters' checks and other raw SQL strings. */
export const visibleClaimText = (c: string) => `${tableAlias(c)}.hidden_at IS NULL`;

/** Content on a claim (evidence, comments): visible itself and on a visible claim. */
export const visibleOnClaimText = (x: string) =>
  `(${tableAlias(x)}.hidden_at IS NULL AND NOT EXISTS (SELECT 1 FROM claims hidden_claim WHERE hidden_claim.id = ${x}.claim_id AND hidden_claim.hidden_at IS NOT NULL))`;
