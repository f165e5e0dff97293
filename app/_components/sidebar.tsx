// Trending claims and topics, beside lists (discover.trending, discover.topics): fetched here, drawn
// from compact rows by sidebar-lists.tsx.
import { publicCaller } from "~/server/api/server-caller.ts";
import { TopicsSection, TrendingSection } from "./sidebar-lists.tsx";

export async function TrendingCard({ limit = 5 }: { limit?: number }) {
  const caller = await publicCaller();
  const trending = await caller.discover.trending({ limit, offset: 0 });
  return (
    <TrendingSection
      rows={trending.claims.map((c) => [c.id, c.statement, c.votes_24h, c.evidence_24h, c.consensus.gradient ?? c.gradient, c.consensus.status, c.consensus.voters, c.consensus.decided_by])}
    />
  );
}

export async function TopicsCard({ limit = 15 }: { limit?: number }) {
  const caller = await publicCaller();
  const { topics } = await caller.discover.topics({ limit, offset: 0 });
  return <TopicsSection topics={topics.map((t) => [t.tag, t.claim_count, t.recent_activity])} />;
}
