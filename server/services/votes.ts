// Claim votes (docs/api.md#claims, #scoring): cast, change and remove a vote in one transaction with the claim row
// locked, so the running sums Σw·v and Σw, vote_count and the gradient stay exact under concurrent
// votes; a gradient-history point per change (re-sending the same vote is no change); resolution of
// the claim in the transaction of the vote that first brings it to consensus with at least 10 votes,
// which writes every vote's outcome record (vote_outcomes): history that later changes cannot erase.
//
// Lock order, everywhere: the claim row, then agent rows in id order (resolution). Evidence votes lock
// the evidence row, then its author's row, and never a claim row, so the two cannot deadlock. All locks
// are FOR NO KEY UPDATE: they do not block the KEY SHARE locks that inserting a referencing row
// (a vote, a bookmark, a comment) takes on the same claim or agent.
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import {
  applyVote,
  crowdGradient,
  gradientFromSums,
  shouldResolve,
  voteWeight,
  type GradientSums,
  type WeightedVote,
} from "../domain/gradient.ts";
import { outcomeRecord } from "../domain/outcomes.ts";
import { applyEvents, resolutionChange, tierFor } from "../domain/reputation.ts";
import { claimAfterWrite, type Claim } from "./claim-views.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { visibleClaim } from "./visibility.ts";



import { recordEvent } from "./outbox.ts";

interface LockedClaim {
  id: string;
  author_id: string;
  weighted_sum: number;
  weight_total: number;
  vote_count: number;
  resolved: boolean;
}

/**
 * Locks the claim row for this transaction; null when there is no such claim or it is hidden (a vote
 * on hidden content is a 404). A hide waiting on this lock then counts this vote off the totals.
 */
async function lockClaim(tx: SqlTx, claimId: string, hidden: "refuse" | "include" = "refuse"): Promise<LockedClaim | null> {
  if (!isUuid(claimId)) return null;
  const visible = hidden === "include" ? Prisma.sql`true` : visibleClaim("c");
  const [claim] = await tx.query<LockedClaim>(Prisma.sql`
    SELECT id::text AS id, author_id::text AS author_id, weighted_sum, weight_total, vote_count,
           (resolved_at IS NOT NULL) AS resolved
    FROM claims c WHERE c.id = ${claimId}::uuid AND ${visible}
    FOR NO KEY UPDATE`, { prepared: true });
  return claim ?? null;
}

/** The voter's reputation and current vote, read after the lock so that they are current. */
async function voterState(tx: SqlTx, claimId: string, agentId: string) {
  const [row] = await tx.query<{ reputation: number; value: number | null; weight: number | null }>(Prisma.sql`
    SELECT a.reputation, v.value, v.weight
    FROM agents a LEFT JOIN claim_votes v ON v.claim_id = ${claimId}::uuid AND v.agent_id = a.id
    WHERE a.id = ${agentId}::uuid`, { prepared: true });
  const previous: WeightedVote | null =
    row && row.value !== null && row.weight !== null ? { value: Number(row.value), weight: Number(row.weight) } : null;
  return { reputation: Number(row?.reputation ?? 0), previous };
}

/**
 * POST /claims/{id}/vote: casts or changes the caller's vote and returns the claim. The vote runs on
 * the driver (`sqlTransaction`): it is the hottest write, and Prisma's per-statement cost was 80 % of it.
 */
export async function castVote(agentId: string, claimId: string, value: number): Promise<Claim> {
  await sqlTransaction(async (tx) => {
    const claim = await lockClaim(tx, claimId);
    if (!claim) throw notFound(CLAIM_NOT_FOUND);
    if (claim.author_id === agentId) throw forbidden();
    const { reputation, previous } = await voterState(tx, claim.id, agentId);
    const next: WeightedVote = { value, weight: voteWeight(reputation) };
    // The same value with the same weight moves nothing: no write, no history point, updated_at stays.
    // (The same value with a new weight does move the gradient, and is a change.)
    if (previous && previous.value === next.value && previous.weight === next.weight) return;
    // The crowd this value is cast against: the other votes, as they stand. Kept while the value
    // stands (a re-weighted, same value keeps it) and copied into the outcome record at resolution.
    const crowd = crowdGradient(sumsOf(claim), previous);
    const setCrowd = previous?.value === next.value ? Prisma.empty : Prisma.sql`, crowd_gradient = ${crowd}::float8`;
    const writeVote = previous
      ? Prisma.sql`UPDATE claim_votes SET value = ${next.value}::float8, weight = ${next.weight}::float8, updated_at = now() ${setCrowd}
          WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`
      : Prisma.sql`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, updated_at)
          VALUES (gen_random_uuid(), ${claim.id}::uuid, ${agentId}::uuid, ${next.value}::float8, ${next.weight}::float8, ${crowd}::float8, now())`;
    await applyVoteChange(tx, claim, writeVote, previous, next);
    await recordEvent(tx, { type: "claim.voted", claimId: claim.id, actorId: agentId });
  });
  const claim = await claimAfterWrite(claimId, agentId);
  if (!claim) throw notFound(CLAIM_NOT_FOUND); // deleted by its author since
  return claim;
}

/** DELETE /claims/{id}/vote: removes the caller's vote if there is one. */
export async function removeVote(agentId: string, claimId: string): Promise<void> {
  await sqlTransaction((tx) => removeVoteIn(tx, agentId, claimId));
}

/**
 * The one removal of a claim vote, inside the caller's transaction: DELETE /claims/{id}/vote and
 * account deletion (which also reaches votes on hidden claims: `hidden: "include"`) both come here,
 * so every sum the vote entered is taken out the same way.
 */
export async function removeVoteIn(tx: SqlTx, agentId: string, claimId: string, hidden: "refuse" | "include" = "refuse"): Promise<void> {
  const claim = await lockClaim(tx, claimId, hidden);
  if (!claim) throw notFound(CLAIM_NOT_FOUND);
  const { previous } = await voterState(tx, claim.id, agentId);
  if (!previous) return;
  const deleteVote = Prisma.sql`DELETE FROM claim_votes WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`;
  await applyVoteChange(tx, claim, deleteVote, previous, null);
  await recordEvent(tx, { type: "claim.voted", claimId: claim.id, actorId: agentId });
}

function sumsOf(claim: LockedClaim): GradientSums {
  return {
    weightedSum: Number(claim.weighted_sum),
    weightTotal: Number(claim.weight_total),
    voteCount: Number(claim.vote_count),
  };
}

/**
 * Writes the vote (`writeVote`), moves the claim's sums from `previous` to `next`, records the new
 * gradient in the history — the three in one statement, one round trip — and resolves the claim if
 * this change brings it there first.
 */
async function applyVoteChange(
  tx: SqlTx,
  claim: LockedClaim,
  writeVote: Prisma.Sql,
  previous: WeightedVote | null,
  next: WeightedVote | null,
) {
  const sums = applyVote(sumsOf(claim), previous, next);
  const gradient = gradientFromSums(sums);
  const resolves = shouldResolve({ gradient, voteCount: sums.voteCount, alreadyResolved: claim.resolved });
  // Data-modifying CTEs run exactly once each, whether or not anything reads them.
  await tx.execute(Prisma.sql`
    WITH vote AS (${writeVote}),
    claim AS (
      UPDATE claims SET weighted_sum = ${sums.weightedSum}::float8, weight_total = ${sums.weightTotal}::float8,
        vote_count = ${sums.voteCount}::int, gradient = ${gradient}::float8, updated_at = now(),
        resolved_at = ${resolves ? Prisma.sql`now()` : Prisma.sql`resolved_at`}
      WHERE id = ${claim.id}::uuid
    )
    INSERT INTO gradient_history (claim_id, gradient, vote_count) VALUES (${claim.id}::uuid, ${gradient}::float8, ${sums.voteCount}::int)`,
    { prepared: true },
  );
  if (resolves) await resolveClaim(tx, claim.id, gradient);
}

/**
 * Resolution (docs/api.md#scoring), once per claim: every vote gets an outcome record (vote_outcomes, with
 * the claim's tags and resolved_at); aligned voters gain 1, opposed voters lose 0.5 (never below 0);
 * both count a resolved vote, aligned ones a correct one; each change is a reputation event. Voters'
 * rows are locked in id order.
 */
async function resolveClaim(tx: SqlTx, claimId: string, gradient: number): Promise<void> {
  await recordEvent(tx, { type: "claim.resolved", claimId, actorId: null });
  const votes = await tx.query<{ agent_id: string; value: number; crowd_gradient: number | null }>(Prisma.sql`
    SELECT agent_id::text AS agent_id, value, crowd_gradient FROM claim_votes WHERE claim_id = ${claimId}::uuid`);
  const records = votes.map((v) => ({
    agentId: v.agent_id,
    ...outcomeRecord({ value: Number(v.value) }, v.crowd_gradient === null ? null : Number(v.crowd_gradient), gradient),
  }));
  const outcomeOf = new Map(records.map((r) => [r.agentId, r.outcome]));
  if (records.length) {
    await tx.execute(Prisma.sql`
      INSERT INTO vote_outcomes (claim_id, agent_id, value, crowd_gradient, crowd_basis, resolution_gradient,
                                 consensus_true, outcome, tags, resolved_at)
      SELECT c.id, r.agent, r.value, r.crowd, r.basis::"CrowdBasis", ${gradient}::float8, ${records[0].consensusTrue}::boolean,
             r.outcome::"VoteOutcome", c.tags, c.resolved_at
      FROM claims c,
           unnest(${records.map((r) => r.agentId)}::uuid[], ${records.map((r) => r.value)}::float8[],
                  ${records.map((r) => r.crowdGradient)}::float8[], ${records.map((r) => r.crowdBasis)}::text[],
                  ${records.map((r) => r.outcome)}::text[]) AS r(agent, value, crowd, basis, outcome)
      WHERE c.id = ${claimId}::uuid`);
  }

  const voterIds = votes.filter((v) => resolutionChange(outcomeOf.get(v.agent_id)!) !== null).map((v) => v.agent_id);
  if (voterIds.length === 0) return;
  const voters = await tx.query<{ id: string; reputation: number }>(Prisma.sql`
    SELECT id::text AS id, reputation FROM agents WHERE id = ANY(${voterIds}::uuid[]) ORDER BY id FOR NO KEY UPDATE`);

  const updates = { id: [] as string[], reputation: [] as number[], tier: [] as string[], correct: [] as number[] };
  const events = { agent: [] as string[], delta: [] as number[], score: [] as number[], reason: [] as string[] };
  for (const voter of voters) {
    const outcome = outcomeOf.get(voter.id)!;
    const applied = applyEvents(Number(voter.reputation), [resolutionChange(outcome)!]);
    updates.id.push(voter.id);
    updates.reputation.push(applied.score);
    updates.tier.push(tierFor(applied.score));
    updates.correct.push(outcome === "aligned" ? 1 : 0);
    for (const e of applied.events) {
      events.agent.push(voter.id);
      events.delta.push(e.delta);
      events.score.push(e.reputation_score);
      events.reason.push(e.reason);
    }
  }
  // One statement each for all voters and all their events, however many there are.
  await tx.execute(Prisma.sql`
    UPDATE agents a SET reputation = u.reputation, tier = u.tier::"Tier",
      resolved_votes = a.resolved_votes + 1, correct_resolved_votes = a.correct_resolved_votes + u.correct,
      updated_at = now()
    FROM unnest(${updates.id}::uuid[], ${updates.reputation}::float8[], ${updates.tier}::text[], ${updates.correct}::int[])
         AS u(id, reputation, tier, correct)
    WHERE a.id = u.id`);
  if (events.agent.length) {
    await tx.execute(Prisma.sql`
      INSERT INTO reputation_events (agent_id, delta, reputation_score, reason, claim_id)
      SELECT agent, delta, score, reason::"ReputationReason", ${claimId}::uuid
      FROM unnest(${events.agent}::uuid[], ${events.delta}::float8[], ${events.score}::float8[], ${events.reason}::text[])
           AS e(agent, delta, score, reason)`);
  }
}
