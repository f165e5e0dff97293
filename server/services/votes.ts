// Claim votes (docs/api.md#claims, #scoring): cast, change and remove a vote in one transaction with the claim row
// locked, so the running sums Σw·v and Σw, vote_count and the gradient stay exact under concurrent
// votes; the histogram of vote values and the consensus status (and when it began) in the same
// statement (docs/features/consensus.md); a gradient-history point per change (re-sending the same
// vote is no change); with RESOLUTION_STABLE_SECONDS 0, resolution in the transaction of the vote that
// brings the claim to a consensus it may resolve on (services/resolution.ts; otherwise the job does).
//
// Lock order, everywhere: the claim row, then agent rows in id order (resolution). Evidence votes lock
// the evidence row, then its author's row, and never a claim row, so the two cannot deadlock. All locks
// are FOR NO KEY UPDATE: they do not block the KEY SHARE locks that inserting a referencing row
// (a vote, a bookmark, a comment) takes on the same claim or agent.
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { config } from "../config.ts";
import {
  applyVote,
  crowdGradient,
  gradientFromSums,
  voteWeight,
  type GradientSums,
  type WeightedVote,
} from "../domain/gradient.ts";
import {
  applyToHistogram,
  consensusVerdict,
  resolutionDue,
  statusSince,
  type BridgingStatusName,
  type ConsensusStatus,
} from "../domain/consensus.ts";
import { claimAfterWrite, claimViewQuery, toClaim, type Claim, type ClaimViewRow } from "./claim-views.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { visibleClaim } from "./visibility.ts";
import { eventInsert, notifyRelay, type RecordedEvent } from "./outbox.ts";
import { resolveClaim } from "./resolution.ts";

interface LockedClaim {
  id: string;
  author_id: string;
  weighted_sum: number;
  weight_total: number;
  vote_count: number;
  people_weighted_sum: number;
  people_weight_total: number;
  people_vote_count: number;
  vote_histogram: number[];
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  resolved: boolean;
  /** The transaction's now(): the database's clock, which every `since` is on. */
  db_now: Date;
}

/**
 * Locks the claim row for this transaction; null when there is no such claim or it is hidden (a vote
 * on hidden content is a 404). A hide waiting on this lock then counts this vote off the totals.
 * `db_now` is never before the stored `consensus_since`: now() is this transaction's start, which can
 * precede the commit of a vote it waited for on the lock, and time must not run backwards for `since`
 * and the resolution's stable time.
 */
async function lockClaim(tx: SqlTx, claimId: string, hidden: "refuse" | "include" = "refuse"): Promise<LockedClaim | null> {
  if (!isUuid(claimId)) return null;
  const visible = hidden === "include" ? Prisma.sql`true` : visibleClaim("c");
  const [claim] = await tx.query<LockedClaim>(Prisma.sql`
    SELECT id::text AS id, author_id::text AS author_id, weighted_sum, weight_total, vote_count,
           people_weighted_sum, people_weight_total, people_vote_count,
           vote_histogram, consensus_status::text AS consensus_status, consensus_since,
           (resolved_at IS NOT NULL) AS resolved, GREATEST(now(), consensus_since) AS db_now
    FROM claims c WHERE c.id = ${claimId}::uuid AND ${visible}
    FOR NO KEY UPDATE`, { prepared: true });
  return claim ?? null;
}

/** A stored vote and whether it was cast as an automated account's (left out of the people sums). */
type SortedVote = WeightedVote & { automated: boolean };

/**
 * The voter's reputation, whether the account is automated, and its current vote, and the claim's
 * bridging status, read after the lock (a statement of its own, so that its snapshot is newer than
 * the lock: a bridging write that held the claim row before us has committed its status by then).
 */
async function voterState(tx: SqlTx, claimId: string, agentId: string) {
  const [row] = await tx.query<{
    reputation: number;
    automated: boolean;
    value: number | null;
    weight: number | null;
    vote_automated: boolean | null;
    bridging_status: BridgingStatusName | null;
  }>(
    Prisma.sql`
    SELECT a.reputation, a.automated, v.value, v.weight, v.automated AS vote_automated,
           (SELECT b.status::text FROM claim_bridging b WHERE b.claim_id = ${claimId}::uuid) AS bridging_status
    FROM agents a LEFT JOIN claim_votes v ON v.claim_id = ${claimId}::uuid AND v.agent_id = a.id
    WHERE a.id = ${agentId}::uuid`,
    { prepared: true },
  );
  const previous: SortedVote | null =
    row && row.value !== null && row.weight !== null
      ? { value: Number(row.value), weight: Number(row.weight), automated: Boolean(row.vote_automated) }
      : null;
  return {
    reputation: Number(row?.reputation ?? 0),
    automated: Boolean(row?.automated),
    previous,
    bridgingStatus: row?.bridging_status ?? "insufficient_data",
  };
}

/**
 * POST /claims/{id}/vote: casts or changes the caller's vote and returns the claim. The vote runs on
 * the driver (`sqlTransaction`): it is the hottest write, and Prisma's per-statement cost was 80 % of it.
 */
export async function castVote({ agentId, claimId, value }: { agentId: string; claimId: string; value: number }): Promise<Claim> {
  // The claim as the voter sees it, returned by the vote's own statement (its row as written, the
  // voter's new value); read after the commit instead when nothing was written or the claim resolved.
  const written = await sqlTransaction(async (tx): Promise<ClaimViewRow | null> => {
    const claim = await lockClaim(tx, claimId);
    if (!claim) throw notFound(CLAIM_NOT_FOUND);
    if (claim.author_id === agentId) throw forbidden();
    const { reputation, automated, previous, bridgingStatus } = await voterState(tx, claim.id, agentId);
    const next: SortedVote = { value, weight: voteWeight(reputation), automated };
    // The same value with the same weight moves nothing: no write, no history point, updated_at stays.
    // (The same value with a new weight does move the gradient, and is a change.)
    if (previous && previous.value === next.value && previous.weight === next.weight && previous.automated === next.automated) return null;
    // The crowd this value is cast against: the other votes, as they stand. Kept while the value
    // stands (a re-weighted, same value keeps it) and copied into the outcome record at resolution.
    const crowd = crowdGradient(sumsOf(claim), previous);
    const setCrowd = previous?.value === next.value ? Prisma.empty : Prisma.sql`, crowd_gradient = ${crowd}::float8`;
    const writeVote = previous
      ? Prisma.sql`UPDATE claim_votes SET value = ${next.value}::float8, weight = ${next.weight}::float8, automated = ${next.automated}::boolean,
          updated_at = now() ${setCrowd}
          WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`
      : Prisma.sql`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, automated, updated_at)
          VALUES (gen_random_uuid(), ${claim.id}::uuid, ${agentId}::uuid, ${next.value}::float8, ${next.weight}::float8, ${crowd}::float8,
                  ${next.automated}::boolean, now())`;
    return applyVoteChange(tx, claim, bridgingStatus, writeVote, previous, next, { type: "claim.voted", claimId: claim.id, actorId: agentId }, agentId);
  });
  // The row was locked and visible throughout, so the view carries no moderation details to withhold.
  if (written) return toClaim(written, true);
  const claim = await claimAfterWrite(claimId, agentId);
  if (!claim) throw notFound(CLAIM_NOT_FOUND); // deleted by its author since
  return claim;
}

/** DELETE /claims/{id}/vote: removes the caller's vote if there is one. */
export async function removeVote({ agentId, claimId }: { agentId: string; claimId: string }): Promise<void> {
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
  const { previous, bridgingStatus } = await voterState(tx, claim.id, agentId);
  if (!previous) return;
  const deleteVote = Prisma.sql`DELETE FROM claim_votes WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`;
  await applyVoteChange(tx, claim, bridgingStatus, deleteVote, previous, null, { type: "claim.voted", claimId: claim.id, actorId: agentId });
}

function sumsOf(claim: LockedClaim): GradientSums {
  return {
    weightedSum: Number(claim.weighted_sum),
    weightTotal: Number(claim.weight_total),
    voteCount: Number(claim.vote_count),
  };
}

/** The sums over the votes of people (accounts that are not automated): gradient_people. */
function peopleSumsOf(claim: LockedClaim): GradientSums {
  return {
    weightedSum: Number(claim.people_weighted_sum),
    weightTotal: Number(claim.people_weight_total),
    voteCount: Number(claim.people_vote_count),
  };
}

/** A vote as the people sums see it: an automated account's vote is no vote there. */
const asPeople = (vote: SortedVote | null): WeightedVote | null => (vote && !vote.automated ? vote : null);

/**
 * Writes the vote (`writeVote`), moves the claim's sums and histogram from `previous` to `next`, stores
 * the consensus status that follows, records the new gradient in the history and the vote's event in
 * the outbox (services/outbox.ts) — all in one statement, one round trip while the claim row is
 * locked — and resolves the claim when that makes it due at once (RESOLUTION_STABLE_SECONDS 0).
 */
async function applyVoteChange(
  tx: SqlTx,
  claim: LockedClaim,
  bridgingStatus: BridgingStatusName,
  writeVote: Prisma.Sql,
  previous: SortedVote | null,
  next: SortedVote | null,
  event: RecordedEvent,
  viewer?: string,
): Promise<ClaimViewRow | null> {
  const sums = applyVote(sumsOf(claim), previous, next);
  const people = applyVote(peopleSumsOf(claim), asPeople(previous), asPeople(next));
  const gradient = gradientFromSums(sums);
  const histogram = applyToHistogram(claim.vote_histogram.map(Number), previous?.value ?? null, next?.value ?? null);
  const { status } = consensusVerdict({ voters: sums.voteCount, bridgingStatus, gradient });
  const since = statusSince({ status: claim.consensus_status, since: claim.consensus_since }, status, claim.db_now);
  // Data-modifying CTEs run exactly once each, whether or not anything reads them. With a `viewer`,
  // the statement ends with the claim's view over the row it wrote (`claim`, RETURNING *) as that
  // viewer sees it (docs/architecture.md: the vote's round trips); the relay's wake-up is joined in.
  const statement = Prisma.sql`
    WITH vote AS (${writeVote}),
    claim AS (
      UPDATE claims SET weighted_sum = ${sums.weightedSum}::float8, weight_total = ${sums.weightTotal}::float8,
        vote_count = ${sums.voteCount}::int, gradient = ${gradient}::float8, updated_at = now(),
        people_weighted_sum = ${people.weightedSum}::float8, people_weight_total = ${people.weightTotal}::float8,
        people_vote_count = ${people.voteCount}::int,
        vote_histogram = ${histogram}::int[], consensus_status = ${status}::"ConsensusStatus",
        consensus_since = ${since}::timestamptz
      WHERE id = ${claim.id}::uuid
      RETURNING *
    ),
    history AS (
      INSERT INTO gradient_history (claim_id, gradient, vote_count) VALUES (${claim.id}::uuid, ${gradient}::float8, ${sums.voteCount}::int)
    ),
    ev AS (${eventInsert(event)})
    ${
      viewer === undefined
        ? notifyRelay
        : claimViewQuery(Prisma.sql`claim c CROSS JOIN (${notifyRelay}) notified`, Prisma.sql`true`, viewer, Prisma.sql`${next?.value ?? null}::float8`)
    }`;
  const [row] = viewer === undefined ? (await tx.execute(statement, { prepared: true }), []) : await tx.query<ClaimViewRow>(statement, { prepared: true });
  const due = resolutionDue(
    { status, since, voters: sums.voteCount, resolved: claim.resolved },
    claim.db_now,
    config().RESOLUTION_STABLE_SECONDS,
  );
  if (due) {
    await resolveClaim(tx, claim.id, gradient, status === "consensus_true");
    return null; // the resolution changed what the view shows (reputations): read it after the commit
  }
  return row ?? null;
}
