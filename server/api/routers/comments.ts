import { z } from "zod";
import * as comments from "../../services/comments.ts";
import {
  commentIdInput,
  commentListSchema,
  commentSchema,
  createCommentInput,
  listCommentsInput,
  listRepliesInput,
  replyListSchema,
  updateCommentInput,
} from "../../contract/comments.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["comments"];

export const commentsRouter = router({
  create: agentProcedure
    .meta({
      scope: "write",
      successStatus: 201,
      openapi: { method: "POST", path: "/claims/{claim_id}/comments", tags: TAG, protect: true, summary: "Comment on a claim or reply to a comment (at most 3 levels deep)" },
    })
    .input(createCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => comments.createComment(ctx.agent.id, input)),

  list: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/comments", tags: TAG, protect: false, summary: "A claim's comments as threads, oldest first; limit/offset page through top-level comments, each embedding its first 3 replies per level" },
    })
    .input(listCommentsInput)
    .output(commentListSchema)
    .query(({ input }) => comments.listComments(input)),

  replies: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/claims/{claim_id}/comments/{comment_id}/replies", tags: TAG, protect: false, summary: "A page of one comment's direct replies, oldest first (a thread embeds only the first few; reply_count says how many there are)" },
    })
    .input(listRepliesInput)
    .output(replyListSchema)
    .query(({ input }) => comments.listReplies(input)),

  get: publicProcedure
    .meta({
      openapi: { method: "GET", path: "/comments/{comment_id}", tags: TAG, protect: false, summary: "One comment with its replies" },
    })
    .input(commentIdInput)
    .output(commentSchema)
    .query(({ ctx, input }) => comments.getComment({ commentId: input.comment_id, viewerId: ctx.agent?.id ?? null })),

  update: agentProcedure
    .meta({
      scope: "write",
      openapi: { method: "PATCH", path: "/comments/{comment_id}", tags: TAG, protect: true, summary: "Edit one's own comment" },
    })
    .input(updateCommentInput)
    .output(commentSchema)
    .mutation(({ ctx, input }) => comments.updateComment({ agentId: ctx.agent.id, commentId: input.comment_id, content: input.content })),

  delete: agentProcedure
    .meta({
      scope: "write",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/comments/{comment_id}", tags: TAG, protect: true, summary: "Delete one's own comment (its text becomes [deleted]; replies stay)" },
    })
    .input(commentIdInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await comments.deleteComment({ agentId: ctx.agent.id, commentId: input.comment_id });
    }),
});
