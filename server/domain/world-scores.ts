// Scores against the world (docs/features/checks.md#scores): votes measured against a check's final
// outcome, not against the crowd's consensus. Pure formulas; the services gather the scored votes
// (each vote's last value before its claim's close_at, on final true/false checks only).

/** A vote's probability is clipped to [LOG_CLIP, 1 − LOG_CLIP] for the log score (a 0 or 1 vote that is wrong would score −∞). */
export const LOG_CLIP = 0.001;

export const BINS = 10;

export interface ScoredVote {
  /** The vote's value at close_at (0–1: how true the voter thought the claim). */
  value: number;
  /** The final outcome: 1 true, 0 false. */
  outcome: 0 | 1;
  /** The mean value of the claim's other scored votes; null when the vote is the only one. */
  othersMean: number | null;
}

/** Brier: (v − o)², 0 best, 1 worst. */
export const brierOf = (value: number, outcome: 0 | 1): number => (value - outcome) ** 2;

/** Log score: ln of the probability the vote gave what happened (clipped), 0 best, negative worse. */
export function logOf(value: number, outcome: 0 | 1): number {
  const p = outcome === 1 ? value : 1 - value;
  return Math.log(Math.min(1 - LOG_CLIP, Math.max(LOG_CLIP, p)));
}

/** Peer: the others' mean's Brier minus the vote's own: positive when the vote beat the other voters' mean. */
export const peerOf = (value: number, othersMean: number, outcome: 0 | 1): number => brierOf(othersMean, outcome) - brierOf(value, outcome);

/** The bin of a probability: [0,0.1) → 0 … [0.9,1] → 9. */
export const binOf = (p: number): number => Math.min(BINS - 1, Math.floor(p * BINS));

export interface ReliabilityBin {
  bin: number;
  /** The mean probability in the bin; null when empty. */
  predicted: number | null;
  /** How often the bin's claims came out true; null when empty. */
  observed: number | null;
  n: number;
}

/** Ten bins of (probability, outcome) pairs: mean predicted, observed frequency, count. */
export function reliability(points: readonly { p: number; outcome: 0 | 1 }[]): ReliabilityBin[] {
  const sums = Array.from({ length: BINS }, () => ({ p: 0, o: 0, n: 0 }));
  for (const { p, outcome } of points) {
    const s = sums[binOf(p)];
    s.p += p;
    s.o += outcome;
    s.n += 1;
  }
  return sums.map((s, bin) => ({ bin, predicted: s.n ? s.p / s.n : null, observed: s.n ? s.o / s.n : null, n: s.n }));
}

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

export interface WorldRecord {
  scored: number;
  brier: number | null;
  log: number | null;
  /** Over the scored votes that had other scored voters beside them; null when none had. */
  peer: number | null;
  calibration: ReliabilityBin[];
}

/** An account's record against the world from its scored votes. */
export function worldRecord(votes: readonly ScoredVote[]): WorldRecord {
  const peers = votes.filter((v) => v.othersMean !== null).map((v) => peerOf(v.value, v.othersMean as number, v.outcome));
  return {
    scored: votes.length,
    brier: mean(votes.map((v) => brierOf(v.value, v.outcome))),
    log: mean(votes.map((v) => logOf(v.value, v.outcome))),
    peer: mean(peers),
    calibration: reliability(votes.map((v) => ({ p: v.value, outcome: v.outcome }))),
  };
}

/** Each claim's scored votes with the others' mean beside each: the mean of the claim's other scored values. */
export function withOthersMean<T extends { claimId: string; value: number }>(votes: readonly T[]): (T & { othersMean: number | null })[] {
  const sums = new Map<string, { s: number; n: number }>();
  for (const v of votes) {
    const s = sums.get(v.claimId) ?? { s: 0, n: 0 };
    s.s += v.value;
    s.n += 1;
    sums.set(v.claimId, s);
  }
  return votes.map((v) => {
    const { s, n } = sums.get(v.claimId)!;
    return { ...v, othersMean: n > 1 ? (s - v.value) / (n - 1) : null };
  });
}
