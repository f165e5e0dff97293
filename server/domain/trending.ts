// Trending (docs/api.md#discovery): activity over the last 24 hours, evidence weighing most.

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

/**
 * The trending order: highest trending_score first, then by claim id (a stable order for pages);
 * claims without activity in the window (score 0) are left out.
 */
export function rankTrending<T extends TrendingActivity & { id: string }>(claims: readonly T[]): T[] {
  return claims
    .map((claim) => ({ claim, score: trendingScore(claim) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || (a.claim.id < b.claim.id ? -1 : a.claim.id > b.claim.id ? 1 : 0))
    .map((c) => c.claim);
}
