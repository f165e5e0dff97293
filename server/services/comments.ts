// Threaded comments on claims (CONTRACT §5): at most 3 reply levels, soft delete, author-only edits.
import { db } from "../db/client.ts";
import { badRequest, forbidden, notFound } from "../api/errors.ts";
import { agentSelect, isUuid, toAgent, type AgentRow } from "../api/schemas/common.ts";
import { MAX_COMMENT_DEPTH, type CommentOut } from "../api/schemas/comments.ts";

export const DELETED_CONTENT = "[deleted]";

const commentSelect = {
  id: true,
  claimId: true,
  parentId: true,
  content: true,
  depth: true,
  isEdited: true,
  isDeleted: true,
  createdAt: true,
  updatedAt: true,
  authorId: true,
  author: { select: agentSelect },
} as const;

interface CommentRow {
  id: string;
  claimId: string;
  parentId: string | null;
  content: string;
  depth: number;
  isEdited: boolean;
  isDeleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  authorId: string;
  author: AgentRow;
}

/** Oldest first, ties by id: a thread reads as a conversation and pages never overlap. */
const threadOrder = [{ createdAt: "asc" as const }, { id: "asc" as const }];

function toComment(row: CommentRow, replies: CommentOut[] = []): CommentOut {
  return {
    id: row.id,
    claim_id: row.claimId,
    parent_id: row.parentId,
    author: toAgent(row.author),
    content: row.isDeleted ? DELETED_CONTENT : row.content,
    is_edited: row.isEdited,
    is_deleted: row.isDeleted,
    depth: row.depth,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    replies,
  };
}

/** The given comments with their replies nested, loaded one level per query (at most 3). */
async function withReplies(roots: CommentRow[]): Promise<CommentOut[]> {
  const childrenOf = new Map<string, CommentRow[]>();
  let level = roots;
  while (level.length > 0 && level.some((c) => c.depth < MAX_COMMENT_DEPTH)) {
    const next = await db().comment.findMany({
      where: { parentId: { in: level.map((c) => c.id) } },
      orderBy: threadOrder,
      select: commentSelect,
    });
    for (const c of next) {
      const siblings = childrenOf.get(c.parentId!) ?? [];
      siblings.push(c);
      childrenOf.set(c.parentId!, siblings);
    }
    level = next;
  }
  const build = (row: CommentRow): CommentOut => toComment(row, (childrenOf.get(row.id) ?? []).map(build));
  return roots.map(build);
}

async function requireClaim(claimId: string): Promise<void> {
  const claim = isUuid(claimId) ? await db().claim.findUnique({ where: { id: claimId }, select: { id: true } }) : null;
  if (!claim) throw notFound("Claim not found");
}

async function findComment(commentId: string): Promise<CommentRow> {
  const row = isUuid(commentId)
    ? await db().comment.findUnique({ where: { id: commentId }, select: commentSelect })
    : null;
  if (!row) throw notFound("Comment not found");
  return row;
}

export async function createComment(
  authorId: string,
  input: { claim_id: string; content: string; parent_id?: string | null },
): Promise<CommentOut> {
  await requireClaim(input.claim_id);
  let depth = 0;
  if (input.parent_id != null) {
    const parent = isUuid(input.parent_id)
      ? await db().comment.findUnique({ where: { id: input.parent_id }, select: { claimId: true, depth: true } })
      : null;
    if (!parent || parent.claimId !== input.claim_id) {
      throw badRequest(`parent_id: no comment ${input.parent_id} on this claim`);
    }
    if (parent.depth >= MAX_COMMENT_DEPTH) {
      throw badRequest(`parent_id: replies can be nested at most ${MAX_COMMENT_DEPTH} levels deep`);
    }
    depth = parent.depth + 1;
  }
  const row = await db().$transaction(async (tx) => {
    const created = await tx.comment.create({
      data: {
        claimId: input.claim_id,
        parentId: input.parent_id ?? null,
        authorId,
        content: input.content,
        depth,
      },
      select: commentSelect,
    });
    // A counter, not an edit of the claim: updated_at stays as it is.
    await tx.$executeRaw`UPDATE claims SET comment_count = comment_count + 1 WHERE id = ${input.claim_id}::uuid`;
    return created;
  });
  return toComment(row);
}

export async function listComments(input: {
  claim_id: string;
  limit: number;
  offset: number;
}): Promise<{ comments: CommentOut[]; total: number }> {
  await requireClaim(input.claim_id);
  const where = { claimId: input.claim_id, parentId: null };
  const [roots, total] = await Promise.all([
    db().comment.findMany({ where, orderBy: threadOrder, skip: input.offset, take: input.limit, select: commentSelect }),
    db().comment.count({ where }),
  ]);
  return { comments: await withReplies(roots), total };
}

export async function getComment(commentId: string): Promise<CommentOut> {
  const [comment] = await withReplies([await findComment(commentId)]);
  return comment;
}

export async function updateComment(agentId: string, commentId: string, content: string): Promise<CommentOut> {
  const row = await findComment(commentId);
  if (row.authorId !== agentId) throw forbidden();
  if (row.isDeleted) throw badRequest("comment_id: a deleted comment cannot be edited");
  await db().comment.update({ where: { id: row.id }, data: { content, isEdited: true } });
  return getComment(row.id);
}

/** Soft delete: the text is replaced by "[deleted]" and the replies stay in the thread. */
export async function deleteComment(agentId: string, commentId: string): Promise<void> {
  const row = await findComment(commentId);
  if (row.authorId !== agentId) throw forbidden();
  if (row.isDeleted) return;
  await db().comment.update({ where: { id: row.id }, data: { content: DELETED_CONTENT, isDeleted: true } });
}
