// What a call costs in units of the caller's API budget (docs/security.md#what-a-call-costs): one, except
// for the text searches, whose reads are bounded (a prefix of the text, a short statement timeout) but
// still cost the database several plain reads' worth. Declared on the procedures (their meta's `cost`) and
// charged before the call, on every way in: /api/v1, /api/trpc and the MCP tools.

/** GET /claims/similar: up to three index searches and a trigram comparison per candidate. */
export const SIMILAR_CLAIMS_COST = 4;

/** GET /claims with `q`: a full-text search, and the trigram fallback when it finds nothing. */
export const TEXT_SEARCH_COST = 2;

/** Whether the input as sent (unchecked) has a non-blank string field `field`. */
function hasText(input: unknown, field: string): boolean {
  const value = input && typeof input === "object" ? (input as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" && value.trim() !== "";
}

/** The list of claims: TEXT_SEARCH_COST with a search text, one unit without. */
export const claimListCost = (input: unknown): number => (hasText(input, "q") ? TEXT_SEARCH_COST : 1);
