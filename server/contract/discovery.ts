// Request and response shapes of the discovery endpoints (docs/api.md#discovery).
import { z } from "zod";
import { boundedInt, isoDate, offsetSchema, pathId } from "./common.ts";
import { claimSchema } from "./claims.ts";

export const trendingInput = z.object({
  limit: boundedInt("limit", 1, 50, 10),
  offset: offsetSchema,
});

export const relatedInput = z.object({
  claim_id: pathId,
  limit: boundedInt("limit", 1, 20, 5),
});

export const recommendedInput = z.object({
  limit: boundedInt("limit", 1, 50, 10),
});

export const topicsInput = z.object({
  limit: boundedInt("limit", 1, 100, 50),
  offset: offsetSchema,
});

export const TOPIC_SORTS = ["recent", "gradient", "votes"] as const;
export type TopicSort = (typeof TOPIC_SORTS)[number];

export const topicClaimsInput = z.object({
  tag: z.string(),
  sort: z.enum(TOPIC_SORTS, { message: `sort: must be one of ${TOPIC_SORTS.join(", ")}` }).default("recent"),
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

export const trendingClaimSchema = claimSchema
  .extend({
    /** 3·votes_24h + 5·evidence_24h + 2·comments_24h */
    trending_score: z.number(),
    votes_24h: z.number().int(),
    evidence_24h: z.number().int(),
    comments_24h: z.number().int(),
  })
  .meta({ id: "TrendingClaim" });

export const trendingSchema = z
  .object({
    claims: z.array(trendingClaimSchema),
    /** When the ranking was computed. */
    updated_at: isoDate,
  })
  .meta({ id: "Trending" });

export const relatedClaimSchema = claimSchema
  .extend({
    /** 10·shared tags + 5·agents who voted on both claims */
    relevance_score: z.number(),
    shared_tags: z.array(z.string()),
  })
  .meta({ id: "RelatedClaim" });

export const relatedSchema = z
  .object({ source_claim_id: z.uuid(), related: z.array(relatedClaimSchema) })
  .meta({ id: "RelatedClaims" });

export const recommendedClaimSchema = claimSchema
  .extend({
    recommendation_score: z.number(),
    /** The claim's tags among the caller's expertise tags. */
    matching_tags: z.array(z.string()),
  })
  .meta({ id: "RecommendedClaim" });

export const recommendedSchema = z
  .object({
    claims: z.array(recommendedClaimSchema),
    /** The caller's expertise tags (docs/api.md#scoring); empty for a newcomer. */
    based_on_tags: z.array(z.string()),
  })
  .meta({ id: "RecommendedClaims" });

export const topicSchema = z
  .object({
    tag: z.string(),
    claim_count: z.number().int(),
    /** Claims with this tag created in the last 7 days. */
    recent_activity: z.number().int(),
  })
  .meta({ id: "Topic" });

export const topicsSchema = z
  .object({ topics: z.array(topicSchema), total: z.number().int() })
  .meta({ id: "Topics" });

export const topicClaimsSchema = z
  .object({ tag: z.string(), claims: z.array(claimSchema), total: z.number().int() })
  .meta({ id: "TopicClaims" });

export type Trending = z.infer<typeof trendingSchema>;
export type RelatedClaims = z.infer<typeof relatedSchema>;
export type RecommendedClaims = z.infer<typeof recommendedSchema>;
export type Topics = z.infer<typeof topicsSchema>;
export type TopicClaims = z.infer<typeof topicClaimsSchema>;
