"use client";
// The claim form: statement, complexity, tags and up to five parent claims (found by search).
// The server validates everything; its messages appear next to the fields they name.
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
import Link from "next/link";
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

const FIELDS = ["statement", "complexity_tier", "tags", "parent_ids"] as const;

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
      <div className={ui["form-actions"]}>
        <button type="submit" className={ui.button} disabled={create.isPending}>
          {create.isPending ? "Submitting…" : "Submit claim"}
        </button>
      </div>
    </ClientForm>
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
