// Claim gradient: the reputation-weighted mean of vote values (docs/api.md#scoring).
// The claim row keeps running sums so that a vote costs O(1). services/votes reads the sums with the
// claim row locked, computes the new sums (`applyVote`) and gradient (`gradientFromSums`) here and
// stores both in the vote's transaction: the arithmetic is this file's, the SQL only stores results.

export const NEUTRAL_GRADIENT = 0.5;
export const CONSENSUS_HIGH = 0.8;
export const CONSENSUS_LOW = 0.2;
export const MIN_RESOLUTION_VOTES = 10;
export const MIN_VOTE_WEIGHT = 0.1;

/** Below this total weight there is nothing to average (the smallest real weight is 0.1). */
const WEIGHT_EPSILON = 1e-9;
/** Gradients are rounded to 9 decimals so that float drift cannot turn a mean of exactly 0.8
 *  into 0.8000000000000002 and fake a consensus. */
const GRADIENT_DECIMALS = 1e9;

export interface GradientSums {
  /** Σ w·v over the claim's current votes. */
  weightedSum: number;
  /** Σ w over the claim's current votes. */
  weightTotal: number;
  voteCount: number;
}

/** A stored vote: its value and the weight fixed when it was cast or last changed. */
export interface WeightedVote {
  value: number;
  weight: number;
}

interface SumsDelta {
  weightedSum: number;
  weightTotal: number;
  voteCount: -1 | 0 | 1;
}

const EMPTY_SUMS: GradientSums = { weightedSum: 0, weightTotal: 0, voteCount: 0 };

/** w = max(0.1, ln(1 + reputation)); a missing or negative reputation counts as 0. */
export function voteWeight(reputation: number): number {
  const r = Number.isFinite(reputation) && reputation > 0 ? reputation : 0;
  return Math.max(MIN_VOTE_WEIGHT, Math.log1p(r));
}

/**
 * What replacing `previous` by `next` does to the sums (either may be null):
 * cast = (null, v), change = (old, new), removal = (old, null), nothing = (null, null).
 */
function voteSumsDelta(previous: WeightedVote | null, next: WeightedVote | null): SumsDelta {
  let weightedSum = 0;
  let weightTotal = 0;
  if (previous) {
    weightedSum -= previous.weight * previous.value;
    weightTotal -= previous.weight;
  }
  if (next) {
    weightedSum += next.weight * next.value;
    weightTotal += next.weight;
  }
  const voteCount = previous && !next ? -1 : !previous && next ? 1 : 0;
  return { weightedSum, weightTotal, voteCount };
}

/** Adds a delta to the sums. When no vote is left, the sums are reset to exactly 0 so that
 *  rounding residue from many add/remove cycles never survives the last vote. */
function applySumsDelta(sums: GradientSums, delta: SumsDelta): GradientSums {
  const voteCount = Math.max(0, sums.voteCount + delta.voteCount);
  if (voteCount === 0) return { ...EMPTY_SUMS };
  return {
    weightedSum: sums.weightedSum + delta.weightedSum,
    weightTotal: sums.weightTotal + delta.weightTotal,
    voteCount,
  };
}

/**
 * The running sums of a claim after replacing `previous` by `next` (either vote may be null):
 * cast = (null, v), change = (old, new), removal = (old, null). The gradient to store is
 * `gradientFromSums` of the result.
 */
export function applyVote(sums: GradientSums, previous: WeightedVote | null, next: WeightedVote | null): GradientSums {
  return applySumsDelta(sums, voteSumsDelta(previous, next));
}

/**
 * The gradient of the claim's other votes — the crowd a value is cast against, kept on the vote and
 * copied into its outcome record at resolution. `own` is the voter's current vote, if any.
 */
export function crowdGradient(sums: GradientSums, own: WeightedVote | null): number {
  return gradientFromSums(applyVote(sums, own, null));
}

function roundGradient(g: number): number {
  return Math.round(g * GRADIENT_DECIMALS) / GRADIENT_DECIMALS;
}

/** 0.5 without votes (or without weight); otherwise Σw·v / Σw, clamped to [0, 1]. */
export function gradientFromSums(sums: Pick<GradientSums, "weightedSum" | "weightTotal"> & { voteCount?: number }): number {
  if (sums.voteCount === 0 || !(sums.weightTotal > WEIGHT_EPSILON)) return NEUTRAL_GRADIENT;
  const g = sums.weightedSum / sums.weightTotal;
  if (!Number.isFinite(g)) return NEUTRAL_GRADIENT;
  return roundGradient(Math.min(1, Math.max(0, g)));
}

/** true/false consensus, or null when the claim is not at consensus. */
export function consensusDirection(gradient: number): boolean | null {
  if (gradient > CONSENSUS_HIGH) return true;
  if (gradient < CONSENSUS_LOW) return false;
  return null;
}

export type ResolutionOutcome = "aligned" | "opposed" | "neutral";

/**
 * How one vote fares when the claim resolves to `consensusTrue` (true or false consensus). A value of
 * exactly 0.5 took no side and is neutral (no reputation change, not a resolved vote).
 */
export function resolutionOutcome(consensusTrue: boolean, voteValue: number): ResolutionOutcome {
  if (voteValue === 0.5) return "neutral";
  const votedTrue = voteValue > 0.5;
  return votedTrue === consensusTrue ? "aligned" : "opposed";
}
