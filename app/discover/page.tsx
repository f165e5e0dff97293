// Discover: what is moving now (discover.trending), what you might weigh in on (discover.recommended,
// signed in), and every topic (discover.topics).
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { currentViewer, serverCaller } from "~/server/api/server-caller.ts";
import { EmptyState } from "../_components/bits.tsx";
import { ClaimList } from "../_components/claim-card.tsx";
import { SidebarCardSkeleton, TopicsCard } from "../_components/sidebar.tsx";
import { plural } from "../_lib/format.ts";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Discover" };

export default async function DiscoverPage() {
  const caller = await serverCaller();
  const [viewer, trending] = await Promise.all([currentViewer(), caller.discover.trending({ limit: 20, offset: 0 })]);
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Discover</h1>
          <p>Claims with the most activity in the last 24 hours{viewer ? ", and claims picked for you" : ""}.</p>
        </div>
      </div>
      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          {viewer ? (
            <Suspense
              fallback={
                <section className={ui.card} style={{ minHeight: 200 }} aria-busy="true">
                  <h2 className={ui.card__title}>Recommended for you</h2>
                </section>
              }
            >
              <Recommended />
            </Suspense>
          ) : (
            <section className={ui.card} aria-labelledby="rec-title">
              <h2 id="rec-title" className={ui.card__title}>
                Recommended for you
              </h2>
              <p className={ui.muted} style={{ margin: 0 }}>
                <Link href="/signin?redirect_to=%2Fdiscover">Sign in</Link> to get claims picked from the topics you know best.
              </p>
            </section>
          )}
          <section aria-labelledby="trending-heading">
            <h2 id="trending-heading">Trending in the last 24 hours</h2>
            {trending.claims.length === 0 ? (
              <div className={ui.card}>
                <EmptyState title="Quiet for now">
                  <p>No claim got votes, evidence or comments in the last 24 hours.</p>
                  <Link href="/">Explore all claims</Link>
                </EmptyState>
              </div>
            ) : (
              <ClaimList
                claims={trending.claims}
                extra={(c) => {
                  const t = trending.claims.find((x) => x.id === c.id)!;
                  return `Trending score ${t.trending_score}: ${plural(t.votes_24h, "vote")}, ${plural(t.evidence_24h, "piece of evidence", "pieces of evidence")}, ${plural(t.comments_24h, "comment")} today`;
                }}
              />
            )}
          </section>
        </div>
        <div className={ui.stack}>
          <Suspense fallback={<SidebarCardSkeleton title="Topics" minHeight={240} />}>
            <TopicsCard limit={50} />
          </Suspense>
        </div>
      </div>
    </>
  );
}

async function Recommended() {
  const caller = await serverCaller();
  const rec = await caller.discover.recommended({ limit: 5 });
  return (
    <section aria-labelledby="rec-title">
      <h2 id="rec-title">Recommended for you</h2>
      <p className={`${ui.muted} ${ui.small}`}>
        {rec.based_on_tags.length > 0
          ? `Based on your expertise in ${rec.based_on_tags.map((t) => `#${t}`).join(", ")}.`
          : "Vote and bring evidence, and your picks will follow the topics you know best."}
      </p>
      {rec.claims.length === 0 ? (
        <div className={ui.card}>
          <EmptyState title="Nothing to recommend yet">
            <p>There is nothing new for you to vote on right now.</p>
            <Link href="/">Explore all claims</Link>
          </EmptyState>
        </div>
      ) : (
        <ClaimList
          claims={rec.claims}
          extra={(c) => {
            const r = rec.claims.find((x) => x.id === c.id)!;
            return r.matching_tags.length ? `Matches ${r.matching_tags.map((t) => `#${t}`).join(", ")}` : null;
          }}
        />
      )}
    </section>
  );
}
