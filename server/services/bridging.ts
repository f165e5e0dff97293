// Bridged consensus, run against the database (docs/features/bridging.md): the full fit, the re-score of claims
// with new votes between fits (their background schedule: the `bridging` task of server/jobs/index.ts). The model itself is server/domain/bridging.ts.
//
// A full fit runs in a worker thread that reads every claim vote itself (PostgreSQL: a cursor on a
// connection of its own; PGlite: read here and handed over) into flat typed arrays — 1M votes are
// 16 MB — and fits them. Only claims and agents whose results changed are written, in batches of
// UPDATE … FROM unnest(…). One instance at a time (an advisory lock), and at most every BRIDGING_INTERVAL_SECONDS
// across instances (the last fit's time is in bridging_model).
import { config } from "../config.ts";
import { dbBackend, readSql, sqlTransaction, tryWithAdvisoryLock, type SqlTx } from "../db/client.ts";
import type { VoteSnapshot } from "../db/vote-stream.ts";
import { Prisma } from "../db/generated/client.ts";
import {
  claimsBridging,
  rescoreFromSums,
  DEFAULT_BRIDGING_OPTIONS,
  type BridgingFit,
  type BridgingStatus,
  type ClaimBridging,
  type FrozenSums,
  VoteMatrixBuilder,
} from "../domain/bridging.ts";
import { EventLoopGauge, fitOffThread, workerOldGenerationMb, type FitSource } from "./bridging-fit.ts";
import { yieldPauseMs } from "../domain/yielding.ts";
import { restateConsensus } from "./consensus.ts";

/** pg_advisory_lock key of the full fit ("bridging" in a 31-bit number). */
export const BRIDGING_LOCK_KEY = 0x62726467;
const READ_BATCH = 20_000;
/**
 * Rows per write transaction. Small, so that each burst of database work a background fit makes
 * between its pauses is short (≈30 ms): an API request that overlaps one is held up by at most that.
 */
const WRITE_BATCH = 1_000;
/** Claims re-scored per round of the re-score between fits. */
export const RESCORE_BATCH = 500;

/**
 * Every counted claim vote (docs/features/consensus.md#standing: only votes with standing enter the
 * model, so only they can bridge a claim) on PGlite, in keyset batches (the (claim_id, agent_id) unique index) on this
 * thread: PGlite is in-process, its one connection is ours. PostgreSQL never comes here: the
 * fit's worker thread reads the votes on a connection of its own (server/db/vote-stream.ts).
 */
export async function readVoteSnapshot(batch = READ_BATCH): Promise<VoteSnapshot> {
  const builder = new VoteMatrixBuilder();
  let after: { c: string; a: string } | null = null;
  for (;;) {
    const keyset: Prisma.Sql = after ? Prisma.sql`AND (claim_id, agent_id) > (${after.c}::uuid, ${after.a}::uuid)` : Prisma.empty;
    const rows: { c: string; a: string; v: number }[] = await readSql(
      Prisma.sql`SELECT claim_id::text AS c, agent_id::text AS a, value AS v FROM claim_votes WHERE counted ${keyset}
                 ORDER BY claim_id, agent_id LIMIT ${batch}`,
    );
    for (const r of rows) builder.add(r.c, r.a, Number(r.v));
    if (rows.length < batch) break;
    after = { c: rows[rows.length - 1].c, a: rows[rows.length - 1].a };
  }
  return builder.build();
}

export interface FitSummary {
  votes: number;
  fittedVotes: number;
  claims: number;
  agents: number;
  iterations: number;
  rmse: number;
  readMs: number;
  fitMs: number;
  writeMs: number;
  changedClaims: number;
  changedAgents: number;
  statuses: Record<BridgingStatus, number>;
}

/** Called before each write batch with the rows the previous one changed. */
type Pace = (changedBefore: number) => Promise<void>;

/**
 * Spaces the write batches of a background fit by how busy the API is (domain/yielding.ts): a first fit
 * rewrites every claim's bridging row, and on a saturated server each batch is followed by a pause up to
 * 19 times as long, so the API's statements keep their latency; on an idle one there is no pause.
 * Batches that only compared are not followed by a pause. The CLI does not pace.
 */
function pacer(gauge: EventLoopGauge): Pace {
  let last: number | null = null;
  return async (changedBefore) => {
    if (last !== null && changedBefore > 0) {
      const pause = yieldPauseMs(performance.now() - last, gauge.busy);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    last = performance.now();
  };
}

/** Writes the claims whose bridging changed (4 decimals); returns how many rows changed. */
async function writeClaimResults({
  ids,
  results,
  at,
  pace,
}: {
  /** The claims' ids, and their results at the same index. */
  ids: readonly string[];
  results: readonly ClaimBridging[];
  at: Date;
  pace: Pace;
}): Promise<number> {
  let changed = 0;
  let changedNow = 0;
  for (let i = 0; i < ids.length; i += WRITE_BATCH) {
    await pace(changedNow);
    const slice = results.slice(i, i + WRITE_BATCH);
    changedNow = await sqlTransaction(async (tx) => {
      await relaxCommit(tx);
      return updateClaims(tx, { ids: ids.slice(i, i + WRITE_BATCH), results: slice, at });
    });
    changed += changedNow;
  }
  return changed;
}

/**
 * A full fit's write batches commit without waiting for the WAL flush: a crash can lose at most the
 * last moment of them, and the next fit recomputes the same values (PGlite has no such setting).
 */
async function relaxCommit(tx: SqlTx): Promise<void> {
  if (dbBackend() === "postgres") await tx.execute(Prisma.sql`SET LOCAL synchronous_commit = off`);
}

/**
 * Writes the bridging rows that changed and restates those claims' consensus status
 * (services/consensus.ts) in the same transaction; returns how many bridging rows changed. The claim
 * rows are locked first (in id order), as votes and the re-score take them: claim, then bridging row.
 */
async function updateClaims(
  tx: SqlTx,
  { ids, results, at }: { ids: readonly string[]; results: readonly ClaimBridging[]; at: Date },
): Promise<number> {
  if (ids.length === 0) return 0;
  const values = Prisma.sql`unnest(${ids}::uuid[], ${results.map((r) => r.score)}::float8[], ${results.map((r) => r.polarity)}::float8[],
                ${results.map((r) => r.status)}::text[]) AS u(id, score, polarity, status)`;
  const differs = Prisma.sql`(c.status::text <> u.status OR c.score IS DISTINCT FROM u.score OR c.polarity IS DISTINCT FROM u.polarity)`;
  const locked = await tx.query<{ id: string }>(Prisma.sql`
    SELECT k.id::text AS id FROM claims k
    WHERE k.id IN (SELECT c.claim_id FROM claim_bridging c JOIN ${values} ON u.id = c.claim_id WHERE ${differs})
    ORDER BY k.id FOR NO KEY UPDATE`);
  if (locked.length === 0) return 0;
  const changed = await tx.query<{ claim_id: string; status: BridgingStatus }>(Prisma.sql`
    UPDATE claim_bridging c SET score = u.score, polarity = u.polarity,
      status = u.status::"BridgingStatus", computed_at = ${at}
    FROM ${values}
    WHERE c.claim_id = u.id AND c.claim_id = ANY(${locked.map((l) => l.id)}::uuid[]) AND ${differs}
    RETURNING c.claim_id::text AS claim_id, c.status::text AS status`);
  // Every changed row, not only those whose status the snapshot says changed: another instance's
  // re-score may have written a status in between that this one replaces.
  await restateConsensus(tx, changed);
  return changed.length;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Writes the fitted agents' parameters that changed; drops those of agents the fit left out. */
async function writeAgentResults({
  agentIds,
  fit,
  at,
  pace,
}: {
  agentIds: readonly string[];
  fit: BridgingFit;
  at: Date;
  pace: Pace;
}): Promise<number> {
  let changed = 0;
  let changedNow = 0;
  for (let i = 0; i < agentIds.length; i += WRITE_BATCH) {
    await pace(changedNow);
    const ids: string[] = [];
    const intercept: number[] = [];
    const factor: number[] = [];
    const votes: number[] = [];
    const dropped: string[] = [];
    for (let a = i; a < Math.min(agentIds.length, i + WRITE_BATCH); a++) {
      if (fit.agentVotes[a] === 0) {
        dropped.push(agentIds[a]);
        continue;
      }
      ids.push(agentIds[a]);
      intercept.push(round6(fit.agentIntercept[a]));
      factor.push(round6(fit.agentFactor[a]));
      votes.push(fit.agentVotes[a]);
    }
    changedNow = await sqlTransaction(async (tx) => {
      await relaxCommit(tx);
      let n = 0;
      if (ids.length) {
        n += await tx.execute(Prisma.sql`
          INSERT INTO agent_bridging AS b (agent_id, intercept, factor, votes, computed_at)
          SELECT id, i, f, n, ${at} FROM unnest(${ids}::uuid[], ${intercept}::float8[], ${factor}::float8[], ${votes}::int[]) AS u(id, i, f, n)
          WHERE EXISTS (SELECT 1 FROM agents WHERE agents.id = u.id)
          ON CONFLICT (agent_id) DO UPDATE SET intercept = EXCLUDED.intercept, factor = EXCLUDED.factor,
            votes = EXCLUDED.votes, computed_at = EXCLUDED.computed_at
          WHERE (b.intercept, b.factor, b.votes) IS DISTINCT FROM (EXCLUDED.intercept, EXCLUDED.factor, EXCLUDED.votes)`);
      }
      if (dropped.length) n += await tx.execute(Prisma.sql`DELETE FROM agent_bridging WHERE agent_id = ANY(${dropped}::uuid[])`);
      return n;
    });
    changed += changedNow;
  }
  return changed;
}

export interface FitOptions {
  /** Fit on this thread instead of a worker (tests). */
  inline?: boolean;
  /**
   * An operator's command (`npm run bridging:refit`): the worker at the caller's priority, no pauses
   * between write batches. In the background (the default) the worker runs at BRIDGING_WORKER_NICE and
   * the writes are paced.
   */
  foreground?: boolean;
  /** Skip unless the last fit (any instance) is at least this old. */
  minIntervalSeconds?: number;
  now?: () => Date;
  /**
   * Fit these votes instead of reading them: the open data's snapshot reads them in its own transaction
   * and publishes this fit (docs/features/open-data.md). `onFit` sees the fit before it is written.
   */
  votes?: VoteSnapshot;
  onFit?: (fit: BridgingFit) => void;
}

/** When the last full fit finished, and its μ and factor scale; null before the first. */
export async function lastFit(): Promise<{ mu: number; factorScale: number; fittedAt: Date } | null> {
  const [row] = await readSql<{ mu: number; factor_scale: number; fitted_at: Date }>`
    SELECT mu, factor_scale, fitted_at FROM bridging_model WHERE id = 1`;
  return row ? { mu: Number(row.mu), factorScale: Number(row.factor_scale), fittedAt: row.fitted_at } : null;
}

/**
 * One full fit. Returns null when another instance holds the lock, or when `minIntervalSeconds` says
 * the last fit is recent enough.
 */
export async function runBridgingFit(options: FitOptions = {}): Promise<FitSummary | null> {
  const now = options.now ?? (() => new Date());
  const outcome = await tryWithAdvisoryLock(BRIDGING_LOCK_KEY, async () => {
    if (options.minIntervalSeconds) {
      const last = await lastFit();
      if (last && now().getTime() - last.fittedAt.getTime() < options.minIntervalSeconds * 1000) return null;
    }
    const t0 = performance.now();
    const { DATABASE_URL: url, BRIDGING_WORKER_NICE: nice } = config();
    let source: FitSource;
    let oldGenerationMb: number | undefined;
    if (options.votes) source = { snapshot: options.votes };
    else if (dbBackend() === "postgres" && url) {
      source = { postgres: url };
      // Sizes the worker's heap: it will hold at most this many claim and agent ids.
      const [{ ids }] = await readSql<{ ids: number }>`SELECT ((SELECT count(*) FROM claims) + (SELECT count(*) FROM agents))::int AS ids`;
      oldGenerationMb = workerOldGenerationMb(ids);
    } else source = { snapshot: await readVoteSnapshot() };
    const pgliteReadMs = performance.now() - t0;
    const background = !options.inline && !options.foreground;
    const gauge = background ? new EventLoopGauge() : undefined;
    try {
      const { fit, claimIds, agentIds, votes, readMs } = await fitOffThread(source, {
        inline: options.inline,
        nice: background ? nice : 0,
        oldGenerationMb,
        busy: gauge?.shared,
      });
      const t2 = performance.now();
      options.onFit?.(fit);
      // The read happened here (PGlite) or in the worker (PostgreSQL): the fit is the rest of the wait.
      const t1 = t0 + ("snapshot" in source ? pgliteReadMs : readMs);
      const results = claimsBridging(fit);
      const at = now();
      const pace = gauge ? pacer(gauge) : async () => {};
      const changedClaims = await writeClaimResults({ ids: claimIds, results, at, pace });
      // Claims that lost all their counted votes are no longer in the snapshot.
      // (A claim without them has no_votes whatever its bridging row says: its consensus stays.)
      const emptied = await sqlTransaction((tx) =>
        tx.execute(Prisma.sql`
          UPDATE claim_bridging b SET score = NULL, polarity = NULL, status = 'insufficient_data', computed_at = ${at}
          FROM claims c
          WHERE c.id = b.claim_id AND c.counted_vote_count = 0 AND b.status <> 'insufficient_data'`),
      );
      const changedAgents = await writeAgentResults({ agentIds, fit, at, pace });
      const t3 = performance.now();
      await sqlTransaction((tx) =>
        tx.execute(Prisma.sql`
          INSERT INTO bridging_model (id, mu, factor_scale, fitted_votes, agents, claims, iterations, rmse, duration_ms, fitted_at)
          VALUES (1, ${fit.mu}, ${fit.factorScale}, ${fit.fittedVotes}, ${fit.agentVotes.filter((n) => n > 0).length},
                  ${fit.claimVotes.filter((n) => n > 0).length}, ${fit.iterations}, ${fit.rmse}, ${Math.round(t3 - t0)}, ${at})
          ON CONFLICT (id) DO UPDATE SET mu = EXCLUDED.mu, factor_scale = EXCLUDED.factor_scale,
            fitted_votes = EXCLUDED.fitted_votes, agents = EXCLUDED.agents, claims = EXCLUDED.claims,
            iterations = EXCLUDED.iterations, rmse = EXCLUDED.rmse, duration_ms = EXCLUDED.duration_ms,
            fitted_at = EXCLUDED.fitted_at`),
      );
      const statuses = Object.fromEntries(
        ["insufficient_data", "bridged_true", "bridged_false", "divided", "undecided"].map((s) => [s, 0]),
      ) as Record<BridgingStatus, number>;
      for (const r of results) statuses[r.status]++;
      return {
        votes,
        fittedVotes: fit.fittedVotes,
        claims: claimIds.length,
        agents: agentIds.length,
        iterations: fit.iterations,
        rmse: fit.rmse,
        readMs: Math.round(t1 - t0),
        fitMs: Math.round(t2 - t1),
        writeMs: Math.round(t3 - t2),
        changedClaims: changedClaims + emptied,
        changedAgents,
        statuses,
      } satisfies FitSummary;
    } finally {
      gauge?.stop();
    }
  });
  return outcome.locked ? outcome.value : null;
}

/**
 * Re-scores these claims against the last fit's frozen μ and agent parameters (in one transaction:
 * the model, the sums of the claims' votes by fitted agents, one UPDATE of those that changed).
 * Returns how many changed.
 */
export async function rescoreClaims(claimIds: readonly string[], now = new Date()): Promise<number> {
  if (claimIds.length === 0) return 0;
  return sqlTransaction(async (tx) => {
    const [row] = await tx.query<{ mu: number; factor_scale: number }>(Prisma.sql`SELECT mu, factor_scale FROM bridging_model WHERE id = 1`);
    if (!row) return 0; // nothing is frozen before the first fit; it will score them
    return rescoreIn(tx, { model: { mu: Number(row.mu), factorScale: Number(row.factor_scale) }, claimIds, now });
  });
}

/**
 * The re-score inside a transaction (`model` read before it: PGlite queues reads behind a transaction).
 * PostgreSQL adds up each claim's votes (FrozenSums): one row per claim comes back, not one per vote
 * (a claim with 15,000 votes: 53 → 18–21 ms), and the domain solves the claim step from the sums.
 */
async function rescoreIn(
  t: SqlTx,
  { model, claimIds, now }: { model: { mu: number; factorScale: number }; claimIds: readonly string[]; now: Date },
): Promise<number> {
  const rows = await t.query<{ claim_id: string } & FrozenSums>(Prisma.sql`
    SELECT s.claim_id::text AS claim_id, s.n, s.sx, s.sxx, s.sy, s.sxy
    FROM (SELECT v.claim_id, count(*)::int AS n, sum(b.factor) AS sx, sum(b.factor * b.factor) AS sxx,
                 sum(v.value - ${model.mu}::float8 - b.intercept) AS sy,
                 sum(b.factor * (v.value - ${model.mu}::float8 - b.intercept)) AS sxy
          FROM claim_votes v JOIN agent_bridging b ON b.agent_id = v.agent_id
          WHERE v.claim_id = ANY(${claimIds}::uuid[]) AND v.counted
          GROUP BY v.claim_id) s`);
  const none: FrozenSums = { n: 0, sx: 0, sxx: 0, sy: 0, sxy: 0 };
  const sumsOf = new Map<string, FrozenSums>(claimIds.map((id) => [id, none]));
  for (const r of rows) {
    sumsOf.set(r.claim_id, { n: r.n, sx: Number(r.sx), sxx: Number(r.sxx), sy: Number(r.sy), sxy: Number(r.sxy) });
  }
  const ids = [...sumsOf.keys()];
  const results = ids.map((id) => rescoreFromSums({ ...model, sums: sumsOf.get(id)!, options: DEFAULT_BRIDGING_OPTIONS }));
  return updateClaims(t, { ids, results, at: now });
}

/** Takes up to `limit` claims off the pending queue and re-scores them; returns how many it took. */
export async function rescorePending(limit = RESCORE_BATCH, now = new Date()): Promise<number> {
  const model = await lastFit();
  if (!model) return 0;
  return sqlTransaction(async (tx) => {
    // The claim rows first, as a vote takes them (its claim row, then its pending mark): taking the
    // marks first would deadlock with a vote that holds its claim and re-marks it. SKIP LOCKED: a claim
    // being voted on now is left for the next round (that vote marks it again anyway), and two instances
    // draining the queue take different claims.
    // (The marks of claims deleted meanwhile go too: nothing else would ever take them.)
    const taken = await tx.query<{ claim_id: string }>(Prisma.sql`
      WITH pick AS (SELECT claim_id FROM bridging_pending ORDER BY marked_at LIMIT ${limit}),
      claim AS (
        SELECT c.id FROM claims c WHERE c.id IN (SELECT claim_id FROM pick)
        ORDER BY c.id FOR NO KEY UPDATE SKIP LOCKED),
      gone AS (
        DELETE FROM bridging_pending p
        WHERE p.claim_id IN (SELECT claim_id FROM pick) AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = p.claim_id))
      DELETE FROM bridging_pending p USING claim WHERE p.claim_id = claim.id
      RETURNING p.claim_id::text AS claim_id`);
    if (taken.length) await rescoreIn(tx, { model, claimIds: taken.map((t) => t.claim_id), now });
    return taken.length;
  });
}
