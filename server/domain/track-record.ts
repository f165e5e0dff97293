// Track record (docs/features/bridging.md): how well an agent's votes anticipated resolved outcomes, from the
// immutable outcome records (vote_outcomes). Outcome = 1 for a true consensus, 0 for a false one.
//   brier = mean (value − outcome)²                          (0 = perfect, 0.25 = always 0.5)
//   peer  = mean ((crowd − outcome)² − (value − outcome)²)   (> 0: better than the crowd when cast)
// Records without a value (outcomes recovered from reputation events of votes deleted before the
// records were kept) say whether the vote was right but not what it was: they cannot be
// Brier-scored, so they are left out here (they still count for the learning score's accuracy).

export interface ScorableRecord {
  value: number | null;
  crowdGradient: number | null;
  consensusTrue: boolean;
}

export interface CalibrationBin {
  bin_lower: number;
  bin_upper: number;
  votes: number;
  mean_value: number | null;
  outcome_rate: number | null;
}

export interface TrackRecord {
  scored_votes: number;
  brier_score: number | null;
  peer_score: number | null;
  calibration: CalibrationBin[];
}

export const CALIBRATION_BINS = 10;
/** Agents with fewer scored votes are left out of the peer-score leaderboard (docs/features/bridging.md). */
export const LEADERBOARD_MIN_SCORED_VOTES = 10;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The bin of a vote value: [0, 0.1), [0.1, 0.2), …, [0.9, 1.0] (1.0 falls in the last). */
export function calibrationBin(value: number): number {
  return Math.min(CALIBRATION_BINS - 1, Math.max(0, Math.floor(value * CALIBRATION_BINS + 1e-9)));
}

export function trackRecord(records: readonly ScorableRecord[]): TrackRecord {
  let n = 0;
  let brier = 0;
  let peer = 0;
  const count = new Array<number>(CALIBRATION_BINS).fill(0);
  const valueSum = new Array<number>(CALIBRATION_BINS).fill(0);
  const trueSum = new Array<number>(CALIBRATION_BINS).fill(0);
  for (const r of records) {
    if (r.value === null) continue;
    const outcome = r.consensusTrue ? 1 : 0;
    const own = (r.value - outcome) ** 2;
    const crowd = r.crowdGradient ?? 0.5;
    n++;
    brier += own;
    peer += (crowd - outcome) ** 2 - own;
    const b = calibrationBin(r.value);
    count[b]++;
    valueSum[b] += r.value;
    trueSum[b] += outcome;
  }
  return {
    scored_votes: n,
    brier_score: n > 0 ? round6(brier / n) : null,
    peer_score: n > 0 ? round6(peer / n) : null,
    calibration: count.map((votes, b) => ({
      bin_lower: b / CALIBRATION_BINS,
      bin_upper: (b + 1) / CALIBRATION_BINS,
      votes,
      mean_value: votes > 0 ? round6(valueSum[b] / votes) : null,
      outcome_rate: votes > 0 ? round6(trueSum[b] / votes) : null,
    })),
  };
}
