// Resolution (docs/features/consensus.md): a claim resolves once, after it has held consensus_true or
// consensus_false for RESOLUTION_STABLE_SECONDS with at least 10 voters with standing. With 0 the vote that brings it
// there resolves it in its own transaction; otherwise (and for consensus reached through a bridging
// re-score) the resolution job of every instance looks for due claims. Exactly one transaction
// resolves a claim: it holds the claim row's lock and sets resolved_at only WHERE resolved_at IS NULL,
// and only that transaction writes the outcome records (vote_outcomes, never changed afterwards).
//
// Lock order as the votes': the claim row, then agent rows in id order; one claim per transaction.
import { config } from "../config.ts";
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { resolutionDue, type ConsensusStatus } from "../domain/consensus.ts";
import { MIN_RESOLUTION_VOTES } from "../domain/gradient.ts";
import { outcomeRecord } from "../domain/outcomes.ts";
import { applyEvents, resolutionChange, tierFor } from "../domain/reputation.ts";
import { recordEvent } from "./outbox.ts";
import { visibleClaim } from "./visibility.ts";

/** Due claims resolved per run of the job at most; the job goes again at once after a full batch. */
export const RESOLUTION_BATCH = 50;

interface DueClaim {
  id: string;
  gradient: number;
  counted_vote_count: number;
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  resolved: boolean;
  db_now: Date;
}

/**
 * Resolves up to `limit` due claims, each in a transaction of its own; returns how many it resolved.
 * Several instances may run it at once: a claim row locked by one is skipped by the others (SKIP
 * LOCKED), and a claim resolved meanwhile is no longer due when its lock is taken.
 */
export async function resolveDueClaims(limit = RESOLUTION_BATCH, stableSeconds = config().RESOLUTION_STABLE_SECONDS): Promise<number> {
  let resolved = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await sqlTransaction(async (tx) => {
      const [claim] = await tx.query<DueClaim>(Prisma.sql`
        SELECT c.id::text AS id, c.gradient, c.counted_vote_count, c.consensus_status::text AS consensus_status,
               c.consensus_since, (c.resolved_at IS NOT NULL) AS resolved, GREATEST(now(), c.consensus_since) AS db_now
        FROM claims c
        WHERE c.resolved_at IS NULL AND c.consensus_status IN ('consensus_true', 'consensus_false')
          AND c.counted_vote_count >= ${MIN_RESOLUTION_VOTES}::int
          AND c.consensus_since <= now() - make_interval(secs => ${stableSeconds}::float8)
          AND ${visibleClaim("c")}
        ORDER BY c.consensus_since, c.id
        LIMIT 1
        FOR NO KEY UPDATE SKIP LOCKED`);
      if (!claim) return "none" as const;
      // The row as it is now that it is locked (READ COMMITTED re-reads a row it waited for).
      const due = resolutionDue(
        { status: claim.consensus_status, since: claim.consensus_since, voters: Number(claim.counted_vote_count), resolved: claim.resolved },
        claim.db_now,
        stableSeconds,
      );
      if (!due) return "skipped" as const;
      return (await resolveClaim(tx, { claimId: claim.id, gradient: Number(claim.gradient), consensusTrue: claim.consensus_status === "consensus_true" }))
        ? ("resolved" as const)
        : ("skipped" as const);
    });
    if (outcome !== "resolved") break;
    resolved++;
  }
  return resolved;
}

/**
 * Resolves the claim (its row locked by the caller's transaction) to a true or false consensus, unless
 * it has resolved before; returns whether it did. Every vote gets an outcome record (vote_outcomes,
 * with the claim's tags and resolved_at); aligned voters gain 1, opposed voters lose 0.5 (never below
 * 0); both count a resolved vote, aligned ones a correct one; each change is a reputation event.
 * Voters' rows are locked in id order.
 */
export async function resolveClaim(
  tx: SqlTx,
  { claimId, gradient, consensusTrue }: { claimId: string; gradient: number; consensusTrue: boolean },
): Promise<boolean> {
  const marked = await tx.query<{ id: string }>(Prisma.sql`
    UPDATE claims SET resolved_at = now() WHERE id = ${claimId}::uuid AND resolved_at IS NULL RETURNING id::text AS id`);
  if (marked.length === 0) return false;
  await recordEvent(tx, { type: "claim.resolved", claimId, actorId: null });
  const votes = await tx.query<{ agent_id: string; value: number; crowd_gradient: number | null }>(Prisma.sql`
    SELECT agent_id::text AS agent_id, value, crowd_gradient FROM claim_votes WHERE claim_id = ${claimId}::uuid`);
  const records = votes.map((v) => ({
    agentId: v.agent_id,
    ...outcomeRecord({
      value: Number(v.value),
      crowdAtCast: v.crowd_gradient === null ? null : Number(v.crowd_gradient),
      resolutionGradient: gradient,
      consensusTrue,
    }),
  }));
  const outcomeOf = new Map(records.map((r) => [r.agentId, r.outcome]));
  if (records.length) {
    await tx.execute(Prisma.sql`
      INSERT INTO vote_outcomes (claim_id, agent_id, value, crowd_gradient, crowd_basis, resolution_gradient,
                                 consensus_true, outcome, tags, resolved_at)
      SELECT c.id, r.agent, r.value, r.crowd, r.basis::"CrowdBasis", ${gradient}::float8, ${consensusTrue}::boolean,
             r.outcome::"VoteOutcome", c.tags, c.resolved_at
      FROM claims c,
           unnest(${records.map((r) => r.agentId)}::uuid[], ${records.map((r) => r.value)}::float8[],
                  ${records.map((r) => r.crowdGradient)}::float8[], ${records.map((r) => r.crowdBasis)}::text[],
                  ${records.map((r) => r.outcome)}::text[]) AS r(agent, value, crowd, basis, outcome)
      WHERE c.id = ${claimId}::uuid`);
  }

  const voterIds = votes.filter((v) => resolutionChange(outcomeOf.get(v.agent_id)!) !== null).map((v) => v.agent_id);
  if (voterIds.length === 0) return true;
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
  return true;
}
