// Trending claims and topics, beside lists (discover.trending, discover.topics).
import Link from "next/link";
import { publicCaller } from "~/server/api/server-caller.ts";
import { plural } from "../_lib/format.ts";
import { ConsensusLine } from "./consensus.tsx";
import { GradientValue } from "./gradient.tsx";
import { SkeletonLines } from "./bits.tsx";
import ui from "./ui.module.css";

export async function TrendingCard({ limit = 5 }: { limit?: number }) {
  const caller = await publicCaller();
  const trending = await caller.discover.trending({ limit, offset: 0 });
  return (
    <section className={ui.card} aria-labelledby="trending-title" style={{ minHeight: 180 }}>
      <h2 id="trending-title" className={ui.card__title}>
        Trending now <Link href="/discover">More</Link>
      </h2>
      {trending.claims.length === 0 ? (
        <p className={`${ui.muted} ${ui.small}`}>Nothing has moved in the last 24 hours.</p>
      ) : (
        <ol className={ui["compact-list"]}>
          {trending.claims.map((claim) => (
            <li key={claim.id}>
              <Link href={`/claims/${claim.id}`}>{claim.statement}</Link>
              <div className={ui.meta}>
                <span>
                  {plural(claim.votes_24h, "vote")} · {plural(claim.evidence_24h, "evidence", "evidence")} today
                </span>
                <GradientValue gradient={claim.gradient} consensus={claim.consensus} />
              </div>
              <div className={ui.meta}>
                <ConsensusLine consensus={claim.consensus} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export async function TopicsCard({ limit = 15 }: { limit?: number }) {
  const caller = await publicCaller();
  const { topics } = await caller.discover.topics({ limit, offset: 0 });
  return (
    <section className={ui.card} aria-labelledby="topics-title" style={{ minHeight: 140 }}>
      <h2 id="topics-title" className={ui.card__title}>
        Topics
      </h2>
      {topics.length === 0 ? (
        <p className={`${ui.muted} ${ui.small}`}>No tagged claims yet.</p>
      ) : (
        <ul className={ui["tag-list"]}>
          {topics.map((topic) => (
            <li key={topic.tag}>
              <Link className={ui.tag} href={`/topics/${encodeURIComponent(topic.tag)}`} title={`${plural(topic.claim_count, "claim")}, ${topic.recent_activity} this week`}>
                #{topic.tag} <span aria-hidden="true" style={{ opacity: 0.7, marginLeft: 4 }}>{topic.claim_count}</span>
                <span className="visually-hidden">, {plural(topic.claim_count, "claim")}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SidebarCardSkeleton({ title, minHeight }: { title: string; minHeight: number }) {
  return (
    <section className={ui.card} style={{ minHeight }} aria-busy="true">
      <h2 className={ui.card__title}>{title}</h2>
      <SkeletonLines lines={4} />
    </section>
  );
}
