// Claim votes (CONTRACT §4, §6): cast, change and remove a vote in one transaction with the claim row
// locked, so the running sums Σw·v and Σw, vote_count and the gradient stay exact under concurrent
// votes; a gradient-history point per change; resolution of the claim in the transaction of the vote
// that first brings it to consensus with at least 10 votes.
//
// Lock order, everywhere: the claim row, then agent rows in id order (resolution). Evidence votes lock
// the evidence row, then its author's row, and never a claim row, so the two cannot deadlock. All locks
// are FOR NO KEY UPDATE: they do not block the KEY SHARE locks that inserting a referencing row
// (a vote, a bookmark, a comment) takes on the same claim or agent.
import { db } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../api/errors.ts";
import { isUuid } from "../api/schemas/common.ts";
import {
  applySumsDelta,
  gradientFromSums,
  resolutionOutcome,
  shouldResolve,
  voteSumsDelta,
  voteWeight,
  type GradientSums,
  type ResolutionOutcome,
  type WeightedVote,
} from "../domain/gradient.ts";
import { applyEvents, resolutionChange, tierFor } from "../domain/reputation.ts";
import { claimView, type Claim } from "./claim-views.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";

type Tx = Prisma.TransactionClient;

/** Votes queue on one claim row: give waiting transactions room before Prisma gives up on them. */
export const WRITE_TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

interface LockedClaim {
  id: string;
  author_id: string;
  weighted_sum: number;
  weight_total: number;
  vote_count: number;
  resolved: boolean;
}

/** Locks the claim row for this transaction; null when there is no such claim. */
async function lockClaim(tx: Tx, claimId: string): Promise<LockedClaim | null> {
  if (!isUuid(claimId)) return null;
  const rows = await tx.$queryRaw<LockedClaim[]>`
    SELECT id::text AS id, author_id::text AS author_id, weighted_sum, weight_total, vote_count,
           (resolved_at IS NOT NULL) AS resolved
    FROM claims WHERE id = ${claimId}::uuid
    FOR NO KEY UPDATE`;
  return rows[0] ?? null;
}

/** The voter's reputation and current vote, read after the lock so that they are current. */
async function voterState(tx: Tx, claimId: string, agentId: string) {
  const rows = await tx.$queryRaw<{ reputation: number; value: number | null; weight: number | null }[]>`
    SELECT a.reputation, v.value, v.weight
    FROM agents a LEFT JOIN claim_votes v ON v.claim_id = ${claimId}::uuid AND v.agent_id = a.id
    WHERE a.id = ${agentId}::uuid`;
  const row = rows[0];
  const previous: WeightedVote | null =
    row && row.value !== null && row.weight !== null ? { value: Number(row.value), weight: Number(row.weight) } : null;
  return { reputation: Number(row?.reputation ?? 0), previous };
}

/** POST /claims/{id}/vote: casts or changes the caller's vote and returns the claim. */
export async function castVote(agentId: string, claimId: string, value: number): Promise<Claim> {
  await db().$transaction(async (tx) => {
    const claim = await lockClaim(tx, claimId);
    if (!claim) throw notFound(CLAIM_NOT_FOUND);
    if (claim.author_id === agentId) throw forbidden();
    const { reputation, previous } = await voterState(tx, claim.id, agentId);
    const next: WeightedVote = { value, weight: voteWeight(reputation) };
    if (previous) {
      await tx.claimVote.update({
        where: { claimId_agentId: { claimId: claim.id, agentId } },
        data: { value: next.value, weight: next.weight },
      });
    } else {
      await tx.claimVote.create({ data: { claimId: claim.id, agentId, value: next.value, weight: next.weight } });
    }
    await applyVoteChange(tx, claim, previous, next);
  }, WRITE_TX_OPTIONS);
  return (await claimView(claimId, agentId))!;
}

/** DELETE /claims/{id}/vote: removes the caller's vote if there is one. */
export async function removeVote(agentId: string, claimId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const claim = await lockClaim(tx, claimId);
    if (!claim) throw notFound(CLAIM_NOT_FOUND);
    const { previous } = await voterState(tx, claim.id, agentId);
    if (!previous) return;
    await tx.claimVote.delete({ where: { claimId_agentId: { claimId: claim.id, agentId } } });
    await applyVoteChange(tx, claim, previous, null);
  }, WRITE_TX_OPTIONS);
}

/**
 * Moves the claim's sums from `previous` to `next` (the vote row is already written), records the
 * new gradient in the history, and resolves the claim if this change brings it there first.
 */
async function applyVoteChange(tx: Tx, claim: LockedClaim, previous: WeightedVote | null, next: WeightedVote | null) {
  const before: GradientSums = {
    weightedSum: Number(claim.weighted_sum),
    weightTotal: Number(claim.weight_total),
    voteCount: Number(claim.vote_count),
  };
  const sums = applySumsDelta(before, voteSumsDelta(previous, next));
  const gradient = gradientFromSums(sums);
  const resolves = shouldResolve({ gradient, voteCount: sums.voteCount, alreadyResolved: claim.resolved });
  await tx.$executeRaw`
    UPDATE claims SET weighted_sum = ${sums.weightedSum}, weight_total = ${sums.weightTotal},
      vote_count = ${sums.voteCount}, gradient = ${gradient}, updated_at = now(),
      resolved_at = ${resolves ? Prisma.sql`now()` : Prisma.sql`resolved_at`}
    WHERE id = ${claim.id}::uuid`;
  await tx.gradientHistory.create({ data: { claimId: claim.id, gradient, voteCount: sums.voteCount } });
  if (resolves) await resolveClaim(tx, claim.id, gradient);
}

/**
 * Resolution (CONTRACT §6), once per claim: every vote gets its outcome; aligned voters gain 1,
 * opposed voters lose 0.5 (never below 0); both count a resolved vote, aligned ones a correct one;
 * each change is a reputation event. Voters' rows are locked in id order.
 */
async function resolveClaim(tx: Tx, claimId: string, gradient: number): Promise<void> {
  const votes = await tx.claimVote.findMany({ where: { claimId }, select: { id: true, agentId: true, value: true } });
  const outcomeOf = new Map(votes.map((v) => [v.agentId, resolutionOutcome(gradient, v.value)]));
  for (const outcome of ["aligned", "opposed", "neutral"] as ResolutionOutcome[]) {
    const ids = votes.filter((v) => outcomeOf.get(v.agentId) === outcome).map((v) => v.id);
    if (ids.length) await tx.claimVote.updateMany({ where: { id: { in: ids } }, data: { outcome } });
  }

  const voterIds = votes.filter((v) => resolutionChange(outcomeOf.get(v.agentId)!) !== null).map((v) => v.agentId);
  if (voterIds.length === 0) return;
  const voters = await tx.$queryRaw<{ id: string; reputation: number }[]>`
    SELECT id::text AS id, reputation FROM agents WHERE id = ANY(${voterIds}::uuid[]) ORDER BY id FOR NO KEY UPDATE`;

  const updates: { id: string; reputation: number; tier: string; correct: number }[] = [];
  const events: Prisma.ReputationEventCreateManyInput[] = [];
  for (const voter of voters) {
    const outcome = outcomeOf.get(voter.id)!;
    const change = resolutionChange(outcome)!;
    const applied = applyEvents(Number(voter.reputation), [change]);
    updates.push({ id: voter.id, reputation: applied.score, tier: tierFor(applied.score), correct: outcome === "aligned" ? 1 : 0 });
    for (const e of applied.events) {
      events.push({ agentId: voter.id, delta: e.delta, reputationScore: e.reputation_score, reason: e.reason, claimId });
    }
  }
  // One statement for all voters, however many there are.
  await tx.$executeRaw`
    UPDATE agents a SET reputation = u.reputation, tier = u.tier::"Tier",
      resolved_votes = a.resolved_votes + 1, correct_resolved_votes = a.correct_resolved_votes + u.correct,
      updated_at = now()
    FROM unnest(${updates.map((u) => u.id)}::uuid[], ${updates.map((u) => u.reputation)}::float8[],
                ${updates.map((u) => u.tier)}::text[], ${updates.map((u) => u.correct)}::int[])
         AS u(id, reputation, tier, correct)
    WHERE a.id = u.id`;
  await tx.reputationEvent.createMany({ data: events });
}
