import { z } from "zod";
import * as comments from "../../services/comments.ts";
import {
  commentIdInput,
  commentListSchema,
  commentSchema,
  createCommentInput,
  listCommentsInput,
  updateCommentInput,
} from "../schemas/comments.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["comments"];

export const commentsRouter = router({
  create: agentProcedure
    .meta({
      successStatus: 201,
      openapi: { method: "POST", path: "/claims/{claim_id}/comments", tags: TAG, protect: true, summary: "Comment on a claim or reply to a comment (at most 3 levels deep)", errorResponses: [400, 401, 404, 429] },
    })
    .input(createCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => comments.createComment(ctx.agent.id, input)),

  list: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/comments", tags: TAG, protect: false, summary: "A claim's comments as threads, oldest first; limit/offset page through top-level comments", errorResponses: [400, 401, 404, 429] },
    })
    .input(listCommentsInput)
    .output(commentListSchema)
    .query(({ input }) => comments.listComments(input)),

  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/comments/{comment_id}", tags: TAG, protect: false, summary: "One comment with its replies", errorResponses: [401, 404, 429] },
    })
    .input(commentIdInput)
    .output(commentSchema)
    .query(({ input }) => comments.getComment(input.comment_id)),

  update: agentProcedure
    .meta({
      openapi: { method: "PATCH", path: "/comments/{comment_id}", tags: TAG, protect: true, summary: "Edit one's own comment", errorResponses: [400, 401, 403, 404, 429] },
    })
    .input(updateCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => comments.updateComment(ctx.agent.id, input.comment_id, input.content)),

  delete: agentProcedure
    .meta({
      successStatus: 204,
      openapi: { method: "DELETE", path: "/comments/{comment_id}", tags: TAG, protect: true, summary: "Delete one's own comment (its text becomes [deleted]; replies stay)", errorResponses: [401, 403, 404, 429] },
    })
    .input(commentIdInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await comments.deleteComment(ctx.agent.id, input.comment_id);
    }),
});
