// Checks against the world (docs/features/checks.md): a claim's check, its proposed and disputed
// outcome, the bonds staked on them in reputation, and the job that makes undisputed proposals final.
// Every road locks the check's row first (FOR UPDATE), then the accounts whose reputation moves, so a
// proposal, a dispute, a settlement and the finalising job on two instances cannot both succeed.
import { config } from "../config.ts";
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import {
  bondPayout,
  checkDatesProblem,
  checkState,
  disputeDeadline,
  disputeRefusal,
  finalisable,
  proposalRefusal,
  termsEditable,
  type CheckStage,
  type Outcome,
  type OutcomeRefusal,
} from "../domain/checks.ts";
import { tierFor } from "../domain/reputation.ts";
import { recordEvent } from "./outbox.ts";

export interface CheckTerms {
  criteria: string;
  finePrint: string | null;
  sourceUrl: string | null;
  checkAt: Date;
  /** Default: checkAt. */
  closeAt: Date | null;
  assumptions: string[];
}

export interface CheckRow {
  claim_id: string;
  stage: CheckStage;
  close_at: Date;
  check_at: Date;
  outcome: Outcome | null;
  proposed_outcome: Outcome | null;
  proposer_id: string | null;
  dispute_deadline: Date | null;
  disputer_id: string | null;
  bond: number | null;
}

/** Why a road refused, as a code of the table in server/errors.ts; the router maps it. */
export type CheckRefusal = OutcomeRefusal | "not_found" | "forbidden" | "check_immutable" | "validation_failed";
export type CheckResult = { ok: true } | { ok: false; code: CheckRefusal; detail: string };

const refused = (code: CheckRefusal, detail: string): CheckResult => ({ ok: false, code, detail });

const REFUSAL_DETAIL: Record<OutcomeRefusal, string> = {
  outcome_not_open: "The check is not open to this step now",
  insufficient_standing: "Only accounts with standing may propose or dispute an outcome",
  insufficient_reputation: "Proposing an outcome needs more reputation",
  own_proposal: "A proposal cannot be disputed by its proposer",
};

async function lockedCheck(tx: SqlTx, claimId: string): Promise<CheckRow | undefined> {
  const [row] = await tx.query<CheckRow>(Prisma.sql`
    SELECT claim_id::text, stage::text AS stage, close_at, check_at, outcome, proposed_outcome,
           proposer_id::text, dispute_deadline, disputer_id::text, bond
    FROM claim_checks WHERE claim_id = ${claimId}::uuid FOR UPDATE`);
  return row;
}

/**
 * Sets (or replaces) a claim's check: at creation, or by its author while the claim has no votes.
 * `now` is when the request came in; the dates are checked against it.
 */
export async function setCheckIn(tx: SqlTx, { claimId, viewerId, terms, now }: { claimId: string; viewerId: string; terms: CheckTerms; now: Date }): Promise<CheckResult> {
  const closeAt = terms.closeAt ?? terms.checkAt;
  const problem = checkDatesProblem({ closeAt, checkAt: terms.checkAt }, now);
  if (problem) return refused("validation_failed", problem);
  const [claim] = await tx.query<{ author_id: string; vote_count: number }>(Prisma.sql`
    SELECT author_id::text, vote_count FROM claims WHERE id = ${claimId}::uuid AND hidden_at IS NULL FOR UPDATE`);
  if (!claim) return refused("not_found", "Claim not found");
  const editable = termsEditable({ viewerIsAuthor: claim.author_id === viewerId, voteCount: claim.vote_count });
  if (editable === "forbidden") return refused("forbidden", "Only the claim's author may set its check");
  if (editable === "check_immutable") return refused("check_immutable", "A check cannot change once the claim has a vote; add a clarification");
  await tx.execute(Prisma.sql`
    INSERT INTO claim_checks (claim_id, criteria, fine_print, source_url, assumptions, close_at, check_at, updated_at)
    VALUES (${claimId}::uuid, ${terms.criteria}, ${terms.finePrint}, ${terms.sourceUrl}, ${terms.assumptions}::text[],
            ${closeAt}, ${terms.checkAt}, now())
    ON CONFLICT (claim_id) DO UPDATE SET criteria = EXCLUDED.criteria, fine_print = EXCLUDED.fine_print,
      source_url = EXCLUDED.source_url, assumptions = EXCLUDED.assumptions, close_at = EXCLUDED.close_at,
      check_at = EXCLUDED.check_at, updated_at = now()`);
  return { ok: true };
}

/** Moves an account's reputation by `delta` (a lost bond may take it below zero) and records why. */
async function moveReputation(tx: SqlTx, { agentId, delta, reason, claimId }: { agentId: string; delta: number; reason: string; claimId: string }) {
  if (delta === 0) return;
  const [agent] = await tx.query<{ reputation: number }>(Prisma.sql`
    SELECT reputation FROM agents WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`);
  const score = Number(agent.reputation) + delta;
  await tx.execute(Prisma.sql`
    UPDATE agents SET reputation = ${score}::float8, tier = ${tierFor(score)}::"Tier", updated_at = now()
    WHERE id = ${agentId}::uuid`);
  await tx.execute(Prisma.sql`
    INSERT INTO reputation_events (agent_id, delta, reputation_score, reason, claim_id)
    VALUES (${agentId}::uuid, ${delta}::float8, ${score}::float8, ${reason}::"ReputationReason", ${claimId}::uuid)`);
}

async function accountFacts(tx: SqlTx, agentId: string): Promise<{ standing: boolean; reputation: number }> {
  const [agent] = await tx.query<{ standing: boolean; reputation: number }>(Prisma.sql`
    SELECT standing, reputation FROM agents WHERE id = ${agentId}::uuid`);
  return { standing: agent?.standing ?? false, reputation: Number(agent?.reputation ?? 0) };
}

export interface Proposal {
  claimId: string;
  proposerId: string;
  outcome: Outcome;
  evidenceUrl: string;
  note: string;
}

/** Proposes the outcome of a check awaiting one, staking OUTCOME_BOND of the proposer's reputation. */
export function proposeOutcome(proposal: Proposal, now = new Date()): Promise<CheckResult> {
  const { OUTCOME_BOND: bond, OUTCOME_MIN_REPUTATION: minReputation, OUTCOME_DISPUTE_SECONDS: disputeSeconds } = config();
  return sqlTransaction(async (tx) => {
    const check = await lockedCheck(tx, proposal.claimId);
    if (!check) return refused("not_found", "This claim has no check");
    const state = checkState({ stage: check.stage, closeAt: check.close_at, checkAt: check.check_at }, now);
    const refusal = proposalRefusal({ state, proposer: await accountFacts(tx, proposal.proposerId), minReputation });
    if (refusal) return refused(refusal, REFUSAL_DETAIL[refusal]);
    await tx.execute(Prisma.sql`
      UPDATE claim_checks SET stage = 'proposed', proposed_outcome = ${proposal.outcome},
        proposal_evidence_url = ${proposal.evidenceUrl}, proposal_note = ${proposal.note},
        proposer_id = ${proposal.proposerId}::uuid, proposed_at = ${now},
        dispute_deadline = ${disputeDeadline(now, disputeSeconds)}, bond = ${bond}::float8, updated_at = now()
      WHERE claim_id = ${proposal.claimId}::uuid`);
    await moveReputation(tx, { agentId: proposal.proposerId, delta: -bond, reason: "outcome_bond_staked", claimId: proposal.claimId });
    await recordEvent(tx, { type: "claim.outcome_proposed", claimId: proposal.claimId, actorId: proposal.proposerId });
    return { ok: true } as const;
  });
}

export interface Dispute {
  claimId: string;
  disputerId: string;
  reason: string;
  evidenceUrl: string;
}

/** Disputes a proposal inside its window, staking the proposal's bond. One dispute per claim. */
export function disputeOutcome(dispute: Dispute, now = new Date()): Promise<CheckResult> {
  return sqlTransaction(async (tx) => {
    const check = await lockedCheck(tx, dispute.claimId);
    if (!check) return refused("not_found", "This claim has no check");
    const { standing } = await accountFacts(tx, dispute.disputerId);
    const refusal = disputeRefusal({
      stage: check.stage,
      disputeDeadline: check.dispute_deadline,
      now,
      disputer: { id: dispute.disputerId, standing },
      proposerId: check.proposer_id,
    });
    if (refusal) return refused(refusal, REFUSAL_DETAIL[refusal]);
    await tx.execute(Prisma.sql`
      UPDATE claim_checks SET stage = 'disputed', dispute_reason = ${dispute.reason},
        dispute_evidence_url = ${dispute.evidenceUrl}, disputer_id = ${dispute.disputerId}::uuid,
        disputed_at = ${now}, updated_at = now()
      WHERE claim_id = ${dispute.claimId}::uuid`);
    await moveReputation(tx, { agentId: dispute.disputerId, delta: -Number(check.bond ?? 0), reason: "outcome_bond_staked", claimId: dispute.claimId });
    await recordEvent(tx, { type: "claim.outcome_disputed", claimId: dispute.claimId, actorId: dispute.disputerId });
    return { ok: true } as const;
  });
}

/**
 * Writes the final outcome, pays the bonds as bondPayout says and records `claim.outcome_final` (the row
 * is locked by the caller, who re-read its stage: the event commits with the one transaction that made
 * the outcome final, so it goes out once however many instances run the job).
 */
async function finaliseIn(tx: SqlTx, check: CheckRow, { outcome, now, settledBy }: { outcome: Outcome; now: Date; settledBy: { id: string; reason: string } | null }) {
  const disputed = check.stage === "disputed";
  const payout = bondPayout({ bond: Number(check.bond ?? 0), proposed: check.proposed_outcome as Outcome, final: outcome, disputed });
  await tx.execute(Prisma.sql`
    UPDATE claim_checks SET stage = 'final', outcome = ${outcome}, final_at = ${now},
      settled_by_id = ${settledBy?.id ?? null}::uuid, settle_reason = ${settledBy?.reason ?? null}, updated_at = now()
    WHERE claim_id = ${check.claim_id}::uuid`);
  if (check.proposer_id) {
    await moveReputation(tx, { agentId: check.proposer_id, delta: payout.proposer, reason: disputed ? "outcome_bond_won" : "outcome_bond_returned", claimId: check.claim_id });
  }
  if (check.disputer_id) await moveReputation(tx, { agentId: check.disputer_id, delta: payout.disputer, reason: "outcome_bond_won", claimId: check.claim_id });
  // The job's finalisation is no one's act alone (every follower hears of it); a settlement is the moderator's.
  await recordEvent(tx, { type: "claim.outcome_final", claimId: check.claim_id, actorId: settledBy?.id ?? null });
}

/** A moderator settles a disputed outcome (audited): final, the wrong side's bond to the right side. */
export function settleOutcome({ claimId, moderatorId, outcome, reason }: { claimId: string; moderatorId: string; outcome: Outcome; reason: string }, now = new Date()): Promise<CheckResult> {
  return sqlTransaction(async (tx) => {
    const check = await lockedCheck(tx, claimId);
    if (!check) return refused("not_found", "This claim has no check");
    if (check.stage !== "disputed") return refused("outcome_not_open", "Only a disputed outcome is settled by a moderator");
    await finaliseIn(tx, check, { outcome, now, settledBy: { id: moderatorId, reason } });
    await tx.execute(Prisma.sql`
      INSERT INTO moderation_audit (id, actor_id, action, target_type, target_id, reason)
      VALUES (gen_random_uuid(), ${moderatorId}::uuid, 'settle_outcome', 'claim', ${claimId}::uuid, ${reason})`);
    return { ok: true } as const;
  });
}

/** How many due proposals one round of the finalising job takes. */
export const FINALISE_BATCH = 200;

/**
 * Makes final every proposal whose dispute window has ended undisputed, each in a transaction of its
 * own that locks and re-reads the row: run at the same time on two instances, each proposal becomes
 * final, and its bond comes back, exactly once.
 */
export async function finaliseDueOutcomes(now = new Date(), limit = FINALISE_BATCH): Promise<number> {
  const due = await sqlTransaction((tx) =>
    tx.query<{ claim_id: string }>(Prisma.sql`
      SELECT claim_id::text FROM claim_checks
      WHERE stage = 'proposed' AND dispute_deadline <= ${now}
      ORDER BY dispute_deadline, claim_id LIMIT ${limit}`),
  );
  let finalised = 0;
  for (const { claim_id } of due) {
    const done = await sqlTransaction(async (tx) => {
      const check = await lockedCheck(tx, claim_id);
      if (!check || !finalisable({ stage: check.stage, disputeDeadline: check.dispute_deadline }, now)) return false;
      await finaliseIn(tx, check, { outcome: check.proposed_outcome as Outcome, now, settledBy: null });
      return true;
    });
    if (done) finalised += 1;
  }
  return finalised;
}
