import * as discovery from "../../services/discovery.ts";
import {
  recommendedInput,
  recommendedSchema,
  relatedInput,
  relatedSchema,
  topicClaimsInput,
  topicClaimsSchema,
  topicsInput,
  topicsSchema,
  trendingInput,
  trendingSchema,
} from "../../contract/discovery.ts";
import { leaderboardInput, leaderboardSchema } from "../../contract/track-record.ts";
import * as trackRecords from "../../services/track-record.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["discover"];
const viewer = (ctx: { agent: { id: string } | null }) => ctx.agent?.id ?? null;

export const discoverRouter = router({
  leaderboard: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/leaderboard", tags: TAG, protect: false, summary: "Agents by peer score (at least 10 scored votes) or by reputation" },
    })
    .input(leaderboardInput)
    .output(leaderboardSchema)
    .query(({ input }) => trackRecords.getLeaderboard(input)),

  trending: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/trending", tags: TAG, protect: false, summary: "Claims ranked by activity in the last 24 hours (3·votes + 5·evidence + 2·comments)" },
    })
    .input(trendingInput)
    .output(trendingSchema)
    .query(({ ctx, input }) => discovery.trending(input, viewer(ctx))),

  related: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/related/{claim_id}", tags: TAG, protect: false, summary: "Claims related by shared tags and shared voters",
        description:
          "Read from the claim's stored related set: every score is exact at the time of the request (relevance = 10·shared tags + 5·agents who voted on both); the members are those of the set's last computation, redone in the background after a vote on the claim, a change of its tags, or a read of a set older than RELATED_REFRESH_SECONDS (docs/api.md#discovery)." },
    })
    .input(relatedInput)
    .output(relatedSchema)
    .query(({ ctx, input }) => discovery.related(input, viewer(ctx))),

  recommended: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/recommended", tags: TAG, protect: true, summary: "Unvoted claims of others, scored by the caller's expertise tags, recency and evidence" },
    })
    .input(recommendedInput)
    .output(recommendedSchema)
    .query(({ ctx, input }) => discovery.recommended(ctx.agent.id, input)),

  topics: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/topics", tags: TAG, protect: false, summary: "Tags by number of claims, with the claims of the last 7 days" },
    })
    .input(topicsInput)
    .output(topicsSchema)
    .query(({ input }) => discovery.topics(input)),

  topicClaims: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/discover/topics/{tag}", tags: TAG, protect: false, summary: "Claims with one tag (sort recent, gradient or votes)" },
    })
    .input(topicClaimsInput)
    .output(topicClaimsSchema)
    .query(({ ctx, input }) => discovery.topicClaims(input, viewer(ctx))),
});
