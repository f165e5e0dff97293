// Outcome records (docs/api.md#scoring, docs/features/bridging.md): how each vote fared when its claim resolved, written once at
// resolution and never changed. The learning score, expertise accuracy and resolved-vote counts are
// computed from these records, never from the votes as they are now.
import { resolutionOutcome, type ResolutionOutcome, type WeightedVote } from "./gradient.ts";

export type CrowdBasis = "cast" | "resolution";

/** The part of an outcome record the profile's numbers need. */
export interface RecordedOutcome {
  outcome: ResolutionOutcome;
  resolvedAt: Date;
  /** The claim's tags at resolution. */
  tags: readonly string[];
}

/** What resolution writes for one vote. */
export interface OutcomeRecord {
  value: number;
  /** The crowd the vote is compared with, and which crowd that is. */
  crowdGradient: number;
  crowdBasis: CrowdBasis;
  resolutionGradient: number;
  consensusTrue: boolean;
  outcome: ResolutionOutcome;
}

/**
 * The record of one vote (its `value`) on a claim resolving at `resolutionGradient` to a true (`consensusTrue`) or
 * false consensus — which the claim's consensus status says, not the gradient: a consensus decided
 * by viewpoints may stand at any gradient. `crowdAtCast` is the gradient of the other votes when this
 * value was cast; votes from before that was kept have none and are compared with the crowd at
 * resolution instead.
 */
export function outcomeRecord({
  value,
  crowdAtCast,
  resolutionGradient,
  consensusTrue,
}: Pick<WeightedVote, "value"> & { crowdAtCast: number | null; resolutionGradient: number; consensusTrue: boolean }): OutcomeRecord {
  return {
    value,
    crowdGradient: crowdAtCast ?? resolutionGradient,
    crowdBasis: crowdAtCast === null ? "resolution" : "cast",
    resolutionGradient,
    consensusTrue,
    outcome: resolutionOutcome(consensusTrue, value),
  };
}

/** aligned and opposed outcomes are resolved votes (correct and incorrect); neutral ones are neither. */
export function isResolvedVote(outcome: ResolutionOutcome): boolean {
  return outcome !== "neutral";
}
