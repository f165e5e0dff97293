// Learning score (docs/api.md#scoring, shape in #discovery).
//
// - accuracy covers ALL of the agent's resolved votes, however old (a vote is resolved when its
//   claim resolved and the vote was aligned = correct or opposed = incorrect; 0.5 votes never are).
// - consistency and trajectory look only at three 30-day windows back from `now`:
//   window 0 = [now−90d, now−60d), 1 = [now−60d, now−30d), 2 = [now−30d, now] (oldest → newest).
//   A resolution time in the future (clock skew) counts in the newest window.
// - consistency = 1 − min(1, 4·population variance of the window accuracies);
//   trajectory = 0.5 + least-squares slope of accuracy over the window index (a window without
//   data is skipped, so windows 0 and 2 are two steps apart). Both are 0.5 with fewer than two
//   windows of data.
// - score = 0.5·accuracy + 0.25·consistency + 0.25·trajectory, clamped to [0, 1]; 0.5 with no
//   resolved votes.

import { isResolvedVote, type RecordedOutcome } from "./outcomes.ts";

export const LEARNING_WINDOW_DAYS = 30;
export const LEARNING_WINDOWS = 3;
const WINDOW_MS = LEARNING_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** Window-to-window change in accuracy that the insight calls a trend. */
const TREND_SLOPE = 0.1;

export interface ResolvedVote {
  resolvedAt: Date;
  correct: boolean;
}

/** The resolved votes among an agent's outcome records (neutral outcomes are none). */
export function resolvedVotesFrom(records: readonly RecordedOutcome[]): ResolvedVote[] {
  return records
    .filter((r) => isResolvedVote(r.outcome))
    .map((r) => ({ resolvedAt: r.resolvedAt, correct: r.outcome === "aligned" }));
}

export interface LearningScore {
  score: number;
  accuracy_rate: number | null;
  total_resolved_votes: number;
  correct_resolved_votes: number;
  insight: string;
}

interface WindowPoint {
  index: number;
  accuracy: number;
}

function windowPoints(votes: readonly ResolvedVote[], now: Date): WindowPoint[] {
  const total = new Array<number>(LEARNING_WINDOWS).fill(0);
  const correct = new Array<number>(LEARNING_WINDOWS).fill(0);
  for (const v of votes) {
    const age = Math.max(0, now.getTime() - v.resolvedAt.getTime());
    const back = Math.floor(age / WINDOW_MS); // 0 = newest
    if (back >= LEARNING_WINDOWS) continue;
    const index = LEARNING_WINDOWS - 1 - back;
    total[index] += 1;
    if (v.correct) correct[index] += 1;
  }
  const points: WindowPoint[] = [];
  for (let i = 0; i < LEARNING_WINDOWS; i++) {
    if (total[i] > 0) points.push({ index: i, accuracy: correct[i] / total[i] });
  }
  return points;
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

function consistencyOf(points: readonly WindowPoint[]): number {
  if (points.length < 2) return 0.5;
  const m = mean(points.map((p) => p.accuracy));
  const variance = mean(points.map((p) => (p.accuracy - m) ** 2));
  return 1 - Math.min(1, 4 * variance);
}

function slopeOf(points: readonly WindowPoint[]): number {
  const mx = mean(points.map((p) => p.index));
  const my = mean(points.map((p) => p.accuracy));
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.index - mx) * (p.accuracy - my);
    den += (p.index - mx) ** 2;
  }
  return num / den;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

function insightFor({
  accuracy,
  points,
  slope,
  consistency,
}: {
  accuracy: number;
  points: readonly WindowPoint[];
  slope: number;
  consistency: number;
}): string {
  const hasTrend = points.length >= 2;
  const first = points[0];
  const last = points[points.length - 1];
  if (hasTrend && slope >= TREND_SLOPE) {
    return `Improving: accuracy rose from ${pct(first.accuracy)} to ${pct(last.accuracy)} over recent 30-day windows.`;
  }
  if (hasTrend && slope <= -TREND_SLOPE) {
    return `Declining: accuracy fell from ${pct(first.accuracy)} to ${pct(last.accuracy)} over recent 30-day windows.`;
  }
  if (accuracy >= 0.7) {
    return hasTrend && consistency >= 0.8
      ? `Accurate and consistent: ${pct(accuracy)} of resolved votes matched the consensus.`
      : `Accurate: ${pct(accuracy)} of resolved votes matched the consensus.`;
  }
  if (accuracy < 0.4) {
    return `Often against the consensus: ${pct(accuracy)} of resolved votes matched it.`;
  }
  if (hasTrend && consistency < 0.5) {
    return `Inconsistent: accuracy varies widely between 30-day windows (${pct(accuracy)} overall).`;
  }
  return `Mixed: ${pct(accuracy)} of resolved votes matched the consensus.`;
}

export function learningScore(votes: readonly ResolvedVote[], now: Date): LearningScore {
  const total = votes.length;
  if (total === 0) {
    return {
      score: 0.5,
      accuracy_rate: null,
      total_resolved_votes: 0,
      correct_resolved_votes: 0,
      insight: "No resolved votes yet: the score starts at 0.5 and moves once claims you voted on reach consensus.",
    };
  }
  const correct = votes.filter((v) => v.correct).length;
  const accuracy = correct / total;
  const points = windowPoints(votes, now);
  const consistency = consistencyOf(points);
  const slope = points.length >= 2 ? slopeOf(points) : 0;
  const trajectory = 0.5 + slope;
  const score = Math.min(1, Math.max(0, 0.5 * accuracy + 0.25 * consistency + 0.25 * trajectory));
  return {
    score,
    accuracy_rate: accuracy,
    total_resolved_votes: total,
    correct_resolved_votes: correct,
    insight: insightFor({ accuracy, points, slope, consistency }),
  };
}
