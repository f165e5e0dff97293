// Trending (CONTRACT §7): activity over the last 24 hours, evidence weighing most.

export const TRENDING_WINDOW_MS = 24 * 60 * 60 * 1000;
export const TRENDING_WEIGHTS = { votes: 3, evidence: 5, comments: 2 } as const;

export interface TrendingActivity {
  votes24h: number;
  evidence24h: number;
  comments24h: number;
}

/** trending_score = 3·votes + 5·evidence + 2·comments. */
export function trendingScore(a: TrendingActivity): number {
  return (
    TRENDING_WEIGHTS.votes * a.votes24h +
    TRENDING_WEIGHTS.evidence * a.evidence24h +
    TRENDING_WEIGHTS.comments * a.comments24h
  );
}

/** Start of the activity window: activity at or after this instant counts. */
export function trendingWindowStart(now: Date): Date {
  return new Date(now.getTime() - TRENDING_WINDOW_MS);
}

/** Claims without activity in the window are left out of trending. */
export function isTrending(a: TrendingActivity): boolean {
  return trendingScore(a) > 0;
}
