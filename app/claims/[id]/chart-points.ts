import type { ClaimDetail } from "~/server/contract/claims.ts";

// The history chart is ≈520 px wide: more points than this add bytes to the page, not detail.
// The server render sends at most this many (the HTML), and the chart draws at most this many.
export const CHART_POINTS = 120;

/** A point of the gradient's history as the page sends it: gradient, vote count, ms since the epoch. */
export type HistoryPoint = [gradient: number, voteCount: number, recordedAt: number];

/** The points, compact for the page's payload (a history is most of it); claim-live.tsx expands them. */
export function historyPoints(history: ClaimDetail["gradient_history"]): HistoryPoint[] {
  // Four decimals: a hundredth of a percent, finer than the chart or its tooltip (whole percents) shows.
  return history.map((p) => [Math.round(p.gradient * 10000) / 10000, p.vote_count, Date.parse(p.recorded_at)]);
}
