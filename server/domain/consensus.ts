// Where consensus on a claim stands (docs/features/consensus.md): a status decided from the number of
// voters with standing, the bridging status and their gradient, in that order; the histograms of the
// counted votes' values and of the agents'; a claim's counts as votes move in and out of them; when
// the status began; and when a claim at consensus is due to resolve. Pure: the services store what
// these functions return, in the transaction of the vote, bridging write or standing change that
// changes it.
import { applyVote, consensusDirection, gradientFromSums, MIN_RESOLUTION_VOTES, type GradientSums, type WeightedVote } from "./gradient.ts";
import type { VoteClass } from "./standing.ts";

export const CONSENSUS_STATUSES = ["no_votes", "too_few_votes", "consensus_true", "consensus_false", "divided", "open"] as const;
export type ConsensusStatus = (typeof CONSENSUS_STATUSES)[number];

export const DECIDED_BY = ["viewpoints", "votes"] as const;
export type DecidedBy = (typeof DECIDED_BY)[number];

/** The bridging model's statuses (docs/features/bridging.md). */
export type BridgingStatusName = "insufficient_data" | "bridged_true" | "bridged_false" | "divided" | "undecided";

/** Fewer voters than this is too few to call, whatever they say. */
export const MIN_CONSENSUS_VOTERS = 5;
export const HISTOGRAM_BINS = 10;
/** A value on a bin's lower edge (0.3) must land in that bin even after float arithmetic (0.1·3). */
const BIN_EPSILON = 1e-9;

export interface ConsensusInput {
  voters: number;
  bridgingStatus: BridgingStatusName;
  gradient: number;
}

export interface ConsensusVerdict {
  status: ConsensusStatus;
  decidedBy: DecidedBy | null;
}

/**
 * The status, in this order (`voters` and `gradient` are the counted votes'): no votes; fewer than 5 voters; what the bridging model says when it has
 * enough data (bridged → consensus by viewpoints, divided, undecided → open); otherwise the gradient
 * alone (strictly beyond 0.8 / 0.2 → consensus by votes, else open). Only a consensus names who decided.
 */
export function consensusVerdict({ voters, bridgingStatus, gradient }: ConsensusInput): ConsensusVerdict {
  if (voters <= 0) return { status: "no_votes", decidedBy: null };
  if (voters < MIN_CONSENSUS_VOTERS) return { status: "too_few_votes", decidedBy: null };
  switch (bridgingStatus) {
    case "bridged_true":
      return { status: "consensus_true", decidedBy: "viewpoints" };
    case "bridged_false":
      return { status: "consensus_false", decidedBy: "viewpoints" };
    case "divided":
      return { status: "divided", decidedBy: null };
    case "undecided":
      return { status: "open", decidedBy: null };
    case "insufficient_data":
      break;
  }
  const direction = consensusDirection(gradient);
  if (direction === null) return { status: "open", decidedBy: null };
  return { status: direction ? "consensus_true" : "consensus_false", decidedBy: "votes" };
}

/** Who decided a stored status, given the bridging status it was decided with. */
export function decidedBy(status: ConsensusStatus, bridgingStatus: BridgingStatusName): DecidedBy | null {
  if (status !== "consensus_true" && status !== "consensus_false") return null;
  return bridgingStatus === "bridged_true" || bridgingStatus === "bridged_false" ? "viewpoints" : "votes";
}

export function isConsensus(status: ConsensusStatus): status is "consensus_true" | "consensus_false" {
  return status === "consensus_true" || status === "consensus_false";
}

/** The bin of a vote value: [0, 0.1) → 0, …, [0.9, 1.0] → 9 (1.0 belongs to the last bin). */
export function histogramBin(value: number): number {
  return Math.max(0, Math.min(HISTOGRAM_BINS - 1, Math.floor(value * HISTOGRAM_BINS + BIN_EPSILON)));
}

/** The same bin as SQL over a column of float8 values (the migration's backfill and the invariants check). */
export const histogramBinSql = (column: string) =>
  `least(${HISTOGRAM_BINS - 1}, greatest(0, floor(${column} * ${HISTOGRAM_BINS} + ${BIN_EPSILON})))::int`;

export const EMPTY_HISTOGRAM: readonly number[] = Object.freeze(new Array(HISTOGRAM_BINS).fill(0));

/** The histogram after replacing the vote value `previous` by `next` (either may be null). */
export function applyToHistogram(histogram: readonly number[], previous: number | null, next: number | null): number[] {
  const bins = histogram.length === HISTOGRAM_BINS ? [...histogram] : [...EMPTY_HISTOGRAM];
  if (previous !== null) bins[histogramBin(previous)] = Math.max(0, bins[histogramBin(previous)] - 1);
  if (next !== null) bins[histogramBin(next)] += 1;
  return bins;
}

/** A stored vote: its value and weight, and how it is sorted (domain/standing.ts voteClass). */
export type SortedVote = WeightedVote & VoteClass;

/**
 * A claim's counts, all kept in O(1) per vote: every vote (the gradient), the people's (not automated:
 * gradient_people), the counted (with standing: the status, consensus.voters and consensus.histogram),
 * and the agents' histogram (automated). The agents' sums are every vote's less the people's.
 */
export interface ClaimTally {
  all: GradientSums;
  people: GradientSums;
  counted: GradientSums;
  countedHistogram: number[];
  agentsHistogram: number[];
}

/** The tally after replacing the vote `previous` by `next` (either may be null; a re-sort keeps the value). */
export function applyToTally(tally: ClaimTally, previous: SortedVote | null, next: SortedVote | null): ClaimTally {
  const when = (vote: SortedVote | null, test: (v: SortedVote) => boolean) => (vote && test(vote) ? vote : null);
  const counted = (v: SortedVote) => v.counted;
  const automated = (v: SortedVote) => v.automated;
  const person = (v: SortedVote) => !v.automated;
  return {
    all: applyVote(tally.all, previous, next),
    people: applyVote(tally.people, when(previous, person), when(next, person)),
    counted: applyVote(tally.counted, when(previous, counted), when(next, counted)),
    countedHistogram: applyToHistogram(tally.countedHistogram, when(previous, counted)?.value ?? null, when(next, counted)?.value ?? null),
    agentsHistogram: applyToHistogram(tally.agentsHistogram, when(previous, automated)?.value ?? null, when(next, automated)?.value ?? null),
  };
}

/** The gradient the rule reads: the counted votes' weighted mean (0.5 without any). */
export function countedGradient(tally: Pick<ClaimTally, "counted">): number {
  return gradientFromSums(tally.counted);
}

/** The status of a tally under the claim's bridging status. */
export function tallyVerdict(tally: Pick<ClaimTally, "counted">, bridgingStatus: BridgingStatusName): ConsensusVerdict {
  return consensusVerdict({ voters: tally.counted.voteCount, bridgingStatus, gradient: countedGradient(tally) });
}

/**
 * When the status that follows a change began: unchanged status keeps its start; a new one starts now;
 * no votes has no start.
 */
export function statusSince(
  before: { status: ConsensusStatus; since: Date | null },
  after: ConsensusStatus,
  now: Date,
): Date | null {
  if (after === "no_votes") return null;
  if (after === before.status && before.since) return before.since;
  return now;
}

export interface ResolutionCandidate {
  status: ConsensusStatus;
  since: Date | null;
  voters: number;
  resolved: boolean;
}

/**
 * A claim is due to resolve once it has held consensus_true/consensus_false for `stableSeconds` with at
 * least 10 voters, and it has not resolved before (it resolves once).
 */
export function resolutionDue(claim: ResolutionCandidate, now: Date, stableSeconds: number): boolean {
  if (claim.resolved || !isConsensus(claim.status) || claim.voters < MIN_RESOLUTION_VOTES || !claim.since) return false;
  return now.getTime() - claim.since.getTime() >= stableSeconds * 1000;
}
