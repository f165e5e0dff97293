// Request and response shapes of the comment endpoints (docs/api.md#evidence-and-comments).
import { z } from "zod";
import { agentSchema, boundedInt, canonicalId, isoDate, moderationInfoSchema, offsetSchema, pathId, trimmedText } from "./common.ts";

export const MAX_COMMENT_LENGTH = 5000;
export { MAX_COMMENT_DEPTH } from "../domain/comments.ts";

const contentMessage = `content: must be 1-${MAX_COMMENT_LENGTH} characters`;
const contentSchema = trimmedText("content: is required", { min: 1, max: MAX_COMMENT_LENGTH, minMessage: contentMessage, maxMessage: contentMessage });

export const createCommentInput = z.object({
  claim_id: pathId,
  content: contentSchema,
  // A visible comment on the same claim; any other id is a 400 naming it.
  parent_id: z
    .string({ message: "parent_id: must be a comment id" })
    .transform(canonicalId)
    .meta({ format: "uuid" })
    .nullish(),
});

export const listCommentsInput = z.object({
  claim_id: pathId,
  limit: boundedInt("limit", 1, 100, 50),
  offset: offsetSchema,
});

export const commentIdInput = z.object({ comment_id: pathId });

export const listRepliesInput = z.object({
  claim_id: pathId,
  comment_id: pathId,
  limit: boundedInt("limit", 1, 100, 50),
  offset: offsetSchema,
});

export const updateCommentInput = z.object({ comment_id: pathId, content: contentSchema });

export interface CommentOut {
  id: string;
  claim_id: string;
  parent_id: string | null;
  author: z.infer<typeof agentSchema>;
  content: string;
  is_edited: boolean;
  is_deleted: boolean;
  depth: number;
  reply_count: number;
  created_at: string;
  updated_at: string;
  replies: CommentOut[];
  moderation?: z.infer<typeof moderationInfoSchema>;
}

export const commentSchema: z.ZodType<CommentOut> = z
  .object({
    id: z.uuid(),
    claim_id: z.uuid(),
    parent_id: z.uuid().nullable(),
    author: agentSchema,
    content: z.string(),
    is_edited: z.boolean(),
    is_deleted: z.boolean(),
    depth: z.number().int(),
    /** Direct replies in all; `replies` holds the first few (GET …/comments/{comment_id}/replies pages them all). */
    reply_count: z.number().int(),
    created_at: isoDate,
    updated_at: isoDate,
    get replies() {
      return z.array(commentSchema);
    },
    /** Only on hidden content, shown to its author and moderators (docs/features/moderation.md). */
    moderation: moderationInfoSchema.optional(),
  })
  .meta({ id: "Comment" });

export const commentListSchema = z
  .object({
    comments: z.array(commentSchema),
    /** Top-level comments on the claim: the unit that limit/offset page through. */
    total: z.number().int(),
  })
  .meta({ id: "CommentList" });

export type CommentList = z.infer<typeof commentListSchema>;

export const replyListSchema = z
  .object({
    /** Direct replies, oldest first, each with its own first replies embedded. */
    replies: z.array(commentSchema),
    /** All direct replies of the comment (its reply_count). */
    total: z.number().int(),
  })
  .meta({ id: "ReplyList" });

export type ReplyList = z.infer<typeof replyListSchema>;
