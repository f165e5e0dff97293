"use client";
// The discussion: threaded comments with reply, and edit/delete for one's own
// (comments.list / create / update / delete — the /api/v1 comment procedures).
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useId, useState } from "react";
import { MAX_COMMENT_DEPTH } from "~/server/domain/comments.ts";
import { AuthorLink, Avatar, RelTime } from "../../_components/bits.tsx";
import { ReportButton } from "../../_components/report-button.tsx";
import { FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import type { CommentListShown, CommentShown } from "./shown.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

const PAGE = 50;

function useRefreshComments(claimId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey({ claim_id: claimId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.comments.replies.pathKey() }),
    ]);
}

const REPLY_PAGE = 20;

/**
 * A thread embeds only a comment's first replies (reply_count says how many there are); the rest is
 * fetched a page at a time from comments.replies (GET /claims/{claim_id}/comments/{comment_id}/replies).
 */
function MoreReplies({ comment, claimId, viewerId }: { comment: CommentShown; claimId: string; viewerId: string | null }) {
  const trpc = useTRPC();
  const [pages, setPages] = useState(0);
  const embedded = comment.replies.length;
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) =>
      trpc.comments.replies.queryOptions({ claim_id: claimId, comment_id: comment.id, limit: REPLY_PAGE, offset: embedded + i * REPLY_PAGE }),
    ),
  });
  const more = results.flatMap((r) => r.data?.replies ?? []);
  const total = results[0]?.data?.total ?? comment.reply_count;
  const remaining = total - embedded - more.length;
  const loading = results.some((r) => r.isFetching && !r.data);
  return (
    <>
      {more.length > 0 ? (
        <ul className="comment-thread">
          {more.map((r) => (
            <CommentItem key={r.id} comment={r} claimId={claimId} viewerId={viewerId} />
          ))}
        </ul>
      ) : null}
      {remaining > 0 ? (
        <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} disabled={loading} onClick={() => setPages((p) => p + 1)}>
          {loading ? "Loading…" : `Show ${plural(remaining, "more reply", "more replies")}`}
        </button>
      ) : null}
    </>
  );
}

export function CommentsSection({ claimId, initial }: { claimId: string; initial: CommentListShown }) {
  const trpc = useTRPC();
  const [pages, setPages] = useState(1);
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) => trpc.comments.list.queryOptions({ claim_id: claimId, limit: PAGE, offset: i * PAGE })),
  });
  // The server's render (cut to what is shown: shown.ts) until the first page answers (it may be a
  // shared copy a few seconds old).
  const first: CommentListShown = results[0]?.data ?? initial;
  const { status, viewer } = useViewer();
  const viewerId = viewer?.id ?? null;
  const comments: CommentShown[] = [...first.comments, ...results.slice(1).flatMap((r) => r.data?.comments ?? [])];
  const total = first.total;
  const loadingMore = results.some((r) => r.isFetching && !r.data);

  return (
    <section className={ui.card} aria-labelledby="comments-title">
      <h2 id="comments-title" className={ui.card__title}>
        Discussion <span className={ui.note}>{plural(total, "thread")}</span>
      </h2>
      {status === "unknown" ? null : viewerId ? (
        <CommentForm claimId={claimId} parentId={null} label="Add a comment" submitLabel="Post comment" />
      ) : (
        <p>
          <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claimId}`)}`}>Sign in</Link> to join the discussion.
        </p>
      )}
      {comments.length === 0 ? (
        <p className={ui.muted} style={{ marginTop: "1rem" }}>
          No comments yet.
        </p>
      ) : (
        <ul className={claimStyles["comment-thread"]} style={{ marginTop: "1.25rem" }}>
          {comments.map((c) => (
            <CommentItem key={c.id} comment={c} claimId={claimId} viewerId={viewerId} />
          ))}
        </ul>
      )}
      {comments.length < total ? (
        <div className={ui["form-actions"]} style={{ marginTop: "1rem" }}>
          <button type="button" className={`${ui.button} ${ui["button--secondary"]}`} disabled={loadingMore} onClick={() => setPages((p) => p + 1)}>
            {loadingMore ? "Loading…" : "Show more comments"}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function CommentItem({ comment, claimId, viewerId }: { comment: CommentShown; claimId: string; viewerId: string | null }) {
  const trpc = useTRPC();
  const refresh = useRefreshComments(claimId);
  const [mode, setMode] = useState<"view" | "reply" | "edit">("view");
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(
    trpc.comments.delete.mutationOptions({ onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }),
  );
  const isOwn = viewerId !== null && comment.author.id === viewerId && !comment.is_deleted;
  const canReply = viewerId !== null && comment.depth < MAX_COMMENT_DEPTH;
  // Someone else's comment that still has content (a deleted one has nothing left to report).
  const canReport = viewerId !== null && comment.author.id !== viewerId && !comment.is_deleted;

  return (
    <li>
      <article aria-label={`Comment by ${comment.author.display_name}`}>
        <div className={claimStyles.comment__header}>
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
          <p className={`${claimStyles.comment__body} ${comment.is_deleted ? claimStyles["comment__body--deleted"] : ""}`}>{comment.content}</p>
        )}
        {mode === "view" && (canReply || isOwn || canReport) ? (
          <div className={claimStyles.comment__actions}>
            {canReply ? (
              <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setMode("reply")}>
                Reply
              </button>
            ) : null}
            {isOwn ? (
              <>
                <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={() => setMode("edit")}>
                  Edit
                </button>
                <button
                  type="button"
                  className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm("Delete this comment? Replies stay visible.")) remove.mutate({ comment_id: comment.id });
                  }}
                >
                  Delete
                </button>
              </>
            ) : null}
            {canReport ? <ReportButton targetType="comment" targetId={comment.id} /> : null}
          </div>
        ) : null}
        {error ? (
          <p className={ui["field-error"]} role="alert">
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
        <ul className={claimStyles["comment-thread"]}>
          {comment.replies.map((r) => (
            <CommentItem key={r.id} comment={r} claimId={claimId} viewerId={viewerId} />
          ))}
        </ul>
      ) : null}
      {comment.reply_count > comment.replies.length ? <MoreReplies comment={comment} claimId={claimId} viewerId={viewerId} /> : null}
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
  editing?: CommentShown;
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
    <ClientForm
      style={{ marginTop: "0.5rem" }}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (editing) update.mutate({ comment_id: editing.id, content });
        else create.mutate({ claim_id: claimId, content, parent_id: parentId });
      }}
    >
      <FormError error={error} fields={["content"]} />
      <div className={ui.field} style={{ marginBottom: "0.5rem" }}>
        <label htmlFor={`${id}-content`}>{label}</label>
        <textarea
          id={`${id}-content`}
          className={ui.textarea}
          style={{ minHeight: 80 }}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          autoFocus={Boolean(onDone)}
          {...invalidProps(error, "content", `${id}-content`)}
        />
        <FieldError error={error} field="content" id={`${id}-content`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={`${ui.button} ${ui["button--small"]}`} disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
        {onDone ? (
          <button type="button" className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`} onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </ClientForm>
  );
}
