"use client";
// How and when the claim is checked against the world (docs/features/checks.md): the criteria, the
// dates, the state, the proposed outcome and its evidence, the dispute and the result — with the form
// the viewer may use now: propose once check_at has passed, dispute a proposal inside its window,
// settle a dispute (moderators), clarify the terms (the author or a moderator).
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState, type ReactNode } from "react";
import type { Check } from "~/server/contract/checks.ts";
import { AuthorLink, RelTime } from "../../_components/bits.tsx";
import { ClientForm } from "../../_components/client-form.tsx";
import { FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useViewer } from "../../_lib/viewer.ts";
import ui from "../../_components/ui.module.css";
import { CheckCountdown } from "./check-countdown.tsx";

const STATE_WORDS: Record<Check["state"], string> = {
  open: "Open: votes cast now are scored against the outcome",
  closed: "Closed: votes still count for the consensus but are no longer scored",
  awaiting_outcome: "Awaiting an outcome: anyone with standing may propose it",
  proposed: "Outcome proposed: it may be disputed until the window ends",
  disputed: "Disputed: a moderator will settle it",
  final: "Final",
};

const OUTCOME_WORDS: Record<NonNullable<Check["outcome"]>, string> = {
  true: "True",
  false: "False",
  ambiguous: "Ambiguous (not scored)",
  annulled: "Annulled (not scored)",
};

function Field({ id, label, error, field, children }: { id: string; label: string; error: ApiError | null; field: string; children: ReactNode }) {
  return (
    <div className={ui.field} style={{ marginBottom: "0.5rem" }}>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldError error={error} field={field} id={id} />
    </div>
  );
}

/** One form of the section: its fields, sent as `send` says; the check it answers replaces the shown one. */
function OutcomeForm({ title, fields, submit, onDone, send }: {
  title: string;
  fields: ("outcome" | "evidence_url" | "note" | "reason" | "text")[];
  submit: string;
  onDone: (check: Check) => void;
  send: (values: Record<string, string>) => Promise<Check>;
}) {
  const base = useId();
  const [values, setValues] = useState<Record<string, string>>({ outcome: "true" });
  const [error, setError] = useState<ApiError | null>(null);
  const mutation = useMutation({ mutationFn: send, onSuccess: (check) => (setError(null), onDone(check)), onError: (e) => setError(toApiError(e)) });
  const input = (field: string, label: string, type = "text") => (
    <Field id={`${base}-${field}`} label={label} error={error} field={field} key={field}>
      <input
        id={`${base}-${field}`}
        className={ui.input}
        type={type}
        value={values[field] ?? ""}
        onChange={(e) => setValues({ ...values, [field]: e.target.value })}
        {...invalidProps(error, field, `${base}-${field}`)}
      />
    </Field>
  );
  return (
    <ClientForm
      noValidate
      aria-label={title}
      style={{ marginTop: "0.75rem" }}
      onSubmit={(e) => {
        e.preventDefault();
        mutation.mutate(values);
      }}
    >
      <h3 style={{ fontSize: "1rem", margin: "0 0 0.5rem" }}>{title}</h3>
      <FormError error={error} fields={fields} />
      {fields.map((field) =>
        field === "outcome" ? (
          <Field id={`${base}-outcome`} label="Outcome" error={error} field="outcome" key={field}>
            <select id={`${base}-outcome`} className={ui.input} value={values.outcome} onChange={(e) => setValues({ ...values, outcome: e.target.value })}>
              {Object.entries(OUTCOME_WORDS).map(([value, words]) => (
                <option value={value} key={value}>
                  {words}
                </option>
              ))}
            </select>
          </Field>
        ) : field === "evidence_url" ? (
          input(field, "Evidence (a link)", "url")
        ) : (
          input(field, field === "note" ? "Note" : field === "reason" ? "Reason" : "Clarification")
        ),
      )}
      <button type="submit" className={`${ui.button} ${ui["button--small"]}`} disabled={mutation.isPending}>
        {submit}
      </button>
    </ClientForm>
  );
}

/**
 * The state as of `now`: the page is kept between renders (docs/features/page-cache.md) and no event
 * announces time passing, so an open or closed check moves on by its dates in the browser.
 */
function stateAt(check: Check, now: number | null): Check["state"] {
  if (now === null || (check.state !== "open" && check.state !== "closed")) return check.state;
  if (now >= Date.parse(check.check_at)) return "awaiting_outcome";
  if (now >= Date.parse(check.close_at)) return "closed";
  return check.state;
}

/** The time, read after hydration and again at the check's next date (null while hydrating: the server's state). */
function useNowAcross(check: Check): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const current = Date.now();
    if (now === null) setNow(current);
    const next = [Date.parse(check.close_at), Date.parse(check.check_at)].find((t) => t > current);
    if (next === undefined) return;
    // At most ~24 days ahead (setTimeout's range); a page left open longer reads it on the next load.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(next - current + 250, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [check.close_at, check.check_at, now]);
  return now;
}

/** The check's next date in its state, for the countdown: what comes then, and what to say once it has. */
function nextDate(check: Check, state: Check["state"]): { label: string; at: string; reached: string } | null {
  if (state === "open") {
    return Date.parse(check.close_at) === Date.parse(check.check_at)
      ? { label: "Scoring closes and the outcome may be proposed", at: check.close_at, reached: "Scoring has closed: the outcome may now be proposed." }
      : { label: "Scoring closes", at: check.close_at, reached: "Scoring has closed." };
  }
  if (state === "closed") return { label: "The outcome may be proposed", at: check.check_at, reached: "The outcome may now be proposed." };
  if (state === "proposed" && check.proposal) {
    return { label: "Final unless disputed", at: check.proposal.dispute_deadline, reached: "The dispute window has ended: the outcome becomes final shortly." };
  }
  return null;
}

export function CheckSection({ claimId, authorId, initial }: { claimId: string; authorId: string; initial: Check }) {
  const trpc = useTRPC();
  const viewer = useViewer();
  // The kept page may be older than the check (docs/features/page-cache.md): the claim as read after
  // hydration (the same query the claim's live part makes) replaces it, and this viewer's own step
  // replaces both.
  const { data: fresh } = useQuery(trpc.claims.get.queryOptions({ claim_id: claimId }));
  const [own, setCheck] = useState<Check | null>(null);
  const check = own ?? fresh?.check ?? initial;
  const propose = useMutation(trpc.checks.propose.mutationOptions());
  const dispute = useMutation(trpc.checks.dispute.mutationOptions());
  const settle = useMutation(trpc.checks.settle.mutationOptions());
  const clarify = useMutation(trpc.checks.clarify.mutationOptions());
  const me = viewer.status === "signed-in" ? viewer.viewer : null;
  const moderator = me !== null && (me.role === "moderator" || me.role === "admin");
  const titleId = useId();
  const state = stateAt(check, useNowAcross(check));
  const next = nextDate(check, state);
  return (
    <section className={ui.card} aria-labelledby={titleId} data-testid="check-section">
      <h2 id={titleId} className={ui.card__title}>
        How this will be checked
      </h2>
      {/* A status: said when the check moves on (by its dates, or another's step arriving live). */}
      <p data-testid="check-state" role="status">
        <strong>{state === "final" && check.outcome ? `Outcome: ${OUTCOME_WORDS[check.outcome]}` : STATE_WORDS[state]}</strong>
      </p>
      {next ? (
        <p className={ui.note}>
          <CheckCountdown key={next.at} {...next} />
        </p>
      ) : null}
      <p>{check.criteria}</p>
      {check.fine_print ? <p className={ui.note}>{check.fine_print}</p> : null}
      {check.assumptions.length ? (
        <ul className={ui.note}>
          {check.assumptions.map((a) => (
            <li key={a}>Assuming {a}</li>
          ))}
        </ul>
      ) : null}
      <dl className={ui.note}>
        <dt>Votes scored until</dt>
        <dd>
          <RelTime iso={check.close_at} />
        </dd>
        <dt>Checked</dt>
        <dd>
          <RelTime iso={check.check_at} />
        </dd>
        {check.source_url ? (
          <>
            <dt>Source</dt>
            <dd>
              <a href={check.source_url} rel="nofollow noopener noreferrer ugc" target="_blank">
                {check.source_url}
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      {check.clarifications.length ? (
        <div>
          <h3 style={{ fontSize: "1rem" }}>Clarifications</h3>
          <ul>
            {check.clarifications.map((c, i) => (
              <li key={`${c.at}-${i}`}>
                {c.text} — <AuthorLink author={c.by} />, <RelTime iso={c.at} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {check.proposal ? (
        <p data-testid="check-proposal">
          <AuthorLink author={check.proposal.by} /> proposed <strong>{OUTCOME_WORDS[check.proposal.outcome]}</strong> (<RelTime iso={check.proposal.at} />): {check.proposal.note}{" "}
          <a href={check.proposal.evidence_url} rel="nofollow noopener noreferrer ugc" target="_blank">
            evidence
          </a>
          {state === "proposed" ? (
            <>
              {" "}
              — final unless disputed <RelTime iso={check.proposal.dispute_deadline} />
            </>
          ) : null}
        </p>
      ) : null}
      {check.dispute ? (
        <p data-testid="check-dispute">
          <AuthorLink author={check.dispute.by} /> disputed it (<RelTime iso={check.dispute.at} />): {check.dispute.reason}{" "}
          <a href={check.dispute.evidence_url} rel="nofollow noopener noreferrer ugc" target="_blank">
            evidence
          </a>
        </p>
      ) : null}
      {me && state === "awaiting_outcome" ? (
        <OutcomeForm
          title="Propose the outcome"
          fields={["outcome", "evidence_url", "note"]}
          submit="Propose (stakes reputation)"
          onDone={setCheck}
          send={(v) => propose.mutateAsync({ claim_id: claimId, outcome: v.outcome as NonNullable<Check["outcome"]>, evidence_url: v.evidence_url ?? "", note: v.note ?? "" })}
        />
      ) : null}
      {me && state === "proposed" && check.proposal?.by.id !== me.id ? (
        <OutcomeForm
          title="Dispute the proposed outcome"
          fields={["reason", "evidence_url"]}
          submit="Dispute (stakes reputation)"
          onDone={setCheck}
          send={(v) => dispute.mutateAsync({ claim_id: claimId, reason: v.reason ?? "", evidence_url: v.evidence_url ?? "" })}
        />
      ) : null}
      {moderator && state === "disputed" ? (
        <OutcomeForm
          title="Settle the dispute"
          fields={["outcome", "reason"]}
          submit="Settle"
          onDone={setCheck}
          send={(v) => settle.mutateAsync({ claim_id: claimId, outcome: v.outcome as NonNullable<Check["outcome"]>, reason: v.reason ?? "" })}
        />
      ) : null}
      {me && (me.id === authorId || moderator) ? (
        <OutcomeForm title="Clarify the terms" fields={["text"]} submit="Add clarification" onDone={setCheck} send={(v) => clarify.mutateAsync({ claim_id: claimId, text: v.text ?? "" })} />
      ) : null}
    </section>
  );
}
