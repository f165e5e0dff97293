// Platform statistics (docs/api.md#discovery), cached for 5 minutes in the shared cache so that every server
// instance answers the same numbers and the same `updated_at`. Each number is cheap on its own:
// maintained counters, index range scans, or a 7-day window over the created_at indexes.
import { readSql } from "../db/client.ts";
import { cache, type Cache } from "../cache/index.ts";
import type { PlatformStats } from "../contract/stats.ts";
import { claimsCounter } from "./claims.ts";
import { visibleClaim, visibleComment, visibleEvidence } from "./visibility.ts";
import { TOMBSTONE_AGENT_ID } from "../domain/accounts.ts";

export const PLATFORM_STATS_TTL_SECONDS = 5 * 60;
export const ACTIVE_AGENTS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
// v2: claims_at_consensus counts consensus statuses (docs/features/consensus.md), not gradients.
const CACHE_KEY = "stats:platform:v2";

/** Σ of the striped vote counters kept by triggers on claim_votes (migration discovery_counters). */
async function totalClaimVotes(): Promise<number> {
  const [row] = await readSql<{ n: number | null }>`
    SELECT sum(value)::float8 AS n FROM platform_counters WHERE name LIKE 'claim_votes:%'`;
  return Number(row?.n ?? 0);
}

/** Every agent (an index-only scan of the primary key; 20k agents ≈ 2 ms). */
async function agentsCount(): Promise<number> {
  // The tombstone of deleted accounts is nobody (docs/features/accounts.md).
  const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM agents WHERE id <> ${TOMBSTONE_AGENT_ID}::uuid`;
  return row.n;
}

/** Claims whose consensus status is consensus_true or consensus_false: two ranges of the (consensus_status, …) index. */
async function claimsAtConsensus(): Promise<number> {
  const [row] = await readSql<{ n: number }>`
    SELECT count(*)::int AS n FROM claims c
    WHERE c.consensus_status IN ('consensus_true', 'consensus_false') AND ${visibleClaim("c")}`;
  return Number(row.n);
}

async function activeAgentsSince(since: Date): Promise<number> {
  const [row] = await readSql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      SELECT agent_id FROM claim_votes WHERE created_at >= ${since}
      UNION SELECT author_id FROM evidence e WHERE created_at >= ${since} AND ${visibleEvidence("e")}
      UNION SELECT author_id FROM comments c WHERE created_at >= ${since} AND ${visibleComment("c")}
      UNION SELECT author_id FROM claims c WHERE created_at >= ${since} AND ${visibleClaim("c")}
    ) active`;
  return Number(row.n);
}

export async function computePlatformStats(now = new Date()): Promise<PlatformStats> {
  const [totalClaims, totalAgents, totalVotes, atConsensus, active] = await Promise.all([
    claimsCounter(),
    agentsCount(),
    totalClaimVotes(),
    claimsAtConsensus(),
    activeAgentsSince(new Date(now.getTime() - ACTIVE_AGENTS_WINDOW_MS)),
  ]);
  return {
    total_claims: totalClaims,
    total_agents: totalAgents,
    total_votes: totalVotes,
    claims_at_consensus: atConsensus,
    active_agents_7d: active,
    updated_at: now.toISOString(),
  };
}

export function platformStats(store: Cache = cache()): Promise<PlatformStats> {
  return store.getOrCompute(CACHE_KEY, PLATFORM_STATS_TTL_SECONDS, () => computePlatformStats());
}

/**
 * The cached statistics as stored (JSON text), or undefined when nothing is cached: the REST adapter
 * keeps its serialised answer until this text changes (docs/api.md#discovery).
 */
export function platformStatsText(store: Cache = cache()): Promise<string | undefined> {
  return store.getText(CACHE_KEY);
}

/**
 * Recomputes the shared statistics now: after a hide or restore (docs/features/moderation.md) the totals change at
 * once, not when the cached copy expires.
 */
export async function refreshPlatformStats(store: Cache = cache()): Promise<void> {
  await store.set(CACHE_KEY, await computePlatformStats(), PLATFORM_STATS_TTL_SECONDS);
}
