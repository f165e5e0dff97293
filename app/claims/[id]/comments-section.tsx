"use client";
// The discussion: threaded comments with reply, and edit/delete for one's own
// (comments.list / create / update / delete — the /api/v1 comment procedures).
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { MAX_COMMENT_DEPTH, type CommentOut } from "~/server/api/schemas/comments.ts";
import { AuthorLink, Avatar, RelTime } from "../../_components/bits.tsx";
import { FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";

const PAGE = 50;

interface CommentList {
  comments: CommentOut[];
  total: number;
}

function useRefreshComments(claimId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey({ claim_id: claimId }) });
}

export function CommentsSection({ claimId, initial, viewerId }: { claimId: string; initial: CommentList; viewerId: string | null }) {
  const trpc = useTRPC();
  const [pages, setPages] = useState(1);
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) =>
      trpc.comments.list.queryOptions({ claim_id: claimId, limit: PAGE, offset: i * PAGE }, i === 0 ? { initialData: initial } : {}),
    ),
  });
  const comments = results.flatMap((r) => r.data?.comments ?? []);
  const total = results[0]?.data?.total ?? initial.total;
  const loadingMore = results.some((r) => r.isFetching && !r.data);

  return (
    <section className="card" aria-labelledby="comments-title">
      <h2 id="comments-title" className="card__title">
        Discussion <span className="muted small">{plural(total, "thread")}</span>
      </h2>
      {viewerId ? (
        <CommentForm claimId={claimId} parentId={null} label="Add a comment" submitLabel="Post comment" />
      ) : (
        <p>
          <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claimId}`)}`}>Sign in</Link> to join the discussion.
        </p>
      )}
      {comments.length === 0 ? (
        <p className="muted" style={{ marginTop: "1rem" }}>
          No comments yet.
        </p>
      ) : (
        <ul className="comment-thread" style={{ marginTop: "1.25rem" }}>
          {comments.map((c) => (
            <CommentItem key={c.id} comment={c} claimId={claimId} viewerId={viewerId} />
          ))}
        </ul>
      )}
      {comments.length < total ? (
        <div className="form-actions" style={{ marginTop: "1rem" }}>
          <button type="button" className="button button--secondary" disabled={loadingMore} onClick={() => setPages((p) => p + 1)}>
            {loadingMore ? "Loading…" : "Show more comments"}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function CommentItem({ comment, claimId, viewerId }: { comment: CommentOut; claimId: string; viewerId: string | null }) {
  const trpc = useTRPC();
  const refresh = useRefreshComments(claimId);
  const [mode, setMode] = useState<"view" | "reply" | "edit">("view");
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(
    trpc.comments.delete.mutationOptions({ onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }),
  );
  const isOwn = viewerId !== null && comment.author.id === viewerId && !comment.is_deleted;
  const canReply = viewerId !== null && comment.depth < MAX_COMMENT_DEPTH;

  return (
    <li>
      <article aria-label={`Comment by ${comment.author.display_name}`}>
        <div className="comment__header">
          <Avatar name={comment.author.display_name} size="small" />
          <AuthorLink author={comment.author} />
          <RelTime iso={comment.created_at} />
          {comment.is_edited && !comment.is_deleted ? <span>(edited)</span> : null}
        </div>
        {mode === "edit" ? (
          <CommentForm
            claimId={claimId}
            editing={comment}
            label="Edit your comment"
            submitLabel="Save"
            onDone={() => setMode("view")}
          />
        ) : (
          <p className={`comment__body ${comment.is_deleted ? "comment__body--deleted" : ""}`}>{comment.content}</p>
        )}
        {mode === "view" && (canReply || isOwn) ? (
          <div className="comment__actions">
            {canReply ? (
              <button type="button" className="button button--ghost button--small" onClick={() => setMode("reply")}>
                Reply
              </button>
            ) : null}
            {isOwn ? (
              <>
                <button type="button" className="button button--ghost button--small" onClick={() => setMode("edit")}>
                  Edit
                </button>
                <button
                  type="button"
                  className="button button--ghost button--small"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm("Delete this comment? Replies stay visible.")) remove.mutate({ comment_id: comment.id });
                  }}
                >
                  Delete
                </button>
              </>
            ) : null}
          </div>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        {mode === "reply" ? (
          <CommentForm
            claimId={claimId}
            parentId={comment.id}
            label={`Reply to ${comment.author.display_name}`}
            submitLabel="Post reply"
            onDone={() => setMode("view")}
          />
        ) : null}
      </article>
      {comment.replies.length > 0 ? (
        <ul className="comment-thread">
          {comment.replies.map((r) => (
            <CommentItem key={r.id} comment={r} claimId={claimId} viewerId={viewerId} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function CommentForm({
  claimId,
  parentId = null,
  editing,
  label,
  submitLabel,
  onDone,
}: {
  claimId: string;
  parentId?: string | null;
  editing?: CommentOut;
  label: string;
  submitLabel: string;
  onDone?: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshComments(claimId);
  const id = useId();
  const [content, setContent] = useState(editing?.content ?? "");
  const [error, setError] = useState<ApiError | null>(null);
  const options = {
    onMutate: () => setError(null),
    onSuccess: async () => {
      setContent("");
      await refresh();
      onDone?.();
    },
    onError: (err: unknown) => setError(toApiError(err)),
  };
  const create = useMutation(trpc.comments.create.mutationOptions(options));
  const update = useMutation(trpc.comments.update.mutationOptions(options));
  const pending = create.isPending || update.isPending;

  return (
    <form
      style={{ marginTop: "0.5rem" }}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (editing) update.mutate({ comment_id: editing.id, content });
        else create.mutate({ claim_id: claimId, content, parent_id: parentId });
      }}
    >
      <FormError error={error} fields={["content"]} />
      <div className="field" style={{ marginBottom: "0.5rem" }}>
        <label htmlFor={`${id}-content`}>{label}</label>
        <textarea
          id={`${id}-content`}
          className="textarea"
          style={{ minHeight: 80 }}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          autoFocus={Boolean(onDone)}
          {...invalidProps(error, "content", `${id}-content`)}
        />
        <FieldError error={error} field="content" id={`${id}-content`} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button--small" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
        {onDone ? (
          <button type="button" className="button button--ghost button--small" onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
