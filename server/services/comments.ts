// Threaded comments on claims (docs/api.md#evidence-and-comments): at most 3 reply levels, soft delete, author-only edits.
import { db, readSql, WRITE_TX_OPTIONS } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { badRequest, forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { MAX_COMMENT_DEPTH, type CommentList, type CommentOut, type ReplyList } from "../contract/comments.ts";
import { AUTHOR_COLUMNS, authorOf, type AuthorColumns } from "./author-columns.ts";
import { mayReveal, moderationInfo, visibleClaim, visibleComment, VISIBLE_ON_CLAIM_WHERE } from "./visibility.ts";
import { recordEvent } from "./outbox.ts";

export const DELETED_CONTENT = "[deleted]";
export const COMMENT_NOT_FOUND = "Comment not found";
/**
 * Replies embedded under each comment of a thread (at every level); the rest is paged through /replies.
 */
export const REPLIES_EMBEDDED = 3;
/**
 * Comments in one answer, the page's and the embedded replies together
 * (docs/security.md#budgets-what-one-request-may-cost): 100 full threads were 4,000 comments, 24 MB of
 * JSON at 5,000 characters each. Replies are embedded level by level, oldest first, until the answer
 * holds this many; each comment then embeds its oldest replies or fewer, never a gap.
 */
export const COMMENTS_PER_ANSWER = 300;

/** A comment as raw SQL reads it, with its author's columns (`c` comments, `a` agents). */
interface CommentRow extends AuthorColumns {
  id: string;
  claim_id: string;
  parent_id: string | null;
  content: string;
  depth: number;
  reply_count: number;
  is_edited: boolean;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  hidden_at: Date | null;
  hidden_reason: string | null;
  visible: boolean;
}

const COMMENT_COLUMNS = Prisma.sql`
  c.id::text AS id, c.claim_id::text AS claim_id, c.parent_id::text AS parent_id, c.content, c.depth,
  c.reply_count, c.is_edited, c.is_deleted, c.created_at, c.updated_at, ${AUTHOR_COLUMNS},
  c.hidden_at, c.hidden_reason, ${visibleComment("c")} AS visible`;

/** Oldest first, ties by id: a thread reads as a conversation and pages never overlap. */
const THREAD_ORDER = Prisma.sql`c.created_at ASC, c.id ASC`;

function toComment(row: CommentRow, replies: CommentOut[] = []): CommentOut {
  const moderation = moderationInfo(row);
  return {
    ...(moderation ? { moderation } : {}),
    id: row.id,
    claim_id: row.claim_id,
    parent_id: row.parent_id,
    author: authorOf(row),
    content: row.is_deleted ? DELETED_CONTENT : row.content,
    is_edited: row.is_edited,
    is_deleted: row.is_deleted,
    depth: row.depth,
    reply_count: row.reply_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    replies,
  };
}

/**
 * The given comments with their first REPLIES_EMBEDDED replies nested, level by level (at most 3
 * queries), until the answer holds COMMENTS_PER_ANSWER comments. Each parent's replies are read
 * through the (parent_id, created_at) index and cut at the limit, so a comment with 10,000 replies
 * costs what one with 3 does; `reply_count` says how many there are and
 * GET /claims/{claim_id}/comments/{comment_id}/replies pages the rest from the number embedded.
 */
async function withReplies(roots: CommentRow[]): Promise<CommentOut[]> {
  const childrenOf = new Map<string, CommentRow[]>();
  let room = COMMENTS_PER_ANSWER - roots.length;
  let level = roots.filter((c) => c.reply_count > 0);
  while (level.length > 0 && room > 0) {
    // Oldest first across the level: a parent's replies that fit are its oldest ones.
    const next = await readSql<CommentRow>`
      SELECT ${COMMENT_COLUMNS}
      FROM unnest(${level.map((c) => c.id)}::uuid[]) AS p(id)
      CROSS JOIN LATERAL (
        SELECT * FROM comments c WHERE c.parent_id = p.id AND ${visibleComment("c")} ORDER BY ${THREAD_ORDER} LIMIT ${REPLIES_EMBEDDED}
      ) c
      JOIN agents a ON a.id = c.author_id
      ORDER BY ${THREAD_ORDER} LIMIT ${room}`;
    room -= next.length;
    for (const c of next) {
      const siblings = childrenOf.get(c.parent_id!) ?? [];
      siblings.push(c);
      childrenOf.set(c.parent_id!, siblings);
    }
    level = next.filter((c) => c.reply_count > 0);
  }
  const build = (row: CommentRow): CommentOut => toComment(row, (childrenOf.get(row.id) ?? []).map(build));
  return roots.map(build);
}

/** A driver read (rule 1 of server/db/client.ts): listing comments is on every claim page's render. */
async function requireClaim(claimId: string): Promise<void> {
  const [claim] = isUuid(claimId)
    ? await readSql<{ found: number }>(Prisma.sql`SELECT 1 AS found FROM claims c WHERE c.id = ${claimId}::uuid AND ${visibleClaim("c")}`, { prepared: true })
    : [];
  if (!claim) throw notFound("Claim not found");
}

async function commentRows(where: Prisma.Sql, orderAndPage: Prisma.Sql = Prisma.empty): Promise<CommentRow[]> {
  return readSql<CommentRow>`
    SELECT ${COMMENT_COLUMNS} FROM comments c JOIN agents a ON a.id = c.author_id WHERE ${where} ${orderAndPage}`;
}

/** One comment, hidden ones included (their author may still edit or delete them). */
async function findComment(commentId: string): Promise<CommentRow> {
  const [row] = isUuid(commentId) ? await commentRows(Prisma.sql`c.id = ${commentId}::uuid`) : [];
  if (!row) throw notFound(COMMENT_NOT_FOUND);
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
      ? await db().comment.findUnique({ where: { id: input.parent_id, ...VISIBLE_ON_CLAIM_WHERE }, select: { claimId: true, depth: true } })
      : null;
    if (!parent || parent.claimId !== input.claim_id) {
      throw badRequest(`parent_id: no comment ${input.parent_id} on this claim`);
    }
    if (parent.depth >= MAX_COMMENT_DEPTH) {
      throw badRequest(`parent_id: replies can be nested at most ${MAX_COMMENT_DEPTH} levels deep`);
    }
    depth = parent.depth + 1;
  }
  const id = await db().$transaction(async (tx) => {
    // The parent's reply_count is kept by a trigger (migration comment_reply_count).
    const created = await tx.comment.create({
      data: {
        claimId: input.claim_id,
        parentId: input.parent_id ?? null,
        authorId,
        content: input.content,
        depth,
      },
      select: { id: true },
    });
    // A counter, not an edit of the claim: updated_at stays as it is.
    await tx.$executeRaw`UPDATE claims SET comment_count = comment_count + 1 WHERE id = ${input.claim_id}::uuid`;
    await recordEvent(tx, { type: "claim.commented", claimId: input.claim_id, actorId: authorId, commentId: created.id });
    return created.id;
   }, WRITE_TX_OPTIONS);
  return toComment(await findComment(id));
}

export async function listComments(input: { claim_id: string; limit: number; offset: number }): Promise<CommentList> {
  if (!isUuid(input.claim_id)) throw notFound("Claim not found");
  const where = Prisma.sql`c.claim_id = ${input.claim_id}::uuid AND c.parent_id IS NULL AND ${visibleComment("c")}`;
  const [roots, [count]] = await Promise.all([
    commentRows(where, Prisma.sql`ORDER BY ${THREAD_ORDER} LIMIT ${input.limit} OFFSET ${input.offset}`),
    // No row when the claim is unknown or hidden; else the number of its threads (one statement for both).
    readSql<{ total: number }>`
      SELECT (SELECT count(*)::int FROM comments c WHERE ${where}) AS total FROM claims cl
      WHERE cl.id = ${input.claim_id}::uuid AND ${visibleClaim("cl")}`,
  ]);
  if (!count) throw notFound("Claim not found");
  return { comments: await withReplies(roots), total: count.total };
}

/** A page of one comment's direct replies, oldest first, each with its own first replies embedded. */
export async function listReplies(input: {
  claim_id: string;
  comment_id: string;
  limit: number;
  offset: number;
}): Promise<ReplyList> {
  await requireClaim(input.claim_id);
  const parent = await findComment(input.comment_id);
  if (parent.claim_id !== input.claim_id || !parent.visible) throw notFound(COMMENT_NOT_FOUND);
  const page = await commentRows(
    Prisma.sql`c.parent_id = ${parent.id}::uuid AND ${visibleComment("c")}`,
    Prisma.sql`ORDER BY ${THREAD_ORDER} LIMIT ${input.limit} OFFSET ${input.offset}`,
  );
  return { replies: await withReplies(page), total: parent.reply_count };
}

/** Hidden comments answer 404 to all but their author and moderators (docs/features/moderation.md). */
export async function getComment({ commentId, viewerId = null }: { commentId: string; viewerId?: string | null }): Promise<CommentOut> {
  const row = await findComment(commentId);
  if (!row.visible && !(await mayReveal({ viewerId, authorId: row.author_id }))) throw notFound(COMMENT_NOT_FOUND);
  const [comment] = await withReplies([row]);
  return comment;
}

export async function updateComment({ agentId, commentId, content }: { agentId: string; commentId: string; content: string }): Promise<CommentOut> {
  const row = await findComment(commentId);
  if (row.author_id !== agentId) throw forbidden();
  if (row.is_deleted) throw badRequest("comment_id: a deleted comment cannot be edited");
  await db().comment.update({ where: { id: row.id }, data: { content, isEdited: true } });
  return getComment({ commentId: row.id, viewerId: agentId });
}

/** Soft delete: the text is replaced by "[deleted]" and the replies stay in the thread. */
export async function deleteComment({ agentId, commentId }: { agentId: string; commentId: string }): Promise<void> {
  const row = await findComment(commentId);
  if (row.author_id !== agentId) throw forbidden();
  if (row.is_deleted) return;
  await db().comment.update({ where: { id: row.id }, data: { content: DELETED_CONTENT, isDeleted: true } });
}
