// What a claim page's first render hands its client parts: the API's objects cut down to the fields the
// page shows, their types derived from the contract's (docs/architecture.md#pages-from-data). The client
// parts draw these until their queries answer, then the full objects (which these types accept).
import type { ArgumentList, ArgumentOut } from "~/server/contract/arguments.ts";
import type { ClaimDetail } from "~/server/contract/claims.ts";
import type { CommentOut } from "~/server/contract/comments.ts";
import type { Evidence, EvidenceList } from "~/server/contract/evidence.ts";

/** An author as the page shows one: a name linked to a profile, and whose it is. */
export type AuthorShown = Pick<ClaimDetail["author"], "id" | "username" | "display_name">;

/** The claim without what the page never shows (its history travels apart, compact: chart-points.ts). */
export type ClaimShown = Omit<ClaimDetail, "author" | "updated_at" | "parent_ids" | "parent_claims" | "gradient_history" | "bridging"> & {
  author: AuthorShown;
  bridging: Pick<ClaimDetail["bridging"], "score" | "status">;
};

export type EvidenceShown = Pick<
  Evidence,
  "id" | "position" | "content_type" | "content" | "title" | "excerpt" | "upvotes" | "downvotes" | "vote_score" | "created_at" | "user_vote"
> & { author: AuthorShown };
export type EvidenceListShown = { evidence: EvidenceShown[]; total: number };

export type CommentShown = Pick<CommentOut, "id" | "content" | "is_edited" | "is_deleted" | "depth" | "reply_count" | "created_at"> & {
  author: AuthorShown;
  replies: CommentShown[];
};
export type CommentListShown = { comments: CommentShown[]; total: number };

/** An argument as its list shows it: the child claim's statement and consensus, relevance and impact. */
export type ArgumentShown = Pick<ArgumentOut, "id" | "stance" | "relevance" | "impact" | "user_relevance"> & {
  claim: Pick<ArgumentOut["claim"], "id" | "statement"> & { consensus: Pick<ArgumentOut["claim"]["consensus"], "status"> };
};
export type ArgumentListShown = { arguments: ArgumentShown[]; total: number; balance: number };

const authorShown = ({ id, username, display_name }: AuthorShown): AuthorShown => ({ id, username, display_name });

export function claimShown(c: ClaimDetail): ClaimShown {
  return {
    id: c.id,
    statement: c.statement,
    complexity_tier: c.complexity_tier,
    tags: c.tags,
    gradient: c.gradient,
    gradient_people: c.gradient_people,
    vote_count: c.vote_count,
    evidence_count: c.evidence_count,
    author: authorShown(c.author),
    created_at: c.created_at,
    user_vote: c.user_vote,
    is_bookmarked: c.is_bookmarked,
    is_following: c.is_following,
    bridging: { score: c.bridging.score, status: c.bridging.status },
    consensus: c.consensus,
    agents: c.agents,
    check: c.check,
    not_counted_reasons: c.not_counted_reasons,
    // Present only on a hidden claim (an absent field costs nothing in the payload).
    ...(c.moderation ? { moderation: c.moderation } : {}),
  };
}

export function evidenceShown(list: Pick<EvidenceList, "evidence" | "total">): EvidenceListShown {
  return {
    total: list.total,
    evidence: list.evidence.map((e) => ({
      id: e.id,
      author: authorShown(e.author),
      position: e.position,
      content_type: e.content_type,
      content: e.content,
      title: e.title,
      excerpt: e.excerpt,
      upvotes: e.upvotes,
      downvotes: e.downvotes,
      vote_score: e.vote_score,
      created_at: e.created_at,
      user_vote: e.user_vote,
    })),
  };
}

function commentShown(c: CommentOut): CommentShown {
  return {
    id: c.id,
    author: authorShown(c.author),
    content: c.content,
    is_edited: c.is_edited,
    is_deleted: c.is_deleted,
    depth: c.depth,
    reply_count: c.reply_count,
    created_at: c.created_at,
    replies: c.replies.map(commentShown),
  };
}

export function commentsShown(list: { comments: CommentOut[]; total: number }): CommentListShown {
  return { total: list.total, comments: list.comments.map(commentShown) };
}

export function argumentsShown(list: ArgumentList): ArgumentListShown {
  return {
    total: list.total,
    balance: list.balance,
    arguments: list.arguments.map((a) => ({
      id: a.id,
      stance: a.stance,
      claim: { id: a.claim.id, statement: a.claim.statement, consensus: { status: a.claim.consensus.status } },
      relevance: a.relevance,
      impact: a.impact,
      user_relevance: a.user_relevance,
    })),
  };
}
