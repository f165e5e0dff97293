"use client";
// The sidebar's lists drawn from compact rows (docs/architecture.md#pages-from-data): trending claims
// and topics are on most list pages, and as server markup each would travel twice (HTML and React's
// payload of the same tree).
import Link from "~/app/_components/link.tsx";
import type { ConsensusStatus, DecidedBy } from "~/server/domain/consensus.ts";
import { plural } from "../_lib/format.ts";
import { ConsensusLine, type ConsensusCall } from "./consensus.tsx";
import { GradientValue } from "./gradient.tsx";
import ui from "./ui.module.css";

/** A trending claim: id, statement, votes and evidence today, gradient, and its consensus (voters = votes). */
export type TrendingRow = [id: string, statement: string, votes24h: number, evidence24h: number, gradient: number, status: ConsensusStatus, voters: number, decidedBy: DecidedBy | null];

/** A topic: its tag, how many claims carry it, its activity this week. */
export type TopicRow = [tag: string, claims: number, recentActivity: number];

export function TrendingSection({ rows }: { rows: TrendingRow[] }) {
  return (
    <section className={ui.card} aria-labelledby="trending-title" style={{ minHeight: 180 }}>
      <h2 id="trending-title" className={ui.card__title}>
        Trending now <Link href="/discover">More</Link>
      </h2>
      {rows.length === 0 ? (
        <p className={ui.note}>Nothing has moved in the last 24 hours.</p>
      ) : (
        <ol className={ui["compact-list"]}>
          {rows.map(([id, statement, votes24h, evidence24h, gradient, status, voters, decidedBy]) => {
            const consensus: ConsensusCall = { status, voters, decided_by: decidedBy };
            return (
              <li key={id}>
                <Link href={`/claims/${id}`}>{statement}</Link>
                <div className={ui.meta}>
                  <span>{`${plural(votes24h, "vote")} · ${plural(evidence24h, "evidence", "evidence")} today`}</span>
                  <GradientValue gradient={gradient} consensus={consensus} />
                </div>
                <div className={ui.meta}>
                  <ConsensusLine consensus={consensus} />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

export function TopicsSection({ topics }: { topics: TopicRow[] }) {
  return (
    <section className={ui.card} aria-labelledby="topics-title" style={{ minHeight: 140 }}>
      <h2 id="topics-title" className={ui.card__title}>
        Topics
      </h2>
      {topics.length === 0 ? (
        <p className={ui.note}>No tagged claims yet.</p>
      ) : (
        <ul className={ui["tag-list"]}>
          {topics.map(([tag, claims, recent]) => (
            <li key={tag}>
              <Link href={`/topics/${encodeURIComponent(tag)}`} title={`${plural(claims, "claim")}, ${recent} this week`}>
                {`#${tag} `}
                <span aria-hidden="true">{claims}</span>
                <span className="visually-hidden">{`, ${plural(claims, "claim")}`}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
