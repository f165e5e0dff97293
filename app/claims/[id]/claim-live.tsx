"use client";
// The part of the claim page that moves when people vote: where consensus stands (the status in words,
// the gauge, how the votes spread), the vote control and the gradient's history. It reads claims.get
// and writes claims.vote / claims.unvote — the same procedures as POST/DELETE /api/v1/claims/{id}/vote.
// The server's render (the same for every viewer) is shown until claims.get answers for this viewer,
// with their own vote: the vote panel and the viewer's mark on the histogram exist only from then on.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { useId, useMemo, useRef, useState } from "react";
import type { ClaimDetail } from "~/server/contract/claims.ts";
import { thinStepPoints } from "~/server/domain/chart-points.ts";
import { voteWeight } from "~/server/domain/gradient.ts";
import { BridgingBadge } from "../../_components/bridging-badge.tsx";
import { atConsensusVersusResolved, ConsensusSamples, ConsensusStatus, VoteHistogram, type StandingWords } from "../../_components/consensus.tsx";
import { GradientGauge } from "../../_components/gradient.tsx";
import { FormError } from "../../_components/form-bits.tsx";
import { ClientForm } from "../../_components/client-form.tsx";
import { toApiError, type ApiError } from "../../_lib/api-error.ts";
import { percent } from "../../_lib/format.ts";
import { useTRPC } from "../../_lib/trpc.tsx";
import { refreshViewer, roleOf, useViewer, type Viewer } from "../../_lib/viewer.ts";
import { CHART_POINTS, type HistoryPoint } from "./chart-points.ts";
import { GradientHistoryChart } from "./gradient-history-chart.tsx";
import { useLiveUpdates } from "./use-live-updates.ts";
import type { ClaimShown } from "./shown.ts";
import claimStyles from "./claim.module.css";
import ui from "../../_components/ui.module.css";

export function ClaimLive({
  claim: shared,
  history,
  resolutionStableSeconds,
  standing,
}: {
  /** The claim as everyone sees it, cut to what the page shows (shown.ts), its history apart. */
  claim: ClaimShown;
  history: HistoryPoint[];
  resolutionStableSeconds: number;
  /** The standing settings, for the words of why votes do not count. */
  standing: StandingWords;
}) {
  const initial = useMemo(
    () => ({ ...shared, gradient_history: history.map(([gradient, vote_count, at]) => ({ gradient, vote_count, recorded_at: new Date(at).toISOString() })) }),
    [shared, history],
  );
  const trpc = useTRPC();
  const { data } = useQuery(trpc.claims.get.queryOptions({ claim_id: initial.id }));
  // The server's render until the query answers for this viewer.
  const isPlaceholderData = data === undefined;
  const claim: ClaimShown & Pick<ClaimDetail, "gradient_history"> = data ?? initial;
  const viewerState = useViewer();
  // Until claims.get answers for a signed-in viewer, their own vote is not known.
  const role = roleOf(viewerState, claim.author.id);
  const known = role === "anonymous" || (role !== "unknown" && !isPlaceholderData);
  // Others' votes, evidence and comments appear without a reload (one stream per page).
  useLiveUpdates(initial.id);
  // The histogram holds the counted votes: the viewer's own is marked there only when it counts.
  const ownVote = known && role === "member" && viewerState.viewer?.standing ? claim.user_vote : null;

  return (
    <section className={ui.card} aria-labelledby="gradient-title">
      <h2 id="gradient-title" className={ui.card__title}>
        Where consensus stands
      </h2>
      <ConsensusStatus claim={claim} />
      <div className={claimStyles["claim-live"]} style={{ marginTop: "0.75rem" }}>
        {/* The needle stands where the counted votes do: the status is theirs (docs/features/consensus.md#standing). */}
        <GradientGauge gradient={claim.consensus.gradient ?? claim.gradient} consensus={claim.consensus} />
        <VoteHistogram histogram={claim.consensus.histogram} ownVote={ownVote} someNotCounted={claim.vote_count > claim.consensus.voters} />
      </div>
      <ConsensusSamples claim={claim} rule={standing} />
      <p className={ui.note} data-testid="consensus-vocabulary">
        {atConsensusVersusResolved(resolutionStableSeconds)}
      </p>
      <div className={claimStyles["vote-area"]}>
        {!known ? (
          <p className={ui.muted} aria-busy="true" data-testid="vote-panel-pending">
            Loading your vote…
          </p>
        ) : role === "anonymous" ? (
          <p>
            <Link href={`/signin?redirect_to=${encodeURIComponent(`/claims/${claim.id}`)}`}>Sign in</Link> to vote on how true this claim
            is.
          </p>
        ) : role === "author" ? (
          <p className={ui.muted}>This is your claim. Where it stands comes from other people’s votes.</p>
        ) : viewerState.viewer ? (
          <VotePanel claim={claim} viewer={viewerState.viewer} />
        ) : null}
      </div>
      <h3 style={{ marginTop: "1.25rem" }}>How it is decided</h3>
      <BridgingBadge bridging={claim.bridging} withMeaning />
      <h3 style={{ marginTop: "1.25rem" }}>Gradient history</h3>
      <GradientHistoryChart history={thinStepPoints(claim.gradient_history, CHART_POINTS)} />
    </section>
  );
}

/**
 * The slider, what it stands at and what is saved, in words that never disagree: before a first vote
 * nothing reads as a vote; a moved but unsaved slider says so; a saved vote is confirmed where it can
 * be seen (and heard); the focus stays on the control that was used.
 */
function VotePanel({ claim, viewer }: { claim: ClaimShown; viewer: Viewer }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const queryKey = trpc.claims.get.queryKey({ claim_id: claim.id });
  // What the slider shows: the viewer's draft once they move it, else their saved vote.
  const [moved, setMoved] = useState<number | null>(null);
  const saved = claim.user_vote;
  const draft = moved ?? saved ?? 0.5;
  const unsaved = moved !== null && moved !== saved;
  const [error, setError] = useState<ApiError | null>(null);
  const [confirmation, setConfirmation] = useState("");
  const sliderId = useId();
  const stateId = useId();
  const slider = useRef<HTMLInputElement>(null);

  // The vote may give the account standing (its fifth): its own record is read again too.
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey }), refreshViewer()]);
  const vote = useMutation(
    trpc.claims.vote.mutationOptions({
      onMutate: () => {
        setError(null);
        setConfirmation("");
      },
      onSuccess: (updated) => {
        queryClient.setQueryData(queryKey, (old) => (old ? { ...old, ...updated } : old));
        // The slider now shows the saved vote: the two cannot differ.
        setMoved(null);
        setConfirmation(`Vote saved: ${percent(updated.user_vote ?? draft)} true.`);
        void refresh();
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const unvote = useMutation(
    trpc.claims.unvote.mutationOptions({
      onMutate: () => {
        setError(null);
        setConfirmation("");
      },
      onSuccess: async () => {
        await refresh();
        setMoved(null);
        setConfirmation("Your vote was removed.");
        // The button that was pressed is gone: the focus goes to the slider, not to the page's start.
        slider.current?.focus();
      },
      onError: (err) => setError(toApiError(err)),
    }),
  );
  const pending = vote.isPending || unvote.isPending;
  const weight = voteWeight(viewer.reputation_score);

  return (
    <ClientForm
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) vote.mutate({ claim_id: claim.id, value: draft });
      }}
    >
      <FormError error={error} fields={[]} />
      <div className={ui.field} style={{ marginBottom: "0.5rem" }}>
        <label htmlFor={sliderId}>
          Your vote:{" "}
          <span className={claimStyles["vote-panel__value"]} data-testid="slider-value">
            {saved === null && moved === null ? "not cast yet" : `${percent(draft)} true`}
          </span>
        </label>
        <input
          ref={slider}
          id={sliderId}
          className={claimStyles["vote-panel__slider"]}
          type="range"
          min={0}
          max={1}
          step={0.01}
          value={draft}
          aria-describedby={stateId}
          aria-valuetext={saved === null && moved === null ? "not cast yet" : `${percent(draft)} true`}
          onChange={(e) => {
            setMoved(Number(e.target.value));
            setConfirmation("");
          }}
        />
        <div className={claimStyles["vote-panel__scale"]} aria-hidden="true">
          <span>0 · false</span>
          <span>0.5 · unsure</span>
          <span>1 · true</span>
        </div>
      </div>
      <p id={stateId} className={ui.note} style={{ minHeight: "1.5em" }} data-testid="vote-state">
        {saved === null
          ? unsaved
            ? `Not saved yet: cast your vote to save ${percent(draft)}.`
            : "You have not voted yet. Move the slider, then cast your vote."
          : unsaved
            ? `Your current vote: ${percent(saved)}. Not saved yet: ${percent(draft)}.`
            : `Your current vote: ${percent(saved)}.`}
      </p>
      <div className={ui["form-actions"]}>
        {/* aria-disabled, not disabled: a disabled button drops the keyboard focus while it saves. */}
        <button type="submit" className={ui.button} aria-disabled={pending}>
          {vote.isPending ? "Saving…" : saved === null ? "Cast vote" : "Update vote"}
        </button>
        {saved !== null ? (
          <button
            type="button"
            className={`${ui.button} ${ui["button--secondary"]}`}
            aria-disabled={pending}
            onClick={() => {
              if (!pending) unvote.mutate({ claim_id: claim.id });
            }}
          >
            Remove vote
          </button>
        ) : null}
      </div>
      <p role="status" className={confirmation ? ui["form-success"] : undefined} style={{ minHeight: "1.5em", marginTop: "0.5rem" }} data-testid="vote-confirmation">
        {confirmation}
      </p>
      <p className={ui.note} data-testid="vote-weight">
        Why one vote moves the number only a little: the gradient is an average weighted by reputation, each vote
        counting ln(1 + reputation), at least 0.1. Your votes count {weight.toFixed(2)} (reputation{" "}
        {viewer.reputation_score.toLocaleString("en-US", { maximumFractionDigits: 1 })}); reputation grows when your
        evidence is voted up and your votes match claims that resolve.
      </p>
      {viewer.standing ? null : (
        <p className={ui.note} data-testid="vote-standing">
          {viewer.automated
            ? "Your account is automated: your votes are shown in the agents' view, beside the status, and never decide it."
            : "Your votes do not decide a claim's status yet: they count once your account has standing."}{" "}
          <Link href="/docs/standing">Whose votes count</Link>
        </p>
      )}
    </ClientForm>
  );
}
