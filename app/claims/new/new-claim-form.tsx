"use client";
// The claim form: statement, complexity, tags, up to five parent claims (found by search) and, optionally,
// how and when the claim will be checked against the world (docs/features/checks.md). The server
// validates everything; its messages appear next to the fields they name.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { cleanTagInput } from "~/server/domain/tags.ts";
import { changedField, FieldError, FormError, invalidProps } from "../../_components/form-bits.tsx";
import { toApiError, withoutField, type ApiError } from "../../_lib/api-error.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { plural } from "../../_lib/format.ts";
import { useSimilarClaims } from "../../_lib/use-similar-claims.ts";
import { useDebounced } from "../../_lib/use-debounced.ts";
import Link from "~/app/_components/link.tsx";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

export interface ParentOption {
  id: string;
  statement: string;
}

type Tier = "simple" | "moderate" | "complex" | "contested";

const TIER_HINTS: Record<Tier, string> = {
  simple: "Simple — one fact that is easy to check",
  moderate: "Moderate — needs some expertise or data",
  complex: "Complex — many factors, hard to settle",
  contested: "Contested — people strongly disagree",
};

const CHECK_FIELDS = ["criteria", "fine_print", "source_url", "check_at", "close_at", "assumptions"] as const;
const FIELDS = ["statement", "complexity_tier", "tags", "parent_ids", ...CHECK_FIELDS] as const;

type CheckDraft = Record<(typeof CHECK_FIELDS)[number], string>;
const EMPTY_CHECK: CheckDraft = { criteria: "", fine_print: "", source_url: "", check_at: "", close_at: "", assumptions: "" };

/** A date typed in the viewer's own time zone (datetime-local) as an ISO instant; what cannot be read is sent as typed for the server to refuse. */
function instant(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/**
 * The check as `POST /claims` takes it, or undefined when the person wrote none: the section is
 * optional, and a check is sent once its criteria or its date are filled in.
 */
function checkOf(draft: CheckDraft) {
  if (!draft.criteria.trim() && !draft.check_at) return undefined;
  const assumptions = draft.assumptions.split("\n").map((a) => a.trim()).filter(Boolean);
  return {
    criteria: draft.criteria,
    fine_print: draft.fine_print.trim() ? draft.fine_print : undefined,
    source_url: draft.source_url.trim() ? draft.source_url.trim() : undefined,
    check_at: instant(draft.check_at),
    close_at: draft.close_at ? instant(draft.close_at) : undefined,
    assumptions,
  };
}

export function NewClaimForm({
  initialParents,
  tiers,
  limits,
}: {
  initialParents: ParentOption[];
  tiers: Tier[];
  limits: { statementMin: number; statementMax: number; maxTags: number; maxParents: number };
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const id = useId();
  const [statement, setStatement] = useState("");
  const [tier, setTier] = useState<Tier>("simple");
  const [tags, setTags] = useState("");
  const [parents, setParents] = useState<ParentOption[]>(initialParents);
  const [check, setCheck] = useState<CheckDraft>(EMPTY_CHECK);
  const [error, setError] = useState<ApiError | null>(null);

  const create = useMutation(
    trpc.claims.create.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (claim) => router.push(`/claims/${claim.id}`),
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const length = statement.trim().length;
  const cleanedTags = cleanTagInput(tags);

  return (
    <ClientForm
      className={ui.card}
      noValidate
      onChange={(e) => setError((err) => withoutField(err, changedField(e)))}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          statement,
          complexity_tier: tier,
          tags: cleanTagInput(tags),
          parent_ids: parents.map((p) => p.id),
          check: checkOf(check),
        });
      }}
    >
      <FormError error={error} fields={FIELDS} />
      <div className={ui.field}>
        <label htmlFor={`${id}-statement`}>Statement</label>
        <textarea
          id={`${id}-statement`}
          name="statement"
          className={ui.textarea}
          value={statement}
          onChange={(e) => setStatement(e.target.value)}
          placeholder="e.g. Drinking coffee improves short-term concentration."
          aria-describedby={`${id}-statement-hint${error?.fields.statement ? ` ${id}-statement-error` : ""}`}
          aria-invalid={error?.fields.statement ? true : undefined}
        />
        <span id={`${id}-statement-hint`} className={ui.hint}>
          {limits.statementMin}–{limits.statementMax} characters · {length} so far
        </span>
        <FieldError error={error} field="statement" id={`${id}-statement`} />
        {error?.extra.existing_claim_id ? (
          <p className={ui.small}>
            <Link href={`/claims/${error.extra.existing_claim_id}`}>Open the claim that has this statement</Link>
          </p>
        ) : null}
        <SimilarClaims statement={statement} minLength={limits.statementMin} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-tier`}>Complexity</label>
        <select
          id={`${id}-tier`}
          name="complexity_tier"
          className={ui.select}
          value={tier}
          onChange={(e) => setTier(e.target.value as Tier)}
          {...invalidProps(error, "complexity_tier", `${id}-tier`)}
        >
          {tiers.map((t) => (
            <option key={t} value={t}>
              {TIER_HINTS[t]}
            </option>
          ))}
        </select>
        <FieldError error={error} field="complexity_tier" id={`${id}-tier`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          name="tags"
          className={ui.input}
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          // Shown as it will be saved once the person moves on (docs/features/friction.md).
          onBlur={() => setTags(cleanTagInput(tags).join(", "))}
          placeholder="health, nutrition"
          aria-describedby={`${id}-tags-hint${error?.fields.tags ? ` ${id}-tags-error` : ""}`}
          aria-invalid={error?.fields.tags ? true : undefined}
        />
        <span id={`${id}-tags-hint`} className={ui.hint}>
          Comma-separated, up to {limits.maxTags}: letters, digits, “-” and “_”.
          {cleanedTags.length > 0 ? (
            <>
              {" "}
              Saved as <span data-testid="tags-preview">{cleanedTags.map((t) => `#${t}`).join(" ")}</span>.
            </>
          ) : null}
        </span>
        <FieldError error={error} field="tags" id={`${id}-tags`} />
      </div>
      <ParentPicker parents={parents} setParents={setParents} maxParents={limits.maxParents} error={error} />
      <CheckFields draft={check} setDraft={setCheck} error={error} open={CHECK_FIELDS.some((f) => error?.fields[f])} />
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={create.isPending}>
          {create.isPending ? "Submitting…" : "Submit claim"}
        </button>
      </div>
    </ClientForm>
  );
}

/**
 * "How will this be checked?" (docs/features/checks.md): what counts as true and false, the fine print,
 * where the outcome will be read, when it can be known and until when votes are scored. Optional, and
 * fixed once someone votes (clarifications can still be added on the claim's page).
 */
function CheckFields({ draft, setDraft, error, open }: { draft: CheckDraft; setDraft: (d: CheckDraft) => void; error: ApiError | null; open: boolean }) {
  const id = useId();
  const set = (field: keyof CheckDraft) => (e: { target: { value: string } }) => setDraft({ ...draft, [field]: e.target.value });
  const described = (field: keyof CheckDraft, hint: boolean) =>
    [hint ? `${id}-${field}-hint` : "", error?.fields[field] ? `${id}-${field}-error` : ""].filter(Boolean).join(" ") || undefined;
  const invalid = (field: keyof CheckDraft) => (error?.fields[field] ? true : undefined);
  return (
    <details className={ui.field} open={open || undefined} data-testid="check-fields">
      <summary>How will this be checked? (optional)</summary>
      <p className={ui.hint} style={{ margin: "0.25rem 0 0.5rem" }}>
        For a claim about something that will be known: say how and when. Votes cast before scoring closes are later scored
        against what happened. Once someone votes, these terms no longer change.
      </p>
      <div className={ui.field}>
        <label htmlFor={`${id}-criteria`}>Criteria</label>
        <textarea
          id={`${id}-criteria`}
          name="criteria"
          className={ui.textarea}
          value={draft.criteria}
          onChange={set("criteria")}
          placeholder="e.g. True if NASA's 2026 sea level report gives a rise above 4 mm; false otherwise."
          aria-describedby={described("criteria", true)}
          aria-invalid={invalid("criteria")}
        />
        <span id={`${id}-criteria-hint`} className={ui.hint}>
          What counts as true and what as false · 10–2000 characters
        </span>
        <FieldError error={error} field="criteria" id={`${id}-criteria`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-fine_print`}>Fine print (optional)</label>
        <textarea id={`${id}-fine_print`} name="fine_print" className={ui.textarea} value={draft.fine_print} onChange={set("fine_print")} aria-describedby={described("fine_print", false)} aria-invalid={invalid("fine_print")} />
        <FieldError error={error} field="fine_print" id={`${id}-fine_print`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-source_url`}>Source (optional)</label>
        <input id={`${id}-source_url`} name="source_url" type="url" className={ui.input} value={draft.source_url} onChange={set("source_url")} placeholder="https://" aria-describedby={described("source_url", true)} aria-invalid={invalid("source_url")} />
        <span id={`${id}-source_url-hint`} className={ui.hint}>
          Where the outcome will be read
        </span>
        <FieldError error={error} field="source_url" id={`${id}-source_url`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-check_at`}>Checked on</label>
        <input id={`${id}-check_at`} name="check_at" type="datetime-local" className={ui.input} value={draft.check_at} onChange={set("check_at")} aria-describedby={described("check_at", true)} aria-invalid={invalid("check_at")} />
        <span id={`${id}-check_at-hint`} className={ui.hint}>
          When the outcome can be known (your time zone); from then anyone with standing may propose it
        </span>
        <FieldError error={error} field="check_at" id={`${id}-check_at`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-close_at`}>Scoring closes (optional)</label>
        <input id={`${id}-close_at`} name="close_at" type="datetime-local" className={ui.input} value={draft.close_at} onChange={set("close_at")} aria-describedby={described("close_at", true)} aria-invalid={invalid("close_at")} />
        <span id={`${id}-close_at-hint`} className={ui.hint}>
          Votes cast before it are scored against the outcome; at most the check date, which it is when left empty
        </span>
        <FieldError error={error} field="close_at" id={`${id}-close_at`} />
      </div>
      <div className={ui.field}>
        <label htmlFor={`${id}-assumptions`}>Assumptions (optional)</label>
        <textarea id={`${id}-assumptions`} name="assumptions" className={ui.textarea} value={draft.assumptions} onChange={set("assumptions")} aria-describedby={described("assumptions", true)} aria-invalid={invalid("assumptions")} />
        <span id={`${id}-assumptions-hint`} className={ui.hint}>
          One per line, up to 5
        </span>
        <FieldError error={error} field="assumptions" id={`${id}-assumptions`} />
      </div>
    </details>
  );
}

function ParentPicker({
  parents,
  setParents,
  maxParents,
  error,
}: {
  parents: ParentOption[];
  setParents: (p: ParentOption[]) => void;
  maxParents: number;
  error: ApiError | null;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [query, setQuery] = useState("");
  // One search per pause in typing: a search with text is charged more than a plain read (docs/security.md).
  const deferred = useDebounced(query.trim());
  const search = useQuery({
    ...trpc.claims.list.queryOptions({ q: deferred, limit: 5 }),
    enabled: deferred.length >= 2,
  });
  const candidates = (search.data?.claims ?? []).filter((c) => !parents.some((p) => p.id === c.id));
  const full = parents.length >= maxParents;

  return (
    <fieldset className={ui.field}>
      <legend>Builds on (optional)</legend>
      <span className={ui.hint} id={`${id}-hint`}>
        Link up to {maxParents} existing claims this one depends on or refines.
      </span>
      {parents.length > 0 ? (
        <ul className={ui["compact-list"]} aria-label="Chosen parent claims" style={{ margin: "0.25rem 0" }}>
          {parents.map((p) => (
            <li key={p.id} className={ui.row} style={{ justifyContent: "space-between", flexWrap: "nowrap" }}>
              <span style={{ overflowWrap: "anywhere" }}>{p.statement}</span>
              <button
                type="button"
                className={`${ui.button} ${ui["button--ghost"]} ${ui["button--small"]}`}
                onClick={() => setParents(parents.filter((x) => x.id !== p.id))}
                aria-label={`Remove parent claim: ${p.statement}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={`${id}-search`} className="visually-hidden">
        Search for a parent claim
      </label>
      <input
        id={`${id}-search`}
        className={ui.input}
        type="search"
        value={query}
        disabled={full}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={full ? `At most ${maxParents} parent claims` : "Search claims to link…"}
        aria-describedby={`${id}-hint${error?.fields.parent_ids ? ` ${id}-parents-error` : ""}`}
        aria-invalid={error?.fields.parent_ids ? true : undefined}
      />
      <FieldError error={error} field="parent_ids" id={`${id}-parents`} />
      {deferred.length >= 2 && !full ? (
        <div aria-live="polite" style={{ minHeight: "2rem" }}>
          {search.isLoading ? (
            <p className={ui.note}>Searching…</p>
          ) : candidates.length === 0 ? (
            <p className={ui.note}>No matching claims.</p>
          ) : (
            <ul className={ui["compact-list"]} aria-label="Matching claims">
              {candidates.map((c) => (
                <li key={c.id} className={ui.row} style={{ justifyContent: "space-between", flexWrap: "nowrap" }}>
                  <span style={{ overflowWrap: "anywhere" }}>{c.statement}</span>
                  <button
                    type="button"
                    className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
                    onClick={() => {
                      setParents([...parents, { id: c.id, statement: c.statement }]);
                      setQuery("");
                    }}
                    aria-label={`Link parent claim: ${c.statement}`}
                  >
                    Link
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * Claims like the one being typed (docs/features/arguments.md#similar-claims), asked once the person
 * pauses: open one, or add what is typed as an argument under it instead of a new claim. The claim with
 * the very statement is said at once, apart from the near ones: submitting would be refused
 * (docs/features/arguments.md#duplicates). Each shows where it stands and how many voted.
 */
function SimilarClaims({ statement, minLength }: { statement: string; minLength: number }) {
  const { claims } = useSimilarClaims(statement, minLength);
  const exact = claims.find((c) => c.exact);
  const near = claims.filter((c) => !c.exact);
  const actions = (c: (typeof claims)[number]) => (
    <div className={ui.row} style={{ gap: "0.5rem", marginTop: "0.25rem" }}>
      <Link className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`} href={`/claims/${c.id}`}>
        Open
      </Link>
      {c.exact ? null : (
        <Link
          className={`${ui.button} ${ui["button--secondary"]} ${ui["button--small"]}`}
          href={`/claims/${c.id}?argument=${encodeURIComponent(statement.trim())}#arguments`}
        >
          Add mine as an argument to it instead
        </Link>
      )}
    </div>
  );
  const standing = (c: (typeof claims)[number]) => (
    <div className={ui.meta} data-testid="similar-standing">
      <span>{CONSENSUS_WORDS[c.consensus.status]}</span>
      <span>{plural(c.vote_count, "vote")}</span>
    </div>
  );
  return (
    <div aria-live="polite">
      {exact ? (
        <section aria-label="This claim exists" data-testid="exact-claim" style={EXACT_BOX}>
          <p className={ui.small} style={{ margin: "0 0 0.25rem" }}>
            <strong>This exact claim already exists — open it</strong> to vote, add evidence or argue there.
          </p>
          <span style={{ overflowWrap: "anywhere" }}>{exact.statement}</span>
          {standing(exact)}
          {actions(exact)}
        </section>
      ) : null}
      {near.length === 0 ? null : (
        <section aria-label="Similar claims" data-testid="similar-claims" style={{ marginTop: "0.5rem" }}>
          <p className={ui.small} style={{ margin: "0 0 0.25rem" }}>
            <strong>Similar claims already here</strong> — maybe yours is one of them, or a reason for or against one:
          </p>
          <ul className={ui["compact-list"]}>
            {near.map((c) => (
              <li key={c.id}>
                <span style={{ overflowWrap: "anywhere" }}>{c.statement}</span>
                {standing(c)}
                {actions(c)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

const EXACT_BOX = {
  marginTop: "0.5rem",
  padding: "0.6rem 0.8rem",
  border: "1px solid var(--border)",
  borderLeft: "4px solid var(--danger)",
  borderRadius: "var(--radius-sm)",
} as const;

const CONSENSUS_WORDS: Record<string, string> = {
  no_votes: "No votes yet",
  too_few_votes: "Too few votes to call",
  consensus_true: "Consensus: true",
  consensus_false: "Consensus: false",
  divided: "Divided",
  open: "Open",
};
