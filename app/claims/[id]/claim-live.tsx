"use client";
// The part of the claim page that moves when people vote: the gauge, the vote control and the
// gradient's history. It reads claims.get and writes claims.vote / claims.unvote — the same procedures
// as POST/DELETE /api/v1/claims/{id}/vote. The server's render (the same for every viewer) is shown
// until claims.get answers for this viewer, with their own vote.
import { BridgingBadge } from "../../_components/bridging-badge.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import type { ClaimDetail } from "~/server/contract/claims.ts";
import { thinStepPoints } from "~/server/domain/chart-points.ts";
import { GradientGauge } from "../../_components/gradient.tsx";
import { FormError } from "../../_components/form-bits.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { percent } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { roleOf, useViewer } from "../../_lib/viewer.ts";
import { CHART_POINTS } from "./chart-points.ts";
import { GradientHistoryChart } from "./gradient-history-chart.tsx";
import { useLiveUpdates } from "./use-live-updates.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";
import { ClientForm } from "../../_components/client-form.tsx";

export function ClaimLive({ initial }: { initial: ClaimDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const claimQuery = trpc.claims.get.queryOptions({ claim_id: initial.id }, { placeholderData: initial });
  const { data, isPlaceholderData } = useQuery(claimQuery);
  const claim = data ?? initial;
  const viewer = useViewer();
  // Until claims.get answers for a signed-in viewer, their own vote is not known.
  const role = roleOf(viewer, claim.author.id);
  const known = role === "anonymous" || (role !== "unknown" && !isPlaceholderData);
  // Others' votes, evidence and comments appear without a reload (one stream per page).
  useLiveUpdates(initial.id);
  // What the slider shows: the viewer's draft once they move it, else their current vote.
  const [moved, setDraft] = useState<number | null>(null);
  const draft = moved ?? claim.user_vote ?? 0.5;
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState<string>("");
  const sliderId = useId();

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.claims.get.queryKey({ claim_id: initial.id }) });

  const vote = useMutation(
    trpc.claims.vote.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: (updated) => {
        queryClient.setQueryData(claimQuery.queryKey, (old) => (old ? { ...old, ...updated } : old));
        setStatus(`Vote saved: ${percent(updated.user_vote ?? draft)}. The gradient is now ${percent(updated.gradient)}.`);
        void refresh();
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const unvote = useMutation(
    trpc.claims.unvote.mutationOptions({
      onMutate: () => setError(null),
      onSuccess: async () => {
        await refresh();
        setStatus("Your vote was removed.");
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const pending = vote.isPending || unvote.isPending;

  return (
    <section className={ui.card} aria-labelledby="gradient-title">
      <h2 id="gradient-title" className={ui.card__title}>
        Where consensus stands
      </h2>
      <div className={claimStyles["claim-live"]}>
        <div className="claim-live__gauge">
          <GradientGauge gradient={claim.gradient} voteCount={claim.vote_count} />
          <PeopleOnly gradient={claim.gradient} people={claim.gradient_people} voteCount={claim.vote_count} />
          <div style={{ marginTop: "0.75rem" }}>
            <BridgingBadge bridging={claim.bridging} withMeaning />
          </div>
        </div>
        <div className="claim-live__vote">
          {!known ? (
            <p className={ui.muted} aria-busy="true" data-testid="vote-panel-pending">
              Loading your vote…
            </p>
          ) : role === "anonymous" ? (
            <p>
              <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claim.id}`)}`}>Sign in</Link> to vote on how true this
              claim is.
            </p>
          ) : role === "author" ? (
            <p className={ui.muted}>This is your claim. The gradient comes from other people’s votes.</p>
          ) : (
            <ClientForm
              onSubmit={(e) => {
                e.preventDefault();
                vote.mutate({ claim_id: claim.id, value: draft });
              }}
            >
              <FormError error={error} fields={[]} />
              <div className={ui.field} style={{ marginBottom: "0.5rem" }}>
                <label htmlFor={sliderId}>
                  Your vote: <span className={claimStyles["vote-panel__value"]}>{percent(draft)}</span> true
                </label>
                <input
                  id={sliderId}
                  className={claimStyles["vote-panel__slider"]}
                  type="range"
                  min={0}
                  max={1}
                  step={0.01}
                  value={draft}
                  aria-valuetext={`${percent(draft)} true`}
                  onChange={(e) => setDraft(Number(e.target.value))}
                />
                <div className={claimStyles["vote-panel__scale"]} aria-hidden="true">
                  <span>0 · false</span>
                  <span>0.5 · unsure</span>
                  <span>1 · true</span>
                </div>
              </div>
              <p className={`${ui.muted} ${ui.small}`} style={{ minHeight: "1.5em" }}>
                {claim.user_vote === null ? "You have not voted yet." : `Your current vote: ${percent(claim.user_vote)}.`}
              </p>
              <div className={ui["form-actions"]}>
                <button type="submit" className={ui.button} disabled={pending}>
                  {vote.isPending ? "Saving…" : claim.user_vote === null ? "Cast vote" : "Update vote"}
                </button>
                {claim.user_vote !== null ? (
                  <button
                    type="button"
                    className={`${ui.button} ${ui["button--secondary"]}`}
                    disabled={pending}
                    onClick={() => unvote.mutate({ claim_id: claim.id })}
                  >
                    Remove vote
                  </button>
                ) : null}
              </div>
            </ClientForm>
          )}
          <p className="visually-hidden" role="status">
            {status}
          </p>
        </div>
      </div>
      <h3 style={{ marginTop: "1.25rem" }}>Gradient history</h3>
      <GradientHistoryChart history={thinStepPoints(claim.gradient_history, CHART_POINTS)} />
    </section>
  );
}

/**
 * Votes of automated accounts are counted apart: when the people's own gradient differs from
 * everyone's (as a shown percentage), both are given side by side.
 */
function PeopleOnly({ gradient, people, voteCount }: { gradient: number; people: number | null; voteCount: number }) {
  if (voteCount === 0) return null;
  if (people !== null && percent(people) === percent(gradient)) return null;
  return (
    <p className={ui.small} data-testid="gradient-people" style={{ marginTop: "0.5rem", marginBottom: 0 }}>
      Everyone: <strong>{percent(gradient)}</strong> · People only:{" "}
      <strong>{people === null ? "no votes by people yet" : percent(people)}</strong>
      <span className={ui.muted}> (automated accounts left out)</span>
    </p>
  );
}
