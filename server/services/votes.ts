// Claim votes (docs/api.md#claims, #scoring): cast, change and remove a vote in one transaction with the claim row
// locked, so the claim's counts stay exact under concurrent votes: the running sums Σw·v and Σw of every
// vote (the gradient), of the people's (gradient_people) and of the votes with standing (the status;
// docs/features/consensus.md#standing), their vote counts, the histograms of the counted and of the
// agents' votes, and the consensus status (and when it began) — all in the vote's own statement. A
// gradient-history point per change (re-sending the same vote is no change); with
// RESOLUTION_STABLE_SECONDS 0, resolution in the transaction of the vote that brings the claim to a
// consensus it may resolve on (services/resolution.ts; otherwise the job does).
//
// Standing is decided afresh for every vote (the voter's facts and current vote count under the stored
// rule), so the vote is sorted as its account stands now. The voter's votes take turns on a per-account
// advisory lock (taken before anything else), so their count is exact under concurrent votes, and the
// standing job (services/standing.ts), which takes the same lock to decide an account's standing,
// never decides it from a count a vote is about to change. A vote that finds the stored standing out
// of date marks the account for the job, which re-sorts its other votes.
//
// Lock order, everywhere: the voter's advisory lock, the claim row, then agent rows in id order
// (resolution). Evidence votes lock the evidence row, then its author's row, and never a claim row, so
// the two cannot deadlock. All row locks are FOR NO KEY UPDATE: they do not block the KEY SHARE locks
// that inserting a referencing row (a vote, a bookmark, a comment) takes on the same claim or agent.
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { config } from "../config.ts";
import { crowdGradient, gradientFromSums, voteWeight } from "../domain/gradient.ts";
import {
  applyToTally,
  resolutionDue,
  statusSince,
  tallyVerdict,
  type BridgingStatusName,
  type ConsensusStatus,
  type SortedVote,
} from "../domain/consensus.ts";
import { sameVerdict, standingOf, voteClass, type StandingVerdict } from "../domain/standing.ts";
import { claimAfterWrite, claimViewQuery, toClaim, type Claim, type ClaimViewRow } from "./claim-views.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { visibleClaim } from "./visibility.ts";
import { eventInsert, notifyRelay, type RecordedEvent } from "./outbox.ts";
import { resolveClaim } from "./resolution.ts";
import { TALLY_COLUMNS, tallyOf, tallySet, type TallyRow } from "./claim-tally.ts";
import { markStandingSql, ruleFromRow, standingLockSql, STANDING_FACT_COLUMNS, factsFromRow, type StandingFactRow } from "./standing.ts";

interface LockedClaim extends TallyRow {
  id: string;
  author_id: string;
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  resolved: boolean;
  /** The transaction's now(): the database's clock, which every `since` is on. */
  db_now: Date;
}

/**
 * Takes the voter's lock, then locks the claim row for this transaction; null when there is no such
 * claim or it is hidden (a vote on hidden content is a 404). A hide waiting on this lock then counts
 * this vote off the totals. `db_now` is never before the stored `consensus_since`: now() is this
 * transaction's start, which can precede the commit of a vote it waited for on the lock, and time must
 * not run backwards for `since` and the resolution's stable time.
 */
async function lockClaim(tx: SqlTx, { claimId, voterId, hidden = "refuse" }: { claimId: string; voterId: string; hidden?: "refuse" | "include" }): Promise<LockedClaim | null> {
  if (!isUuid(claimId)) return null;
  const visible = hidden === "include" ? Prisma.sql`true` : visibleClaim("c");
  const [claim] = await tx.query<LockedClaim>(Prisma.sql`
    WITH voter AS (${standingLockSql(voterId)})
    SELECT c.id::text AS id, c.author_id::text AS author_id, ${TALLY_COLUMNS},
           c.consensus_status::text AS consensus_status, c.consensus_since,
           (c.resolved_at IS NOT NULL) AS resolved, GREATEST(now(), c.consensus_since) AS db_now
    FROM voter, claims c WHERE c.id = ${claimId}::uuid AND ${visible}
    FOR NO KEY UPDATE OF c`, { prepared: true });
  return claim ?? null;
}

interface VoterRow extends StandingFactRow {
  reputation: number;
  /** Its current votes on other claims, counted up to the rule's minimum. */
  other_votes: number;
  value: number | null;
  weight: number | null;
  vote_automated: boolean | null;
  vote_counted: boolean | null;
  bridging_status: BridgingStatusName | null;
}

/**
 * The voter's reputation, the facts its standing is decided from (with its current votes on other
 * claims, counted up to the rule's minimum), its current vote on this claim, and the claim's bridging
 * status — read after the locks (a statement of its own, so that its snapshot is newer than them: a
 * bridging write that held the claim row before us has committed its status by then, and so has every
 * earlier vote of this voter).
 */
async function voterState(tx: SqlTx, claimId: string, agentId: string) {
  const [row] = await tx.query<VoterRow>(
    Prisma.sql`
    SELECT a.reputation, ${STANDING_FACT_COLUMNS},
           (SELECT count(*)::int FROM (SELECT 1 FROM claim_votes o WHERE o.agent_id = a.id AND o.claim_id <> ${claimId}::uuid
                                       LIMIT (SELECT min_votes FROM standing_rule WHERE id = 1)) n) AS other_votes,
           v.value, v.weight, v.automated AS vote_automated, v.counted AS vote_counted,
           (SELECT b.status::text FROM claim_bridging b WHERE b.claim_id = ${claimId}::uuid) AS bridging_status
    FROM agents a LEFT JOIN standing_rule r ON r.id = 1
    LEFT JOIN claim_votes v ON v.claim_id = ${claimId}::uuid AND v.agent_id = a.id
    WHERE a.id = ${agentId}::uuid`,
    { prepared: true },
  );
  if (!row) throw notFound("Agent not found");
  const previous: SortedVote | null =
    row.value !== null && row.weight !== null
      ? { value: Number(row.value), weight: Number(row.weight), automated: Boolean(row.vote_automated), counted: Boolean(row.vote_counted) }
      : null;
  return {
    reputation: Number(row.reputation ?? 0),
    previous,
    bridgingStatus: row.bridging_status ?? "insufficient_data",
    /** The voter's standing as it will be with `votes` current votes (this claim's included or not). */
    standingWith: (votes: number, now: Date): StandingVerdict =>
      standingOf({ ...factsFromRow(row), votes: Number(row.other_votes) + votes }, ruleFromRow(row), now),
    stored: { standing: Boolean(row.standing), gainsAt: row.standing_gains_at },
    automated: Boolean(row.automated),
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
    const claim = await lockClaim(tx, { claimId, voterId: agentId });
    if (!claim) throw notFound(CLAIM_NOT_FOUND);
    if (claim.author_id === agentId) throw forbidden();
    const voter = await voterState(tx, claim.id, agentId);
    const { previous } = voter;
    const standing = voter.standingWith(1, claim.db_now);
    const markStanding = !sameVerdict(voter.stored, standing);
    const next: SortedVote = { value, weight: voteWeight(voter.reputation), ...voteClass({ automated: voter.automated, standing: standing.standing }) };
    // The same value with the same weight, sorted the same, moves nothing: no write, no history point,
    // updated_at stays. (The same value with a new weight does move the gradient, and is a change.)
    if (previous && previous.value === next.value && previous.weight === next.weight && previous.automated === next.automated && previous.counted === next.counted) {
      if (markStanding) await tx.execute(markStandingSql(agentId));
      return null;
    }
    // The crowd this value is cast against: the other votes, as they stand. Kept while the value
    // stands (a re-weighted, same value keeps it) and copied into the outcome record at resolution.
    const crowd = crowdGradient(tallyOf(claim).all, previous);
    const setCrowd = previous?.value === next.value ? Prisma.empty : Prisma.sql`, crowd_gradient = ${crowd}::float8`;
    const writeVote = previous
      ? Prisma.sql`UPDATE claim_votes SET value = ${next.value}::float8, weight = ${next.weight}::float8, automated = ${next.automated}::boolean,
          counted = ${next.counted}::boolean, updated_at = now() ${setCrowd}
          WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`
      : Prisma.sql`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, automated, counted, updated_at)
          VALUES (gen_random_uuid(), ${claim.id}::uuid, ${agentId}::uuid, ${next.value}::float8, ${next.weight}::float8, ${crowd}::float8,
                  ${next.automated}::boolean, ${next.counted}::boolean, now())`;
    return applyVoteChange({
      tx,
      claim,
      bridgingStatus: voter.bridgingStatus,
      writeVote,
      previous,
      next,
      event: { type: "claim.voted", claimId: claim.id, actorId: agentId },
      viewer: agentId,
      markStanding: markStanding ? agentId : null,
    });
  });
  // The row was locked and visible throughout, so the view carries no moderation details to withhold.
  if (written) return toClaim(written, true);
  const claim = await claimAfterWrite({ claimId, writerId: agentId });
  if (!claim) throw notFound(CLAIM_NOT_FOUND); // deleted by its author since
  return claim;
}

/** DELETE /claims/{id}/vote: removes the caller's vote if there is one. */
export async function removeVote({ agentId, claimId }: { agentId: string; claimId: string }): Promise<void> {
  await sqlTransaction((tx) => removeVoteIn(tx, { agentId, claimId }));
}

/**
 * The one removal of a claim vote, inside the caller's transaction: DELETE /claims/{id}/vote and
 * account deletion (which also reaches votes on hidden claims: `hidden: "include"`) both come here,
 * so every sum the vote entered is taken out the same way.
 */
export async function removeVoteIn(
  tx: SqlTx,
  { agentId, claimId, hidden = "refuse" }: { agentId: string; claimId: string; hidden?: "refuse" | "include" },
): Promise<void> {
  const claim = await lockClaim(tx, { claimId, voterId: agentId, hidden });
  if (!claim) throw notFound(CLAIM_NOT_FOUND);
  const voter = await voterState(tx, claim.id, agentId);
  if (!voter.previous) return;
  const standing = voter.standingWith(0, claim.db_now);
  const deleteVote = Prisma.sql`DELETE FROM claim_votes WHERE claim_id = ${claim.id}::uuid AND agent_id = ${agentId}::uuid`;
  await applyVoteChange({
    tx,
    claim,
    bridgingStatus: voter.bridgingStatus,
    writeVote: deleteVote,
    previous: voter.previous,
    next: null,
    event: { type: "claim.voted", claimId: claim.id, actorId: agentId },
    markStanding: sameVerdict(voter.stored, standing) ? null : agentId,
  });
}

interface VoteChange {
  tx: SqlTx;
  claim: LockedClaim;
  bridgingStatus: BridgingStatusName;
  /** The statement that writes the vote row (insert, update or delete). */
  writeVote: Prisma.Sql;
  previous: SortedVote | null;
  next: SortedVote | null;
  event: RecordedEvent;
  /** With a viewer, the statement returns the claim's view as that viewer sees it. */
  viewer?: string;
  /** The voter, when the vote found its stored standing out of date: marked for the standing job. */
  markStanding?: string | null;
}

/**
 * Writes the vote (`writeVote`), moves the claim's counts from `previous` to `next`, stores the
 * consensus status that follows, records the new gradient in the history, the vote's event in the
 * outbox (services/outbox.ts) and, when asked, the voter's mark for the standing job — all in one
 * statement, one round trip while the claim row is locked — and resolves the claim when that makes it
 * due at once (RESOLUTION_STABLE_SECONDS 0).
 */
async function applyVoteChange({ tx, claim, bridgingStatus, writeVote, previous, next, event, viewer, markStanding }: VoteChange): Promise<ClaimViewRow | null> {
  const tally = applyToTally(tallyOf(claim), previous, next);
  const gradient = gradientFromSums(tally.all);
  const { status } = tallyVerdict(tally, bridgingStatus);
  const since = statusSince({ status: claim.consensus_status, since: claim.consensus_since }, status, claim.db_now);
  // Data-modifying CTEs run exactly once each, whether or not anything reads them. With a `viewer`,
  // the statement ends with the claim's view over the row it wrote (`claim`, RETURNING *) as that
  // viewer sees it (docs/architecture.md: the vote's round trips); the relay's wake-up is joined in.
  const statement = Prisma.sql`
    WITH vote AS (${writeVote}),
    claim AS (
      UPDATE claims SET ${tallySet(tally)}, gradient = ${gradient}::float8, updated_at = now(),
        consensus_status = ${status}::"ConsensusStatus", consensus_since = ${since}::timestamptz
      WHERE id = ${claim.id}::uuid
      RETURNING *
    ),
    history AS (
      INSERT INTO gradient_history (claim_id, gradient, vote_count) VALUES (${claim.id}::uuid, ${gradient}::float8, ${tally.all.voteCount}::int)
    ),
    ${markStanding ? Prisma.sql`standing AS (${markStandingSql(markStanding)}),` : Prisma.empty}
    ev AS (${eventInsert(event)})
    ${
      viewer === undefined
        ? notifyRelay
        : claimViewQuery({
            from: Prisma.sql`claim c CROSS JOIN (${notifyRelay}) notified`,
            where: Prisma.sql`true`,
            viewerId: viewer,
            userVote: Prisma.sql`${next?.value ?? null}::float8`,
          })
    }`;
  const [row] = viewer === undefined ? (await tx.execute(statement, { prepared: true }), []) : await tx.query<ClaimViewRow>(statement, { prepared: true });
  const due = resolutionDue(
    { status, since, voters: tally.counted.voteCount, resolved: claim.resolved },
    claim.db_now,
    config().RESOLUTION_STABLE_SECONDS,
  );
  if (due) {
    await resolveClaim(tx, { claimId: claim.id, gradient, consensusTrue: status === "consensus_true" });
    return null; // the resolution changed what the view shows (reputations): read it after the commit
  }
  return row ?? null;
}
