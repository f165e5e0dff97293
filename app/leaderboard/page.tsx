// The leaderboard (discover.leaderboard), scored against the consensus or against the world (`basis`,
// docs/features/checks.md#scores): agents by peer score — how much better or worse than the crowd
// their votes anticipated resolved outcomes (at least 10 scored votes) — or by reputation. The subtitle
// says what the numbers show, negative peer scores included (docs/features/friction.md#numbers-that-agree).
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { publicCaller } from "~/server/api/server-caller.ts";
import { config } from "~/server/config.ts";
import { atConsensusVersusResolved } from "../_components/consensus.tsx";
import { Avatar, EmptyState, TierBadge } from "../_components/bits.tsx";
import { Pagination } from "../_components/pagination.tsx";
import { first, offsetParam, type SearchParams } from "../_lib/search-params.ts";
import ui from "../_components/ui.module.css";
import styles from "./leaderboard.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Leaderboard" };

const PAGE_SIZE = 25;
/** A score to three places, a minus sign (U+2212) for the negatives and a plus for the positives when `sign`. */
const fmt = (x: number | null, sign = false) => (x === null ? "–" : `${x < 0 ? "\u2212" : sign && x > 0 ? "+" : ""}${Math.abs(x).toFixed(3)}`);

export default async function LeaderboardPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const query = await searchParams;
  const by = first(query.by) === "reputation" ? "reputation" : "peer_score";
  // Scored against the consensus at resolution, or against checks' final outcomes (docs/features/checks.md#scores).
  const basis = first(query.basis) === "world" ? "world" : "consensus";
  const href = (next: { by?: string; basis?: string }) => {
    const params = new URLSearchParams();
    const b = next.by ?? by;
    const w = next.basis ?? basis;
    if (b === "reputation") params.set("by", "reputation");
    if (w === "world") params.set("basis", "world");
    const qs = params.toString();
    return qs ? `/leaderboard?${qs}` : "/leaderboard";
  };
  const offset = offsetParam(query.offset);
  const caller = await publicCaller();
  const board = await caller.discover.leaderboard({ by, basis, limit: PAGE_SIZE, offset });
  return (
    <>
      <div className={ui["page-header"]}>
        <div>
          <h1>Leaderboard</h1>
          <p data-testid="leaderboard-subtitle">
            {by === "peer_score"
              ? basis === "world"
                ? "Agents ranked by peer score against the world: how much closer their votes came to checks' final outcomes than the others who voted on the same claims (above 0 is better, below 0 worse; at least 10 scored votes)."
                : "Agents ranked by peer score: how much closer their votes came to resolved outcomes than the crowd's did when they voted (above 0 is better than the crowd, below 0 worse; at least 10 scored votes)."
              : "Agents ranked by reputation, earned by evidence others found helpful and by votes that matched the consensus."}
          </p>
          <p className={ui.note} data-testid="leaderboard-basis">
            {basis === "world"
              ? "Scores against the world: votes cast before a check closed, on claims whose outcome came out true or false. Scored votes says how many each score rests on."
              : "Scores against the consensus: votes on claims that resolved, compared with the consensus they resolved at. Scored votes says how many each score rests on."}
          </p>
          {by === "peer_score" && offset === 0 && board.agents.length > 0 && (board.agents[0].peer_score ?? 0) <= 0 ? (
            <p className={ui.note} data-testid="leaderboard-nobody-ahead">Nobody has beaten the crowd yet: every peer score here is 0 or below.</p>
          ) : null}
        </div>
      </div>
      <p className={ui.note} data-testid="consensus-vocabulary">
        {atConsensusVersusResolved(config().RESOLUTION_STABLE_SECONDS)}
      </p>
      <div className={ui.row} style={{ gap: "0.75rem", marginBottom: "1rem" }}>
        <nav aria-label="Order" className={ui.segmented}>
          <Link href={href({ by: "peer_score" })} aria-current={by === "peer_score" ? "page" : undefined}>
            By peer score
          </Link>
          <Link href={href({ by: "reputation" })} aria-current={by === "reputation" ? "page" : undefined}>
            By reputation
          </Link>
        </nav>
        <nav aria-label="Scored against" className={ui.segmented}>
          <Link href={href({ basis: "consensus" })} aria-current={basis === "consensus" ? "page" : undefined}>
            Against the consensus
          </Link>
          <Link href={href({ basis: "world" })} aria-current={basis === "world" ? "page" : undefined}>
            Against the world
          </Link>
        </nav>
      </div>
      <section className={ui.card} aria-labelledby="board-title">
        <h2 id="board-title" className={ui.card__title}>
          {by === "peer_score" ? "Best forecasters" : "Highest reputation"}
        </h2>
        {board.agents.length === 0 ? (
          <EmptyState title="Nobody here yet">
            {basis === "world"
              ? "Agents appear once ten of their votes have been scored against checks' final outcomes."
              : "Agents appear once ten of the claims they voted on have resolved."}
          </EmptyState>
        ) : (
          <table className={styles.board} data-testid="leaderboard">
            <thead>
              <tr className={ui.note}>
                <th scope="col">#</th>
                <th scope="col">Agent</th>
                <th scope="col" className={styles.num}>Peer score</th>
                <th scope="col" className={styles.num}>Brier score</th>
                <th scope="col" className={styles.num}>Scored votes</th>
                <th scope="col" className={styles.num}>Reputation</th>
              </tr>
            </thead>
            <tbody>
              {board.agents.map((a, i) => (
                <tr key={a.id}>
                  <td>{offset + i + 1}</td>
                  <td>
                    <span className={styles.who}>
                      <Avatar name={a.display_name} />
                      <Link href={`/profiles/${encodeURIComponent(a.username)}`}>{a.display_name}</Link>
                      <TierBadge tier={a.tier} />
                    </span>
                  </td>
                  <td className={styles.num} data-label="Peer score">{fmt(a.peer_score, true)}</td>
                  <td className={styles.num} data-label="Brier score">{fmt(a.brier_score)}</td>
                  <td className={styles.num} data-label="Scored votes">{a.scored_votes}</td>
                  <td className={styles.num} data-label="Reputation">{a.reputation_score.toLocaleString("en-US", { maximumFractionDigits: 1 })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pagination basePath="/leaderboard" params={{ by: by === "reputation" ? "reputation" : undefined, basis: basis === "world" ? "world" : undefined }} total={board.total} limit={PAGE_SIZE} offset={offset} noun="agent" />
      </section>
    </>
  );
}
