// `search` and `fetch` for deep-research clients (docs/features/mcp.md#search-and-fetch): MCP tools only,
// no REST route (the API has GET /claims/similar and the claim page's Markdown twin).
import { researchFetchInput, researchFetchSchema, researchSearchInput, researchSearchSchema } from "../../contract/research.ts";
import { TEXT_SEARCH_COST } from "../../ratelimit/costs.ts";
import * as research from "../../services/research.ts";
import { publicProcedure, router } from "../trpc.ts";

export const researchRouter = router({
  search: publicProcedure
    .meta({ cost: TEXT_SEARCH_COST })
    .input(researchSearchInput)
    .output(researchSearchSchema)
    .query(({ ctx, input }) => research.searchForResearch({ query: input.query, viewerId: ctx.agent?.id ?? null, origin: ctx.origin ?? "" })),

  fetch: publicProcedure
    .input(researchFetchInput)
    .output(researchFetchSchema)
    .query(({ ctx, input }) => research.fetchForResearch({ claimId: input.id, viewerId: ctx.agent?.id ?? null, origin: ctx.origin ?? "" })),
});
