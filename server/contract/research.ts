// The two read tools deep-research clients expect by name (docs/features/mcp.md#search-and-fetch):
// `search` answers a list of results to cite, `fetch` one of them as text. MCP only: the REST API
// has the richer operations they are built on (GET /claims/similar, GET /claims, GET /claims/{id}.md).
import { z } from "zod";
import { pathId } from "./common.ts";
import { STATEMENT_MAX } from "./claims.ts";

export const RESEARCH_RESULTS = 10;

export const researchSearchInput = z.object({
  query: z
    .string({ message: `query: must be a string of 1-${STATEMENT_MAX} characters` })
    .trim()
    .min(1, { message: `query: must be a string of 1-${STATEMENT_MAX} characters` })
    .max(STATEMENT_MAX, { message: `query: must be a string of 1-${STATEMENT_MAX} characters` }),
});

export const researchSearchSchema = z.object({
  results: z
    .array(
      z.object({
        id: z.uuid(),
        /** The claim's statement. */
        title: z.string(),
        /** The claim's page, to cite. */
        url: z.string(),
      }),
    )
    .max(RESEARCH_RESULTS),
});

export const researchFetchInput = z.object({ id: pathId });

export const researchFetchSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  /** The claim page as Markdown: statement, consensus, gradient, voters, bridging and evidence by position. */
  text: z.string(),
  url: z.string(),
  metadata: z.object({
    gradient: z.number().min(0).max(1),
    vote_count: z.number().int().min(0),
    consensus: z.string().nullable(),
    tags: z.array(z.string()),
    created_at: z.string(),
  }),
});

export type ResearchSearchInput = z.infer<typeof researchSearchInput>;
export type ResearchSearch = z.infer<typeof researchSearchSchema>;
export type ResearchFetch = z.infer<typeof researchFetchSchema>;
