// Discover: what is moving now (discover.trending), what you might weigh in on (discover.recommended,
// signed in: filled in by the browser, recommended.tsx), and every topic (discover.topics). The
// server's part is the same for every viewer.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { Suspense } from "react";
import { publicCaller } from "~/server/api/server-caller.ts";
import { EmptyState } from "../_components/bits.tsx";
import { ClaimList } from "../_components/claim-card.tsx";
import { SidebarCardSkeleton } from "../_components/list-skeleton.tsx";
import { TopicsCard } from "../_components/sidebar.tsx";
import { plural } from "../_lib/format.ts";
import { Recommended } from "./recommended.tsx";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Discover" };

export default async function DiscoverPage() {
  const caller = await publicCaller();
  const trending = await caller.discover.trending({ limit: 20, offset: 0 });
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Discover</h1>
          <p>Claims with the most activity in the last 24 hours, and claims picked for you.</p>
        </div>
      </div>
      <div className={ui["layout-sidebar"]}>
        <div className={ui.stack}>
          <Recommended />
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
                extra={(t) =>
                  `Trending score ${t.trending_score}: ${plural(t.votes_24h, "vote")}, ${plural(t.evidence_24h, "piece of evidence", "pieces of evidence")}, ${plural(t.comments_24h, "comment")} today`
                }
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
