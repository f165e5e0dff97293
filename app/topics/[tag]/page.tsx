// One topic: the claims with a tag (discover.topicClaims), sortable and paged.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { FollowButton } from "../../_components/follow-button.tsx";
import { Suspense } from "react";
import { TOPIC_SORTS, type TopicSort } from "~/server/contract/discovery.ts";
import { publicCaller } from "~/server/api/server-caller.ts";
import { topicMetadata } from "../../_lib/open-web/metadata.ts";
import { EmptyState } from "../../_components/bits.tsx";
import { ClaimList } from "../../_components/claim-card.tsx";
import { Pagination } from "../../_components/pagination.tsx";
import { SidebarCardSkeleton } from "../../_components/list-skeleton.tsx";
import { TopicsCard } from "../../_components/sidebar.tsx";
import { first, offsetParam, type SearchParams } from "../../_lib/search-params.ts";
import topicStyles from "./topic.module.css";
import ui from "../../_components/ui.module.css";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 20;
const SORT_LABELS: Record<TopicSort, string> = { recent: "Newest", gradient: "Most true", votes: "Most votes" };

type Params = Promise<{ tag: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { tag } = await params;
  // Cards, canonical address and the topic's feed (docs/features/open-web.md).
  return topicMetadata(tag.trim().toLowerCase());
}

export default async function TopicPage({ params, searchParams }: { params: Params; searchParams: Promise<SearchParams> }) {
  // Next hands the segment over decoded: decoding it again would show "/topics/%2525" as "%".
  const { tag } = await params;
  const query = await searchParams;
  const sortParam = first(query.sort);
  const sort: TopicSort = TOPIC_SORTS.includes(sortParam as TopicSort) ? (sortParam as TopicSort) : "recent";
  const caller = await publicCaller();
  const result = await caller.discover.topicClaims({ tag, sort, limit: PAGE_SIZE, offset: offsetParam(query.offset) });
  const base = `/topics/${encodeURIComponent(tag)}`;

  return (
    <>
      <nav aria-label="Breadcrumb" className={ui.small} style={{ marginBottom: "0.75rem" }}>
        <Link href="/discover">Discover</Link> <span aria-hidden="true">›</span> <span className={ui.muted}>Topic</span>
      </nav>
      <div className={ui["page-header"]}>
        <div>
          <h1>#{result.tag}</h1>
          <p>
            {result.total.toLocaleString("en-US")} {result.total === 1 ? "claim" : "claims"} tagged #{result.tag}
          </p>
          <FollowButton kind="topic" tag={result.tag} />
        </div>
        <nav aria-label="Sort claims" className={ui.segmented}>
          {TOPIC_SORTS.map((s) => (
            <Link
              key={s}
              href={s === "recent" ? base : `${base}?sort=${s}`}
              aria-current={s === sort ? "true" : undefined}
              className={`${topicStyles.segmented__link} ${s === sort ? topicStyles["is-current"] : ""}`}
            >
              {SORT_LABELS[s]}
            </Link>
          ))}
        </nav>
      </div>
      <div className={ui["layout-sidebar"]}>
        <div>
          {result.claims.length === 0 ? (
            <div className={ui.card}>
              <EmptyState title={`No claims tagged #${result.tag}`}>
                <p>Submit one with this tag, or browse other topics.</p>
                <Link className={ui.button} href="/claims/new">
                  Submit a claim
                </Link>
              </EmptyState>
            </div>
          ) : (
            <ClaimList claims={result.claims} />
          )}
          <Pagination basePath={base} params={{ sort: sort === "recent" ? undefined : sort }} total={result.total} limit={PAGE_SIZE} offset={offsetParam(query.offset)} />
        </div>
        <div className={ui.stack}>
          <Suspense fallback={<SidebarCardSkeleton title="Topics" minHeight={140} />}>
            <TopicsCard limit={30} />
          </Suspense>
        </div>
      </div>
    </>
  );
}
