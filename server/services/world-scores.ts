// Scores against the world (docs/features/checks.md#scores): the scored votes of final true/false
// checks — each vote's last value before its claim's close_at: the value kept at close
// (check_votes_at_close) when the vote changed or went after it, else the vote as it stands when it
// was last written before close_at — an account's record from them, the leaderboard on them, and the
// crowd's own calibration (its gradient and consensus at close_at against the outcome).
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { toAgent, type AgentRow } from "../contract/common.ts";
import type { CalibrationTable } from "../contract/checks.ts";
import type { Leaderboard, LeaderboardInput } from "../contract/track-record.ts";
import { TOMBSTONE_AGENT_ID } from "../domain/accounts.ts";
import { LEADERBOARD_MIN_SCORED_VOTES } from "../domain/track-record.ts";
import { visibleClaim } from "./visibility.ts";
import { brierOf, reliability, withOthersMean, worldRecord, type ScoredVote, type WorldRecord } from "../domain/world-scores.ts";

interface ScoredRow {
  claim_id: string;
  agent_id: string;
  value: number;
  truth: boolean;
}

/** The scored votes of the final true/false checks that `finals` (a condition on claim_checks `ck`) keeps. */
async function scoredVotes(finals: Prisma.Sql): Promise<(ScoredRow & { othersMean: number | null; claimId: string })[]> {
  const rows = await readSql<ScoredRow>(Prisma.sql`
    WITH finals AS (
      SELECT ck.claim_id, ck.close_at, ck.outcome = 'true' AS truth FROM claim_checks ck
      WHERE ck.stage = 'final' AND ck.outcome IN ('true', 'false') AND ${finals}
    )
    SELECT fi.claim_id::text AS claim_id, f.agent_id::text AS agent_id, f.value, fi.truth
    FROM finals fi JOIN check_votes_at_close f ON f.claim_id = fi.claim_id
    UNION ALL
    SELECT fi.claim_id::text, v.agent_id::text, v.value, fi.truth
    FROM finals fi JOIN claim_votes v ON v.claim_id = fi.claim_id
    WHERE v.updated_at < fi.close_at
      AND NOT EXISTS (SELECT 1 FROM check_votes_at_close f WHERE f.claim_id = v.claim_id AND f.agent_id = v.agent_id)
    ORDER BY 1, 2`);
  return withOthersMean(rows.map((r) => ({ ...r, value: Number(r.value), claimId: r.claim_id })));
}

const asScored = (r: { value: number; truth: boolean; othersMean: number | null }): ScoredVote => ({
  value: r.value,
  outcome: r.truth ? 1 : 0,
  othersMean: r.othersMean,
});

/** An account's track record against the world (`world` of GET /profiles/{id}/track-record). */
export async function worldTrackRecord(agentId: string): Promise<WorldRecord> {
  const votes = await scoredVotes(Prisma.sql`ck.claim_id IN (
    SELECT claim_id FROM check_votes_at_close WHERE agent_id = ${agentId}::uuid
    UNION SELECT claim_id FROM claim_votes WHERE agent_id = ${agentId}::uuid)`);
  return worldRecord(votes.filter((v) => v.agent_id === agentId).map(asScored));
}

const round6 = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

/**
 * The leaderboard against the world (basis=world): accounts with at least LEADERBOARD_MIN_SCORED_VOTES
 * scored votes by their mean world peer score (then id), or every account by reputation with its world
 * scores beside. Computed from every scored vote per call (O(scored votes)).
 */
export async function worldLeaderboard(input: LeaderboardInput): Promise<Leaderboard> {
  const byAgent = new Map<string, ScoredVote[]>();
  for (const v of await scoredVotes(Prisma.sql`true`)) {
    byAgent.set(v.agent_id, [...(byAgent.get(v.agent_id) ?? []), asScored(v)]);
  }
  const records = new Map([...byAgent].map(([id, votes]) => [id, worldRecord(votes)]));
  const automatedFilter = input.automated === undefined ? Prisma.sql`true` : Prisma.sql`a.automated = ${input.automated}::boolean`;
  const columns = Prisma.sql`a.id::text AS id, a.username, a.display_name AS "displayName", a.avatar_url AS "avatarUrl",
    a.bio, a.reputation, a.tier::text AS tier, a.role::text AS role, a.automated, a.standing, a.created_at AS "createdAt"`;
  let agents: AgentRow[];
  let total: number;
  if (input.by === "peer_score") {
    const ranked = [...records]
      .filter(([, r]) => r.scored >= LEADERBOARD_MIN_SCORED_VOTES && r.peer !== null)
      .map(([id]) => id);
    const rows = ranked.length
      ? await readSql<AgentRow>(Prisma.sql`SELECT ${columns} FROM agents a WHERE a.id = ANY(${ranked}::uuid[]) AND ${automatedFilter}`)
      : [];
    rows.sort((x, y) => (records.get(y.id)!.peer as number) - (records.get(x.id)!.peer as number) || (x.id < y.id ? -1 : 1));
    total = rows.length;
    agents = rows.slice(input.offset, input.offset + input.limit);
  } else {
    const [list, count] = await Promise.all([
      readSql<AgentRow>(Prisma.sql`
        SELECT ${columns} FROM agents a WHERE ${automatedFilter} AND a.id <> ${TOMBSTONE_AGENT_ID}::uuid
        ORDER BY a.reputation DESC, a.id LIMIT ${input.limit} OFFSET ${input.offset}`),
      readSql<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM agents a WHERE ${automatedFilter} AND a.id <> ${TOMBSTONE_AGENT_ID}::uuid`),
    ]);
    agents = list;
    total = count[0].n;
  }
  return {
    agents: agents.map((a) => {
      const r = records.get(a.id);
      return { ...toAgent({ ...a, reputation: Number(a.reputation) }), scored_votes: r?.scored ?? 0, peer_score: round6(r?.peer ?? null), brier_score: round6(r?.brier ?? null) };
    }),
    total,
  };
}

/**
 * GET /stats/calibration: over final true/false checks whose claims had a vote before close_at, the
 * crowd's gradient at close_at (the last one recorded before it) against the outcome — ten bins, the
 * Brier score — and of those whose consensus at close_at was consensus_true or consensus_false, how
 * many the outcome matched.
 */
export async function crowdCalibration(): Promise<CalibrationTable> {
  const rows = await readSql<{ gradient: number | null; truth: boolean; consensus: string }>(Prisma.sql`
    SELECT (SELECT h.gradient FROM gradient_history h WHERE h.claim_id = ck.claim_id AND h.recorded_at < ck.close_at
            ORDER BY h.id DESC LIMIT 1) AS gradient,
           ck.outcome = 'true' AS truth,
           coalesce(ck.close_consensus, c.consensus_status::text) AS consensus
    FROM claim_checks ck JOIN claims c ON c.id = ck.claim_id
    WHERE ck.stage = 'final' AND ck.outcome IN ('true', 'false') AND ${visibleClaim("c")}`);
  const points = rows.filter((r) => r.gradient !== null).map((r) => ({ p: Number(r.gradient), outcome: (r.truth ? 1 : 0) as 0 | 1 }));
  const stated = rows.filter((r) => r.consensus === "consensus_true" || r.consensus === "consensus_false");
  return {
    n: points.length,
    brier: points.length ? points.reduce((s, x) => s + brierOf(x.p, x.outcome), 0) / points.length : null,
    bins: reliability(points),
    consensus: { n: stated.length, right: stated.filter((r) => (r.consensus === "consensus_true") === r.truth).length },
  };
}
