// Track records and the leaderboard (docs/features/bridging.md), from the immutable outcome records (vote_outcomes)
// — the same records as the learning score and expertise accuracy. The per-agent sums the
// leaderboard sorts on (agent_track_records) are kept by a trigger on vote_outcomes.
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { toAgent, type AgentRow } from "../contract/common.ts";
import { trackRecord, LEADERBOARD_MIN_SCORED_VOTES, type TrackRecord } from "../domain/track-record.ts";
import type { Leaderboard, LeaderboardInput } from "../contract/track-record.ts";
import { findAgent } from "./profiles.ts";
import { TOMBSTONE_AGENT_ID } from "../domain/accounts.ts";
import { worldLeaderboard, worldTrackRecord } from "./world-scores.ts";
import type { WorldRecord } from "../domain/world-scores.ts";

export async function getTrackRecord(idOrUsername: string): Promise<TrackRecord & { world: WorldRecord }> {
  const agent = await findAgent(idOrUsername);
  const rows = await readSql<{ value: number | null; crowd_gradient: number | null; consensus_true: boolean }>`
    SELECT value, crowd_gradient, consensus_true FROM vote_outcomes WHERE agent_id = ${agent.id}::uuid`;
  const consensusBased = trackRecord(
    rows.map((r) => ({
      value: r.value === null ? null : Number(r.value),
      crowdGradient: r.crowd_gradient === null ? null : Number(r.crowd_gradient),
      consensusTrue: r.consensus_true,
    })),
  );
  return { ...consensusBased, world: await worldTrackRecord(agent.id) };
}

const round6 = (x: number | null) => (x === null ? null : Math.round(Number(x) * 1e6) / 1e6);

type LeaderRow = AgentRow & { scored_votes: number | null; peer_score: number | null; brier_score: number | null };

export async function getLeaderboard(input: LeaderboardInput): Promise<Leaderboard> {
  if (input.basis === "world") return worldLeaderboard(input);
  const columns = Prisma.sql`a.id::text AS id, a.username, a.display_name AS "displayName", a.avatar_url AS "avatarUrl",
    a.bio, a.reputation, a.tier::text AS tier, a.role::text AS role, a.automated, a.standing, a.created_at AS "createdAt",
    t.scored_votes, t.peer_score, t.brier_score`;
  // automated=true|false: only automated accounts, or only people; absent: everyone.
  const automatedFilter = input.automated === undefined ? Prisma.sql`true` : Prisma.sql`a.automated = ${input.automated}::boolean`;
  let rows: LeaderRow[];
  let total: number;
  if (input.by === "peer_score") {
    // The partial index on agent_track_records (peer_score DESC) WHERE scored_votes >= 10.
    const [list, count] = await Promise.all([
      readSql<LeaderRow>`
        SELECT ${columns} FROM agent_track_records t JOIN agents a ON a.id = t.agent_id
        WHERE t.scored_votes >= ${LEADERBOARD_MIN_SCORED_VOTES} AND ${automatedFilter}
        ORDER BY t.peer_score DESC, t.agent_id LIMIT ${input.limit} OFFSET ${input.offset}`,
      readSql<{ n: number }>`
        SELECT count(*)::int AS n FROM agent_track_records t JOIN agents a ON a.id = t.agent_id
        WHERE t.scored_votes >= ${LEADERBOARD_MIN_SCORED_VOTES} AND ${automatedFilter}`,
    ]);
    rows = list;
    total = count[0].n;
  } else {
    const [list, count] = await Promise.all([
      readSql<LeaderRow>`
        SELECT ${columns} FROM agents a LEFT JOIN agent_track_records t ON t.agent_id = a.id
        WHERE ${automatedFilter} AND a.id <> ${TOMBSTONE_AGENT_ID}::uuid
        ORDER BY a.reputation DESC, a.id LIMIT ${input.limit} OFFSET ${input.offset}`,
      readSql<{ n: number }>`SELECT count(*)::int AS n FROM agents a WHERE ${automatedFilter} AND a.id <> ${TOMBSTONE_AGENT_ID}::uuid`,
    ]);
    rows = list;
    total = count[0].n;
  }
  return {
    agents: rows.map((r) => ({
      ...toAgent(r),
      scored_votes: r.scored_votes === null ? 0 : Number(r.scored_votes),
      peer_score: round6(r.peer_score),
      brier_score: round6(r.brier_score),
    })),
    total,
  };
}
