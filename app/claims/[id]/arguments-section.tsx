"use client";
// The claim's arguments as a tree (docs/features/arguments.md): supports and opposes ordered by impact,
// each child with its own consensus and a relevance control, expandable one level at a time (a tRPC
// query per level, no page load), and a form that writes a new claim as an argument or links an
// existing one found as the person types. The server renders the first level the same for everyone;
// the viewer's own relevance votes arrive with the browser's query.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import type { Stance } from "~/server/contract/arguments.ts";
import { balanceWords, RELEVANCE_WORDS, relevanceWords, weightWords } from "~/server/domain/argument-words.ts";
import type { Claim } from "~/server/contract/claims.ts";
import { FormError } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { useSimilarClaims } from "../../_lib/use-similar-claims.ts";
import { useViewer } from "../../_lib/viewer.ts";
import type { ArgumentListShown, ArgumentShown } from "./shown.ts";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

const PAGE = 50;
const levelInput = (claimId: string) => ({ claim_id: claimId, sort_by: "impact" as const, limit: PAGE });
const STANCES: { stance: Stance; title: string; badge: string }[] = [
  { stance: "supports", title: "Supports", badge: "badge--true" },
  { stance: "opposes", title: "Opposes", badge: "badge--false" },
];
const CONSENSUS_WORDS: Record<Claim["consensus"]["status"], string> = {
  no_votes: "No votes yet",
  too_few_votes: "Too few votes to call",
  consensus_true: "Consensus: true",
  consensus_false: "Consensus: false",
  divided: "Divided",
  open: "Open",
};
/** The relevance control's steps: a select works with a keyboard and on a phone alike. */
const RELEVANCE_STEPS: { value: number; label: string }[] = RELEVANCE_WORDS.map((s) => ({ value: s.value, label: s.words }));

/** What the balance rests on: the arguments for and against in the list, and how many carry a weight. */
function balanceSample(data: ArgumentListShown) {
  return {
    balance: data.balance,
    supports: data.arguments.filter((a) => a.stance === "supports").length,
    opposes: data.arguments.filter((a) => a.stance === "opposes").length,
    weighed: data.arguments.filter((a) => a.impact !== null).length,
  };
}

export function ArgumentsSection({ claimId, initial }: { claimId: string; initial: ArgumentListShown }) {
  const { status, viewer } = useViewer();
  return (
    <section className={ui.card} aria-labelledby="arguments-title" id="arguments">
      <h2 id="arguments-title" className={ui.card__title}>
        Arguments
      </h2>
      <ArguesIn claimId={claimId} />
      <ArgumentLevel claimId={claimId} initial={initial} depth={0} />
      <hr className={ui.divider} />
      {status === "unknown" ? null : viewer ? (
        <AddArgumentForm claimId={claimId} initial={initial} />
      ) : (
        <p>
          <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claimId}`)}`}>Sign in</Link> to add an argument or rate how much one matters.
        </p>
      )}
    </section>
  );
}

/**
 * The way back: the claims this one stands under as an argument, for or against each
 * (arguments.argues). Nothing when it argues nowhere.
 */
function ArguesIn({ claimId }: { claimId: string }) {
  const trpc = useTRPC();
  const uses = useQuery(trpc.arguments.argues.queryOptions({ claim_id: claimId, limit: 20 }));
  const data = uses.data;
  if (!data || data.total === 0) return null;
  return (
    <section aria-labelledby={`argues-${claimId}`} data-testid="argues-in" style={{ marginBottom: "0.75rem" }}>
      <h3 id={`argues-${claimId}`} className={ui.small} style={{ margin: "0 0 0.25rem" }}>
        This claim is an argument in {data.total === 1 ? "another claim" : `${data.total} other claims`}
      </h3>
      <ul className={ui["compact-list"]}>
        {data.uses.map((u) => (
          <li key={u.id}>
            <span className={`${ui.badge} ${ui[u.stance === "supports" ? "badge--true" : "badge--false"]}`}>
              {u.stance === "supports" ? "For" : "Against"}
            </span>{" "}
            <Link href={`/claims/${u.claim.id}#arguments`} style={{ overflowWrap: "anywhere" }}>
              {u.claim.statement}
            </Link>
          </li>
        ))}
      </ul>
      {data.total > data.uses.length ? <p className={ui.note}>And {data.total - data.uses.length} more.</p> : null}
    </section>
  );
}

/** One level of the tree: the arguments under `claimId`, supports and opposes apart, by impact. */
function ArgumentLevel({ claimId, initial, depth }: { claimId: string; initial?: ArgumentListShown; depth: number }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.arguments.list.queryOptions(levelInput(claimId)));
  const { status, viewer } = useViewer();
  // The viewer's own votes come with the browser's answer: until then (the page's first level, cut to
  // what is shown: shown.ts), no control to vote with.
  const canVote = status !== "unknown" && Boolean(viewer) && list.data !== undefined;
  const data: ArgumentListShown | undefined = list.data ?? initial;
  if (!data) return <p className={ui.note}>Loading arguments…</p>;
  if (data.total === 0) {
    return <p className={ui.note}>{depth === 0 ? "No arguments yet. Add a reason for or against this claim." : "Nothing under this argument yet."}</p>;
  }
  return (
    <div data-testid={`arguments-${claimId}`}>
      {depth === 0 ? (
        <p className={ui.small} data-testid="arguments-balance">
          <strong>{balanceWords(balanceSample(data))}</strong> <span className={ui.muted}>This does not change the claim&apos;s own gauge.</span>
        </p>
      ) : null}
      {STANCES.map(({ stance, title, badge }) => {
        const group = data.arguments.filter((a) => a.stance === stance);
        if (group.length === 0) return null;
        return (
          <section key={stance} aria-label={`${title} (${group.length})`} style={{ marginTop: "0.75rem" }}>
            <h3 className={ui.small} style={{ margin: "0 0 0.25rem" }}>
              <span className={`${ui.badge} ${ui[badge]}`}>{title}</span>
            </h3>
            <ol className={ui["compact-list"]} data-testid={`arguments-${stance}-${claimId}`}>
              {group.map((a) => (
                <li key={a.id}>
                  <ArgumentItem argument={a} parentId={claimId} depth={depth} canVote={canVote} />
                </li>
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}

function ArgumentItem({ argument, parentId, depth, canVote }: { argument: ArgumentShown; parentId: string; depth: number; canVote: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.arguments.list.queryKey({ claim_id: parentId }) });
  const vote = useMutation(
    trpc.arguments.voteRelevance.mutationOptions({ onMutate: () => setError(null), onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }),
  );
  const remove = useMutation(
    trpc.arguments.removeRelevance.mutationOptions({ onMutate: () => setError(null), onSuccess: refresh, onError: (e) => setError(toApiError(e).detail) }),
  );
  const child = argument.claim;
  return (
    <div data-testid="argument" data-argument-id={argument.id}>
      <Link href={`/claims/${child.id}`} style={{ overflowWrap: "anywhere" }}>
        {child.statement}
      </Link>
      <div className={ui.meta}>
        <span>{CONSENSUS_WORDS[child.consensus.status]}</span>
        <span data-testid="argument-relevance">{relevanceWords(argument.relevance)}</span>
        <span data-testid="argument-impact" title="How true it is judged, times how much it bears on this claim">
          {weightWords(argument.impact)}
        </span>
      </div>
      <div className={ui.row} style={{ gap: "0.5rem", marginTop: "0.25rem" }}>
        {canVote ? (
          <>
            <label htmlFor={`${id}-relevance`} className={ui.small}>
              How much does it bear on the claim?
            </label>
            <select
              id={`${id}-relevance`}
              className={ui.select}
              style={{ width: "auto" }}
              value={argument.user_relevance === null ? "" : String(argument.user_relevance)}
              disabled={vote.isPending || remove.isPending}
              onChange={(e) =>
                e.target.value === ""
                  ? remove.mutate({ argument_id: argument.id })
                  : vote.mutate({ argument_id: argument.id, value: Number(e.target.value) })
              }
            >
              <option value="">{argument.user_relevance === null ? "Rate relevance…" : "Remove my rating"}</option>
              {RELEVANCE_STEPS.map((s) => (
                <option key={s.value} value={String(s.value)}>
                  {s.label}
                </option>
              ))}
            </select>
          </>
        ) : null}
        {depth < 3 ? (
          <button
            type="button"
            className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
            aria-expanded={open}
            aria-controls={`${id}-children`}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide the arguments under it" : "Show the arguments under it"}
          </button>
        ) : (
          <Link className={ui.small} href={`/claims/${child.id}#arguments`}>
            Open its arguments
          </Link>
        )}
      </div>
      {error ? (
        <p role="alert" className={ui.small}>
          {error}
        </p>
      ) : null}
      {open ? (
        <div id={`${id}-children`} style={{ marginLeft: "1rem", borderLeft: "2px solid var(--border)", paddingLeft: "0.75rem" }}>
          <ArgumentLevel claimId={child.id} depth={depth + 1} />
        </div>
      ) : null}
    </div>
  );
}

/** "Add an argument": a new statement, or an existing claim found while typing (similar claims). */
function AddArgumentForm({ claimId, initial }: { claimId: string; initial: ArgumentListShown }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const prefill = useSearchParams().get("argument") ?? "";
  const [stance, setStance] = useState<Stance>("supports");
  const [statement, setStatement] = useState(prefill);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const similar = useSimilarClaims(statement, 10, claimId);
  const add = useMutation(
    trpc.arguments.create.mutationOptions({
      onMutate: () => {
        setError(null);
        setDone(null);
      },
      onSuccess: (a) => {
        setStatement("");
        setDone(`Added: ${a.claim.statement}`);
        // The answer is the new argument: into the list at once (docs/features/page-cache.md#what-you-post-shows-at-once),
        // where a new argument goes by impact (unrated: after the rated ones). The refetch that follows
        // brings the server's order and balance; nothing waits for it.
        queryClient.setQueryData(trpc.arguments.list.queryKey(levelInput(claimId)), (old) => {
          // Before the browser's first answer, the server's render (the fields the list shows) is the base.
          const base = old ?? (initial as unknown as NonNullable<typeof old>);
          if (base.arguments.some((x) => x.id === a.id)) return old;
          return { ...base, arguments: [...base.arguments, a], total: base.total + 1 };
        });
        void queryClient.invalidateQueries({ queryKey: trpc.arguments.list.queryKey({ claim_id: claimId }) });
      },
      onError: (e) => setError(toApiError(e)),
    }),
  );
  const candidates = similar.claims;
  return (
    <ClientForm
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ claim_id: claimId, stance, statement });
      }}
    >
      <h3 id={`${id}-title`} className={ui.card__title}>
        Add an argument
      </h3>
      <FormError error={error} fields={["statement", "stance"]} />
      {error?.status === 409 ? <DuplicateHint error={error} onLink={(childId) => add.mutate({ claim_id: claimId, stance, child_claim_id: childId })} /> : null}
      <fieldset className={ui.field}>
        <legend>It is a reason</legend>
        <div className={ui.row}>
          {STANCES.map((s) => (
            <label key={s.stance}>
              <input type="radio" name="stance" value={s.stance} checked={stance === s.stance} onChange={() => setStance(s.stance)} />{" "}
              {s.stance === "supports" ? "for this claim" : "against this claim"}
            </label>
          ))}
        </div>
      </fieldset>
      <div className={ui.field}>
        <label htmlFor={`${id}-statement`}>The reason, as a claim of its own</label>
        <textarea
          id={`${id}-statement`}
          name="statement"
          className={ui.textarea}
          value={statement}
          onChange={(e) => setStatement(e.target.value)}
          placeholder="Type a new claim, or find an existing one to link"
        />
      </div>
      {similar.asking ? (
        <div aria-live="polite" style={{ minHeight: "2rem" }}>
          {candidates.length === 0 ? (
            <p className={ui.note}>{similar.loading ? "Looking for similar claims…" : "No similar claim yet: yours will be new."}</p>
          ) : (
            <ul className={ui["compact-list"]} aria-label="Existing claims like it">
              {candidates.map((c) => (
                <li key={c.id} className={ui.row} style={{ justifyContent: "space-between", flexWrap: "nowrap" }}>
                  <span style={{ overflowWrap: "anywhere" }}>{c.statement}</span>
                  <button
                    type="button"
                    className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
                    disabled={add.isPending}
                    onClick={() => add.mutate({ claim_id: claimId, stance, child_claim_id: c.id })}
                    aria-label={`Link as an argument: ${c.statement}`}
                  >
                    Link this claim
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add as a new claim"}
        </button>
      </div>
      {done ? (
        <p role="status" className={ui.small}>
          {done}
        </p>
      ) : null}
    </ClientForm>
  );
}

function DuplicateHint({ error, onLink }: { error: ApiError; onLink: (claimId: string) => void }) {
  const existing = error.extra.existing_claim_id;
  if (!existing) return null;
  return (
    <p className={ui.small}>
      <Link href={`/claims/${existing}`}>Open the existing claim</Link> or{" "}
      <button type="button" className={`${ui.button} ${ui["button--small"]}`} onClick={() => onLink(existing)}>
        link it as the argument
      </button>
    </p>
  );
}
