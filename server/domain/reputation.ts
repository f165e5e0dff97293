// Reputation rules (docs/api.md#shapes for tiers, #scoring for effects). Pure: the caller stores the results.
import type { ResolutionOutcome } from "./gradient";

/** The reputation tiers, lowest first. */
export const TIERS = ["new", "established", "trusted"] as const;
export type Tier = (typeof TIERS)[number];

export const ESTABLISHED_MIN = 100;
export const TRUSTED_MIN = 1000;

/** The tier follows the score both ways: new < 100 <= established < 1000 <= trusted. */
export function tierFor(score: number): Tier {
  if (score >= TRUSTED_MIN) return "trusted";
  if (score >= ESTABLISHED_MIN) return "established";
  return "new";
}

export type ReputationReason =
  | "evidence_upvoted"
  | "evidence_downvoted"
  | "evidence_vote_removed"
  | "vote_aligned"
  | "vote_opposed";

export type EvidenceDirection = "up" | "down";

/** A nominal change; applyEvents turns it into the change actually applied. */
export interface ReputationChange {
  reason: ReputationReason;
  delta: number;
}

export const EVIDENCE_VOTE_EFFECT: Record<EvidenceDirection, number> = { up: 5, down: -3 };
export const RESOLUTION_EFFECT = { aligned: 1, opposed: -0.5 } as const;

/**
 * The events one evidence-vote transition causes for the evidence author, in order.
 *
 * Recording decision: a change is two events, the reversal of the old vote ("evidence_vote_removed")
 * followed by the new vote ("evidence_upvoted"/"evidence_downvoted"); e.g. up → down is
 * [removed −5, downvoted −3]. Each is applied and clamped on its own, so the history shows exactly
 * what happened. Re-sending the same direction changes nothing and yields no event.
 *
 * `previousApplied` is the delta the old vote actually applied (it is less than −3 in size when
 * the author was clamped at 0). When the caller passes it, the reversal undoes that amount rather
 * than the nominal one, so "down then remove" cannot lift an author at 0 to 3. Without it the
 * nominal effect is reversed.
 */
export function evidenceVoteDelta(
  previous: EvidenceDirection | null,
  next: EvidenceDirection | null,
  previousApplied?: number,
): ReputationChange[] {
  if (previous === next) return [];
  const events: ReputationChange[] = [];
  if (previous) {
    const undone = previousApplied ?? EVIDENCE_VOTE_EFFECT[previous];
    events.push({ reason: "evidence_vote_removed", delta: 0 - undone }); // 0 - x: never a -0
  }
  if (next) {
    events.push({
      reason: next === "up" ? "evidence_upvoted" : "evidence_downvoted",
      delta: EVIDENCE_VOTE_EFFECT[next],
    });
  }
  return events;
}

/** What an evidence-vote transition does to the evidence's tallies (upvotes, downvotes, vote_score). */
export function evidenceTallyDelta(
  previous: EvidenceDirection | null,
  next: EvidenceDirection | null,
): { upvotes: number; downvotes: number; voteScore: number } {
  const upvotes = (next === "up" ? 1 : 0) - (previous === "up" ? 1 : 0);
  const downvotes = (next === "down" ? 1 : 0) - (previous === "down" ? 1 : 0);
  return { upvotes, downvotes, voteScore: upvotes - downvotes };
}

/** The reputation event for a voter when a claim resolves; none for a neutral vote. */
export function resolutionChange(outcome: ResolutionOutcome): ReputationChange | null {
  if (outcome === "aligned") return { reason: "vote_aligned", delta: RESOLUTION_EFFECT.aligned };
  if (outcome === "opposed") return { reason: "vote_opposed", delta: RESOLUTION_EFFECT.opposed };
  return null;
}

/** Reputation never goes below 0; appliedDelta is what really changed (record that one). */
function applyDelta(current: number, delta: number): { score: number; appliedDelta: number } {
  const score = Math.max(0, current + delta);
  return { score, appliedDelta: score - current };
}

export interface AppliedReputationEvent extends ReputationChange {
  /** The score after this event. */
  reputation_score: number;
}

/**
 * Applies changes in order, clamping each step. Events whose applied delta is 0 (a downvote on an
 * author already at 0) are still returned, so every evidence vote leaves a trace in the journey.
 */
export function applyEvents(
  current: number,
  changes: readonly ReputationChange[],
): { score: number; events: AppliedReputationEvent[] } {
  let score = current;
  const events: AppliedReputationEvent[] = [];
  for (const change of changes) {
    const result = applyDelta(score, change.delta);
    score = result.score;
    events.push({ reason: change.reason, delta: result.appliedDelta, reputation_score: score });
  }
  return { score, events };
}
