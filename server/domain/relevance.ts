// Related and recommended claims (docs/api.md#discovery).

const DAY_MS = 24 * 60 * 60 * 1000;

/** relevance = 10·shared tags + 5·agents who voted on both claims. */
export function relatedRelevance(input: { sharedTags: number; sharedVoters: number }): number {
  return 10 * input.sharedTags + 5 * input.sharedVoters;
}

/** The claim's tags that are among the caller's expertise tags, in the claim's order, once each. */
export function matchingTags(claimTags: readonly string[], expertiseTags: readonly string[]): string[] {
  const wanted = new Set(expertiseTags);
  return [...new Set(claimTags)].filter((t) => wanted.has(t));
}

export const RECOMMENDATION_WEIGHTS = {
  /** per matching expertise tag: interest dominates, as in relatedRelevance */
  tag: 10,
  /** a brand-new claim gets the full bonus, halved every RECENCY_HALF_LIFE_DAYS */
  recency: 10,
  /** per ln(1 + evidence): evidence helps, with diminishing returns */
  evidence: 3,
} as const;
export const RECENCY_HALF_LIFE_DAYS = 7;

/**
 * recommendation_score = 10·matching tags + 10·0.5^(age days / 7) + 3·ln(1 + evidence_count),
 * rounded to 4 decimals. A new claim in one of the caller's tags (≈20) outranks an untagged
 * week-old claim with 20 pieces of evidence (≈14); a caller without expertise still gets fresh,
 * well-evidenced claims. A creation time in the future counts as age 0.
 */
export function recommendationScore(input: {
  matchingTagCount: number;
  createdAt: Date;
  evidenceCount: number;
  now: Date;
}): number {
  const ageDays = Math.max(0, (input.now.getTime() - input.createdAt.getTime()) / DAY_MS);
  const recency = Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
  const score =
    RECOMMENDATION_WEIGHTS.tag * input.matchingTagCount +
    RECOMMENDATION_WEIGHTS.recency * recency +
    RECOMMENDATION_WEIGHTS.evidence * Math.log1p(Math.max(0, input.evidenceCount));
  return Math.round(score * 1e4) / 1e4;
}
