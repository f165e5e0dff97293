// What the public sees (docs/features/moderation.md): the one rule that keeps hidden content out of every list,
// search, discovery result, topic, count and statistic. Every read query over claims, evidence or
// comments takes its predicate from here (tests/unit/visibility-guard.test.ts fails on a query that
// does not), and every maintained counter counts the same rows (the triggers of migration
// 'moderation', checked by services/invariants.ts).
//
// - a claim is visible unless hidden;
// - evidence and comments are visible unless hidden themselves or on a hidden claim.
//
// Hidden content is still read by id for its author and moderators (services/moderation.ts decides
// who); a vote on it answers 404 (services/votes.ts and services/evidence.ts lock only visible rows).
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { isModerator, type Role } from "../domain/roles.ts";
import type { ModerationInfo } from "../contract/common.ts";
import { notSuspendedSql } from "../domain/suspension.ts";
import { tableAlias, visibleClaimText, visibleOnClaimText } from "./visibility-rule.ts";

export { visibleClaimText, visibleOnClaimText };

/**
 * The agents row aliased `a` is not suspended now (a suspension with an end passes by itself). A
 * suspended agent is sent nothing: no inbox entry, no webhook delivery (docs/security.md).
 */
export const activeAgent = (a = "a"): Prisma.Sql => Prisma.raw(notSuspendedSql(tableAlias(a)));

/** `c.hidden_at IS NULL` for the claims row aliased `c`. */
export const visibleClaim = (c = "c"): Prisma.Sql => Prisma.raw(visibleClaimText(c));
/** Evidence row aliased `e` is visible (and so is its claim). */
export const visibleEvidence = (e = "e"): Prisma.Sql => Prisma.raw(visibleOnClaimText(e));
/** Comment row aliased `c` is visible (and so is its claim). */
export const visibleComment = (c = "c"): Prisma.Sql => Prisma.raw(visibleOnClaimText(c));

/** The same rule for Prisma's query builder. */
export const VISIBLE_CLAIM_WHERE = { hiddenAt: null } as const;
export const VISIBLE_ON_CLAIM_WHERE = { hiddenAt: null, claim: { hiddenAt: null } } as const;

export function moderationInfo(row: { hidden_at: Date | null; hidden_reason: string | null }): ModerationInfo | undefined {
  return row.hidden_at ? { hidden: true, reason: row.hidden_reason, hidden_at: new Date(row.hidden_at).toISOString() } : undefined;
}

/**
 * Whether `viewerId` may see hidden content written by `authorId`: its author, and moderators and
 * admins (their role read now, so a role change holds at once).
 */
export async function mayReveal({ viewerId, authorId }: { viewerId: string | null; authorId: string }): Promise<boolean> {
  if (viewerId === null) return false;
  if (viewerId === authorId) return true;
  const [row] = await readSql<{ role: Role }>(Prisma.sql`SELECT role::text AS role FROM agents WHERE id = ${viewerId}::uuid`, { prepared: true });
  return row !== undefined && isModerator(row.role);
}
