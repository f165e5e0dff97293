"use client";
// "Recommended for you" (discover.recommended): picked for the signed-in viewer, so asked for by the
// browser; the rest of Discover is the same for everyone and comes from the shared render.
import { useQuery } from "@tanstack/react-query";
import Link from "~/app/_components/link.tsx";
import { EmptyState, SkeletonLines } from "../_components/bits.tsx";
import { ClaimList } from "../_components/claim-card.tsx";
import { useTRPC } from "../_lib/trpc.tsx";
import { useViewer } from "../_lib/viewer.ts";
import ui from "../_components/ui.module.css";

const LIMIT = 5;

export function Recommended() {
  const trpc = useTRPC();
  const { status } = useViewer();
  const rec = useQuery({ ...trpc.discover.recommended.queryOptions({ limit: LIMIT }), enabled: status === "signed-in" });

  if (status === "anonymous") {
    return (
      <section className={ui.card} aria-labelledby="rec-title">
        <h2 id="rec-title" className={ui.card__title}>
          Recommended for you
        </h2>
        <p className={ui.muted} style={{ margin: 0 }}>
          <Link href="/signin?redirect_to=%2Fdiscover">Sign in</Link> to get claims picked from the topics you know best.
        </p>
      </section>
    );
  }
  if (!rec.data) {
    return (
      <section className={ui.card} style={{ minHeight: 200 }} aria-busy={!rec.isError} aria-labelledby="rec-title">
        <h2 id="rec-title" className={ui.card__title}>
          Recommended for you
        </h2>
        {rec.isError ? <p className={ui.muted}>Your picks could not be loaded. Try again in a moment.</p> : <SkeletonLines lines={4} />}
      </section>
    );
  }
  const { claims, based_on_tags: tags } = rec.data;
  // Say what the picks are truly based on: the topics that matched some of them, and the newest claims
  // the viewer has not voted on for the rest (docs/features/friction.md#numbers-that-agree).
  const matched = tags.filter((t) => claims.some((c) => c.matching_tags.includes(t)));
  const unmatched = claims.filter((c) => c.matching_tags.length === 0).length;
  return (
    <section aria-labelledby="rec-title">
      <h2 id="rec-title">Recommended for you</h2>
      <p className={ui.note} data-testid="recommended-basis">
        {basis(tags, matched, unmatched)}
      </p>
      {claims.length === 0 ? (
        <div className={ui.card}>
          <EmptyState title="Nothing to recommend yet">
            <p>There is nothing new for you to vote on right now.</p>
            <Link href="/">Explore all claims</Link>
          </EmptyState>
        </div>
      ) : (
        <ClaimList claims={claims} extra={(r) => (r.matching_tags.length ? `Matches ${r.matching_tags.map((t) => `#${t}`).join(", ")}` : "Recent, and you have not voted on it")} />
      )}
    </section>
  );
}

const hashtags = (tags: string[]) => tags.map((t) => `#${t}`).join(", ");

/** The line above the picks: what they are based on, as it is for these picks. */
function basis(tags: string[], matched: string[], unmatched: number): string {
  if (tags.length === 0) return "Recent claims you have not voted on. Vote and bring evidence, and your picks will follow the topics you know best.";
  if (matched.length === 0) {
    return `Nothing new in the topics you know best (${hashtags(tags)}): these are recent claims you have not voted on.`;
  }
  if (unmatched === 0) return `Picked from the topics you know best: ${hashtags(matched)}.`;
  return `Picked from the topics you know best (${hashtags(matched)}), then recent claims you have not voted on.`;
}
