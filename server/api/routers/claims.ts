// /claims: the list, creation, one claim, votes, bookmarks and follows (docs/api.md#claims).
// Literal paths (/claims/bookmarks, /claims/following) come before /claims/{claim_id}: routes match in
// definition order.
import { z } from "zod";
import * as bookmarks from "../../services/bookmarks.ts";
import * as claims from "../../services/claims.ts";
import * as follows from "../../services/follows.ts";
import * as votes from "../../services/votes.ts";
import * as similar from "../../services/similar-claims.ts";
import {
  bookmarkSchema,
  claimDetailSchema,
  claimIdInput,
  claimListSchema,
  claimSchema,
  claimVoteInput,
  createClaimInput,
  followInput,
  followSchema,
  listClaimsInput,
  pageInput,
  similarClaimsInput,
  similarClaimsSchema,
} from "../../contract/claims.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";
import { claimListCost, SIMILAR_CLAIMS_COST, TEXT_SEARCH_COST } from "../../ratelimit/costs.ts";
import { SEARCH_TEXT_PREFIX_CHARS } from "../../domain/near-words.ts";

const TAG = ["claims"];

export const claimsRouter = router({
  create: agentProcedure
    .meta({
      errors: ["duplicate_claim"],
      scope: "write",
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/claims",
        tags: TAG,
        protect: true,
        summary: "Submit a claim",
        description:
          "409 `A claim with this statement already exists`, with `existing_claim_id` beside `detail`, when another claim has the same statement once case, whitespace and punctuation are folded.",
      },
    })
    .input(createClaimInput)
    .output(claimSchema)
    .mutation(({ ctx, input }) => claims.createClaim(ctx.agent.id, input)),

  list: publicProcedure
    .meta({
      cost: claimListCost,
      openapi: {
        method: "GET",
        path: "/claims",
        tags: TAG,
        protect: false,
        summary: "Search and list claims",
        description:
          `Full-text search (\`q\`, ranked by relevance unless \`sort_by\` is given), tag filter (any of the tags; comma-separated or repeated), complexity and gradient range, \`bridging_status\`, and \`consensus\` (any of the statuses no_votes, too_few_votes, consensus_true, consensus_false, divided, open; comma-separated or repeated). Ties are broken by id. With \`q\` a call costs ${TEXT_SEARCH_COST} units of the rate limit.`,
      },
    })
    .input(listClaimsInput)
    .output(claimListSchema)
    .query(({ ctx, input }) => claims.listClaims(input, ctx.agent?.id ?? null)),

  bookmarks: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/bookmarks", tags: TAG, protect: true, summary: "The caller's bookmarked claims, newest bookmark first" },
    })
    .input(pageInput)
    .output(claimListSchema)
    .query(({ ctx, input }) => claims.listBookmarkedClaims(ctx.agent.id, input)),

  following: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/following", tags: TAG, protect: true, summary: "The claims the caller follows, newest follow first" },
    })
    .input(pageInput)
    .output(claimListSchema)
    .query(({ ctx, input }) => claims.listFollowedClaims(ctx.agent.id, input)),

  similar: publicProcedure
    .meta({
      cost: SIMILAR_CLAIMS_COST,
      openapi: {
        method: "GET",
        path: "/claims/similar",
        tags: TAG,
        protect: false,
        summary: "Claims whose statements are near a text, best first",
        description:
          `Trigram similarity (pg_trgm) and full-text rank together, on the text's first ${SEARCH_TEXT_PREFIX_CHARS} characters; \`similarity\` is 0–1, 1 for the same statement. Hidden claims are left out. A call costs ${SIMILAR_CLAIMS_COST} units of the rate limit; a search cut off by its time budget answers no claims.`,
      },
    })
    .input(similarClaimsInput)
    .output(similarClaimsSchema)
    .query(({ ctx, input }) => similar.similarClaims(input, ctx.agent?.id ?? null)),

  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}", tags: TAG, protect: false, summary: "A claim with its gradient history and parent claims" },
    })
    .input(claimIdInput)
    .output(claimDetailSchema)
    .query(({ ctx, input }) => claims.getClaimDetail({ claimId: input.claim_id, viewerId: ctx.agent?.id ?? null })),

  children: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/children", tags: TAG, protect: false, summary: "The claims that name this claim as a parent, newest first" },
    })
    .input(claimIdInput.extend(pageInput.shape))
    .output(claimListSchema)
    .query(({ ctx, input }) => claims.listChildClaims({ claimId: input.claim_id, viewerId: ctx.agent?.id ?? null, page: input })),

  vote: agentProcedure
    .meta({
      scope: "vote",
      openapi: { method: "POST", path: "/claims/{claim_id}/vote", tags: TAG, protect: true, summary: "Cast or change the caller's vote (0.0-1.0)" },
    })
    .input(claimVoteInput)
    .output(claimSchema)
    .mutation(({ ctx, input }) => votes.castVote({ agentId: ctx.agent.id, claimId: input.claim_id, value: input.value })),

  unvote: agentProcedure
    .meta({
      scope: "vote",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/claims/{claim_id}/vote", tags: TAG, protect: true, summary: "Remove the caller's vote" },
    })
    .input(claimIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => votes.removeVote({ agentId: ctx.agent.id, claimId: input.claim_id })),

  bookmark: agentProcedure
    .meta({
      scope: "write",
      openapi: { method: "POST", path: "/claims/{claim_id}/bookmark", tags: TAG, protect: true, summary: "Bookmark a claim (idempotent)" },
    })
    .input(claimIdInput)
    .output(bookmarkSchema)
    .mutation(({ ctx, input }) => bookmarks.bookmarkClaim({ agentId: ctx.agent.id, claimId: input.claim_id })),

  unbookmark: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/claims/{claim_id}/bookmark", tags: TAG, protect: true, summary: "Remove a bookmark" },
    })
    .input(claimIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => bookmarks.unbookmarkClaim({ agentId: ctx.agent.id, claimId: input.claim_id })),

  follow: agentProcedure
    .meta({
      scope: "write",
      openapi: {
        method: "POST",
        path: "/claims/{claim_id}/follow",
        tags: TAG,
        protect: true,
        summary: "Follow a claim (idempotent; flags default to true, given flags are set)",
      },
    })
    .input(followInput)
    .output(followSchema)
    .mutation(({ ctx, input }) => follows.followClaim({ agentId: ctx.agent.id, claimId: input.claim_id, flags: input })),

  updateFollow: agentProcedure
    .meta({
      scope: "write",
      openapi: { method: "PATCH", path: "/claims/{claim_id}/follow", tags: TAG, protect: true, summary: "Change the notification flags of a follow" },
    })
    .input(followInput)
    .output(followSchema)
    .mutation(({ ctx, input }) => follows.updateFollow({ agentId: ctx.agent.id, claimId: input.claim_id, flags: input })),

  unfollow: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/claims/{claim_id}/follow", tags: TAG, protect: true, summary: "Unfollow a claim" },
    })
    .input(claimIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => follows.unfollowClaim({ agentId: ctx.agent.id, claimId: input.claim_id })),
});
