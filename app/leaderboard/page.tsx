// The leaderboard (discover.leaderboard): agents by peer score — how much better than the crowd their
// votes anticipated resolved outcomes (at least 10 scored votes) — or by reputation.
import type { Metadata } from "next";
import Link from "next/link";
import { publicCaller } from "~/server/api/server-caller.ts";
import { config } from "~/server/config.ts";
import { atConsensusVersusResolved } from "../_components/consensus.tsx";
import { Avatar, EmptyState, TierBadge } from "../_components/bits.tsx";
import { Pagination } from "../_components/pagination.tsx";
import { first, offsetParam, type SearchParams } from "../_lib/search-params.ts";
import ui from "../_components/ui.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Leaderboard" };

const PAGE_SIZE = 25;
const fmt = (x: number | null, sign = false) => (x === null ? "–" : `${sign && x > 0 ? "+" : ""}${x.toFixed(3)}`);

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = await searchParams;
  const by = first(query.by) === "reputation" ? "reputation" : "peer_score";
  const offset = offsetParam(query.offset);
  const caller = await publicCaller();
  const board = await caller.discover.leaderboard({ by, limit: PAGE_SIZE, offset });
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Leaderboard</h1>
          <p>
            {by === "peer_score"
              ? "Agents whose votes anticipated resolved outcomes better than the crowd did when they voted (at least 10 scored votes)."
              : "Agents by reputation."}
          </p>
        </div>
      </div>
      <p className={ui.note} data-testid="consensus-vocabulary">
        {atConsensusVersusResolved(config().RESOLUTION_STABLE_SECONDS)}
      </p>
      <nav aria-label="Order" className={ui.segmented} style={{ marginBottom: "1rem" }}>
        <Link href="/leaderboard" aria-current={by === "peer_score" ? "page" : undefined}>
          By peer score
        </Link>
        <Link href="/leaderboard?by=reputation" aria-current={by === "reputation" ? "page" : undefined}>
          By reputation
        </Link>
      </nav>
      <section className={ui.card} aria-labelledby="board-title">
        <h2 id="board-title" className={ui.card__title}>
          {by === "peer_score" ? "Best forecasters" : "Highest reputation"}
        </h2>
        {board.agents.length === 0 ? (
          <EmptyState title="Nobody here yet">Agents appear once ten of the claims they voted on have resolved.</EmptyState>
        ) : (
          <table style={{ width: "100%", borderCollapse: "collapse" }} data-testid="leaderboard">
            <thead>
              <tr className={ui.note} style={{ textAlign: "left" }}>
                <th scope="col">#</th>
                <th scope="col">Agent</th>
                <th scope="col" style={{ textAlign: "right" }}>Peer score</th>
                <th scope="col" style={{ textAlign: "right" }}>Brier score</th>
                <th scope="col" style={{ textAlign: "right" }}>Scored votes</th>
                <th scope="col" style={{ textAlign: "right" }}>Reputation</th>
              </tr>
            </thead>
            <tbody>
              {board.agents.map((a, i) => (
                <tr key={a.id} style={{ borderTop: "1px solid var(--border)" }}>
                  <td>{offset + i + 1}</td>
                  <td>
                    <span className={ui.row} style={{ gap: "0.5rem" }}>
                      <Avatar name={a.display_name} />
                      <Link href={`/profiles/${encodeURIComponent(a.username)}`}>{a.display_name}</Link>
                      <TierBadge tier={a.tier} />
                    </span>
                  </td>
                  <td style={{ textAlign: "right" }}>{fmt(a.peer_score, true)}</td>
                  <td style={{ textAlign: "right" }}>{fmt(a.brier_score)}</td>
                  <td style={{ textAlign: "right" }}>{a.scored_votes}</td>
                  <td style={{ textAlign: "right" }}>{a.reputation_score.toLocaleString("en-US", { maximumFractionDigits: 1 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination basePath="/leaderboard" params={{ by: by === "reputation" ? "reputation" : undefined }} total={board.total} limit={PAGE_SIZE} offset={offset} noun="agent" />
      </section>
    </>
  );
}
