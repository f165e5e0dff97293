"use client";
// Evidence for and against the claim, grouped by position, with up/down votes and a form to add more
// (evidence.list / evidence.create / evidence.vote / evidence.unvote — the /api/v1 evidence procedures).
import { useMutation, useQueries, useQueryClient } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useId, useState } from "react";
import { CONTENT_TYPES, EXCERPT_MAX, POSITIONS, TITLE_MAX } from "~/server/domain/evidence.ts";
import { AuthorLink, RelTime } from "../../_components/bits.tsx";
import { ReportButton } from "../../_components/report-button.tsx";
import { FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { plural } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import type { EvidenceListShown, EvidenceShown } from "./shown.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

const PAGE = 50;
const firstPageInput = (claimId: string) => ({ claim_id: claimId, limit: PAGE, offset: 0 });

const POSITION_LABELS: Record<(typeof POSITIONS)[number], { title: string; badge: string }> = {
  supports: { title: "Supports", badge: "badge--true" },
  opposes: { title: "Opposes", badge: "badge--false" },
  neutral: { title: "Neutral", badge: "badge--neutral" },
};

const CONTENT_TYPE_LABELS: Record<(typeof CONTENT_TYPES)[number], string> = {
  text: "Text",
  link: "Link",
  file: "File reference",
  code: "Code",
  data: "Data",
};

export function EvidenceSection({ claimId, initial }: { claimId: string; initial: EvidenceListShown }) {
  const trpc = useTRPC();
  const [pages, setPages] = useState(1);
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) => trpc.evidence.list.queryOptions({ ...firstPageInput(claimId), offset: i * PAGE })),
  });
  // The server's render (the same for everyone, cut to what is shown: shown.ts) until the first page
  // answers for this viewer.
  const first: EvidenceListShown = results[0]?.data ?? initial;
  const { status, viewer } = useViewer();
  // A signed-in viewer's own votes on the evidence arrive with that answer: until then, no buttons.
  const settled = status !== "unknown" && !(viewer && !results[0]?.data);
  const viewerId = settled && viewer ? viewer.id : null;
  const evidence: EvidenceShown[] = [...first.evidence, ...results.slice(1).flatMap((r) => r.data?.evidence ?? [])];
  const total = first.total;
  const loadingMore = results.some((r) => r.isFetching && !r.data);

  return (
    <section className={ui.card} aria-labelledby="evidence-title">
      <h2 id="evidence-title" className={ui.card__title}>
        Evidence <span className={ui.note}>{plural(total, "piece", "pieces")}</span>
      </h2>
      {total === 0 ? (
        <p className={ui.muted}>No evidence yet. Sources, data and arguments help everyone judge this claim.</p>
      ) : (
        <div className={claimStyles["evidence-columns"]}>
          {POSITIONS.map((position) => {
            const group = evidence.filter((e) => e.position === position);
            return (
              <section key={position} className={claimStyles["evidence-group"]} aria-labelledby={`evidence-${position}`}>
                <h3 id={`evidence-${position}`}>
                  <span className={`${ui.badge} ${ui[POSITION_LABELS[position].badge]}`}>{POSITION_LABELS[position].title}</span>
                  <span className={ui.note}>{group.length}</span>
                </h3>
                {group.length === 0 ? (
                  <p className={ui.note}>Nothing here yet.</p>
                ) : (
                  <ul className={claimStyles["evidence-list"]}>
                    {group.map((item) => (
                      <li key={item.id}>
                        <EvidenceItem item={item} claimId={claimId} viewerId={viewerId} />
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}
      {evidence.length < total ? (
        <div className={ui["form-actions"]} style={{ marginTop: "1rem" }}>
          <button type="button" className={`${ui.button} ${ui["button--secondary"]}`} disabled={loadingMore} onClick={() => setPages((p) => p + 1)}>
            {loadingMore ? "Loading…" : `Show more evidence (${total - evidence.length} left)`}
          </button>
        </div>
      ) : null}
      <hr className={ui.divider} />
      {!settled ? null : viewerId ? (
        <AddEvidenceForm claimId={claimId} initial={first} />
      ) : (
        <p>
          <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claimId}`)}`}>Sign in</Link> to add evidence or vote on it.
        </p>
      )}
    </section>
  );
}

function EvidenceContent({ item }: { item: EvidenceShown }) {
  if (item.content_type === "link") {
    return (
      <>
        {item.title ? <strong className={claimStyles["evidence-item__title"]}>{item.title}</strong> : null}
        <a href={item.content} rel="nofollow ugc noopener noreferrer" target="_blank" className={item.title ? ui.small : undefined}>
          {item.content}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </>
    );
  }
  const body = item.content_type === "code" || item.content_type === "data" ? <pre>{item.content}</pre> : <>{item.content}</>;
  return item.title ? (
    <>
      <strong className={claimStyles["evidence-item__title"]}>{item.title}</strong>
      {body}
    </>
  ) : (
    body
  );
}

function EvidenceItem({ item, claimId, viewerId }: { item: EvidenceShown; claimId: string; viewerId: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.evidence.list.queryKey({ claim_id: claimId }) });
  const vote = useMutation(trpc.evidence.vote.mutationOptions({ onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }));
  const unvote = useMutation(trpc.evidence.unvote.mutationOptions({ onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }));
  const pending = vote.isPending || unvote.isPending;
  const isOwn = viewerId !== null && viewerId === item.author.id;

  const press = (direction: "up" | "down") => {
    setError(null);
    if (item.user_vote === direction) unvote.mutate({ evidence_id: item.id });
    else vote.mutate({ evidence_id: item.id, direction });
  };

  return (
    <article aria-label={`${CONTENT_TYPE_LABELS[item.content_type]} evidence by ${item.author.display_name}`}>
      <div>
        <EvidenceContent item={item} />
        {item.excerpt ? (
          <blockquote className={claimStyles["evidence-item__excerpt"]} data-testid="evidence-excerpt">
            {item.excerpt}
          </blockquote>
        ) : null}
      </div>
      <div>
        <span>
          <AuthorLink author={item.author} /> · <RelTime iso={item.created_at} />
          {item.content_type !== "text" && item.content_type !== "link" ? ` · ${CONTENT_TYPE_LABELS[item.content_type]}` : ""}
        </span>
        {/* Each number says what it counts (docs/features/friction.md): helpful, not helpful, net. The
            item's parts are styled by their place in it (claim.module.css), not by a class each. */}
        <span role="group" aria-label="Is this evidence helpful?">
          {viewerId && !isOwn ? (
            <button
              type="button"
              className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
              aria-pressed={item.user_vote === "up"}
              disabled={pending}
              onClick={() => press("up")}
            >
              <span aria-hidden="true">▲</span>{` Helpful ${item.upvotes}`}
            </button>
          ) : (
            <span>
              <span aria-hidden="true">▲</span>{` Helpful ${item.upvotes}`}
            </span>
          )}
          {viewerId && !isOwn ? (
            <button
              type="button"
              className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
              aria-pressed={item.user_vote === "down"}
              disabled={pending}
              onClick={() => press("down")}
            >
              <span aria-hidden="true">▼</span>{` Not helpful ${item.downvotes}`}
            </button>
          ) : (
            <span>
              <span aria-hidden="true">▼</span>{` Not helpful ${item.downvotes}`}
            </span>
          )}
          <span title="Helpful minus not helpful" data-testid="evidence-net">
            {"Net "}
            <strong data-testid="evidence-score">
              {item.vote_score}
            </strong>
          </span>
        </span>
        {viewerId && !isOwn ? <ReportButton targetType="evidence" targetId={item.id} /> : null}
      </div>
      {error ? (
        <p className={ui["field-error"]} role="alert">
          {error}
        </p>
      ) : null}
    </article>
  );
}

const EVIDENCE_FIELDS = ["position", "content_type", "content", "title", "excerpt"] as const;

function AddEvidenceForm({ claimId, initial }: { claimId: string; initial: EvidenceListShown }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [position, setPosition] = useState<(typeof POSITIONS)[number]>("supports");
  const [contentType, setContentType] = useState<(typeof CONTENT_TYPES)[number]>("text");
  const [content, setContent] = useState("");
  const [title, setTitle] = useState("");
  const [excerpt, setExcerpt] = useState("");
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState("");

  const create = useMutation(
    trpc.evidence.create.mutationOptions({
      onMutate: () => {
        setError(null);
        setStatus("");
      },
      onSuccess: (created) => {
        setContent("");
        setTitle("");
        setExcerpt("");
        setStatus("Evidence added. Thank you!");
        // The answer is the new item: it goes into the list and the header's count at once, in the same
        // render as the thank-you (docs/features/page-cache.md#what-you-post-shows-at-once). The refetches that follow
        // bring the server's order and anyone else's news; nothing waits for them.
        queryClient.setQueryData(trpc.evidence.list.queryKey(firstPageInput(claimId)), (old) => {
          // Before the browser's first answer, the server's render (the fields the list shows) is the base.
          const base = old ?? (initial as unknown as NonNullable<typeof old>);
          if (base.evidence.some((e) => e.id === created.id)) return old;
          return { ...base, evidence: [created, ...base.evidence], total: base.total + 1 };
        });
        queryClient.setQueryData(trpc.claims.get.queryKey({ claim_id: claimId }), (old) =>
          old ? { ...old, evidence_count: old.evidence_count + 1 } : old,
        );
        void queryClient.invalidateQueries({ queryKey: trpc.evidence.list.queryKey({ claim_id: claimId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.claims.get.queryKey({ claim_id: claimId }) });
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );

  return (
    <ClientForm
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ claim_id: claimId, position, content_type: contentType, content, title, excerpt });
      }}
      noValidate
    >
      <h3 id={`${id}-title`}>Add evidence</h3>
      <FormError error={error} fields={EVIDENCE_FIELDS} />
      <fieldset className={ui.field}>
        <legend>Position</legend>
        <div className={ui.row} style={{ gap: "1rem" }}>
          {POSITIONS.map((p) => (
            <label key={p} className={ui.row} style={{ gap: "0.35rem", fontWeight: 500 }}>
              <input type="radio" name={`${id}-position`} value={p} checked={position === p} onChange={() => setPosition(p)} />
              {POSITION_LABELS[p].title}
            </label>
          ))}
        </div>
        <FieldError error={error} field="position" id={`${id}-position`} />
      </fieldset>
      <div className={ui.field}>
        <label htmlFor={`${id}-type`}>Kind of evidence</label>
        <select
          id={`${id}-type`}
          className={ui.select}
          value={contentType}
          onChange={(e) => setContentType(e.target.value as (typeof CONTENT_TYPES)[number])}
          {...invalidProps(error, "content_type", `${id}-type`)}
        >
          {CONTENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {CONTENT_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        <FieldError error={error} field="content_type" id={`${id}-type`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-content`}>{contentType === "link" ? "Link (http or https)" : "Evidence"}</label>
        {contentType === "link" ? (
          <input
            id={`${id}-content`}
            className={ui.input}
            type="url"
            inputMode="url"
            placeholder="https://example.org/study"
            value={content}
            onChange={(e) => setContent(e.target.value)}
            {...invalidProps(error, "content", `${id}-content`)}
          />
        ) : (
          <textarea
            id={`${id}-content`}
            className={ui.textarea}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            placeholder="A source, a measurement, an argument…"
            {...invalidProps(error, "content", `${id}-content`)}
          />
        )}
        <FieldError error={error} field="content" id={`${id}-content`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-evtitle`}>{contentType === "link" ? "Title of the page" : "Title"} (optional)</label>
        <input
          id={`${id}-evtitle`}
          className={ui.input}
          maxLength={TITLE_MAX}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder={contentType === "link" ? "e.g. Coffee and attention: a randomised trial" : ""}
          {...invalidProps(error, "title", `${id}-evtitle`)}
        />
        <FieldError error={error} field="title" id={`${id}-evtitle`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-excerpt`}>Quote or why it matters (optional)</label>
        <textarea
          id={`${id}-excerpt`}
          className={ui.textarea}
          rows={3}
          maxLength={EXCERPT_MAX}
          value={excerpt}
          onChange={(e) => setExcerpt(e.target.value)}
          placeholder="The passage that bears on the claim, or a sentence on why it counts"
          {...invalidProps(error, "excerpt", `${id}-excerpt`)}
        />
        <span className={ui.hint}>Up to {EXCERPT_MAX.toLocaleString("en-US")} characters · {excerpt.length} so far</span>
        <FieldError error={error} field="excerpt" id={`${id}-excerpt`} />
      </div>
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add evidence"}
        </button>
        <span className={ui["form-success"]} role="status">
          {status}
        </span>
      </div>
    </ClientForm>
  );
}
