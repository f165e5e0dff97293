// The one module that knows which database runs: embedded PGlite in DATA_DIR by default,
// PostgreSQL when DATABASE_URL is set. Everything else imports `db()` and `dbReady()`.
//
// The instance is process-wide (server/process-singleton.ts): Next's hot reload and its bundles (route handlers, the custom
// server) re-evaluate modules, and one PGlite data directory must be opened by one instance only.
// Nothing is opened at import time, so `next build` never touches DATA_DIR.
//
// ONE RULE FOR DATABASE ACCESS (followed by every file in server/services):
//   1. Every read written in SQL, outside a transaction, goes to the driver through the one read helper
//      `readSql` (a tagged template, or an assembled query with { prepared } for hot look-ups by key) —
//      never `db().$queryRaw`. Why: Prisma 6 compiles every query, raw ones included, in WebAssembly on the event loop (25–50 % of the CPU
//      of the read endpoints, docs/benchmarks/2026-11-21-api.md); the driver sends the text as is.
//      Reads whose cost grows with what the caller sends (the text searches) take its bounded form, `readSqlWithin`.
//   2. Every write transaction that locks rows (`SELECT … FOR [NO KEY] UPDATE`) and applies a domain
//      rule to what it read — claim votes and resolution, evidence votes and reputation, API-key
//      creation — runs on the driver: `sqlTransaction`. Why: these are the contended writes; each
//      statement's Prisma overhead would be paid while the lock makes every other writer of that row
//      wait, and the same kind of write must take the same road (one lock discipline, one set of
//      semantics). The rule's arithmetic is done by server/domain in TypeScript on the locked rows;
//      the SQL only stores the results.
//   3. Everything else uses Prisma (`db()`): CRUD by model (create, find by key, update, delete) and
//      transactions that take no explicit lock (a row created plus an atomic counter increment); those
//      that increment a claim's counter queue behind its votes and pass `WRITE_TX_OPTIONS`. A raw statement on Prisma (`$executeRaw`, or `$queryRaw` for its RETURNING)
//      is allowed only for one write the model API cannot express (an atomic increment, `ON CONFLICT`),
//      and, inside a Prisma transaction (`tx.$queryRaw`), for a read that must see that transaction (a
//      row locked `FOR UPDATE`, a row's existence checked after an UPDATE that matched nothing).
//   tests/unit/one-road.test.ts checks rules 1 and 3: no raw read on `db()`, no `$queryRawUnsafe`.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { config } from "../config.ts";
import { applyMigrations, type SqlRunner } from "./migrate.ts";
import { isNewDatabase, PGLITE_EXTENSIONS, pgliteRunner, readTemplate, saveTemplate, templatePath } from "./pglite-template.ts";
import { splitSchema } from "./url.ts";
import { readFromReplica } from "./read-routing.ts";
import { metrics, setPoolStatsSource } from "../metrics/index.ts";
import { logError } from "../log/logger.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

export type Db = PrismaClient;

/**
 * Options of every Prisma write transaction (rule 3): a counter increment on a claim row queues behind
 * the votes holding that row, so give waiting transactions room before Prisma gives up on them.
 */
export const WRITE_TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * `prepared`: run it as a named prepared statement on PostgreSQL, so each connection parses it once
 * and the planner may settle on a generic plan. For hot statements whose best plan does not depend
 * on the values (look-ups by primary key); not for searches whose plan should follow the values.
 */
export interface QueryOptions {
  prepared?: boolean;
}

/** A transaction on the driver: reads return rows, `execute` the number of rows it changed. */
export interface SqlTx {
  query<T>(query: Prisma.Sql, opts?: QueryOptions): Promise<T[]>;
  execute(query: Prisma.Sql, opts?: QueryOptions): Promise<number>;
}

/** A read inside readSqlWithin's transaction. */
export type SqlRead = <T>(query: Prisma.Sql) => Promise<T[]>;

/**
 * The set-up of a bounded read's transaction: read only, its own statement timeout, and no sequential
 * scan while an index can answer — the planner prices pg_trgm's comparisons like an equality, and a
 * scan computes one for every row (docs/features/arguments.md#what-a-search-reads).
 */
const boundedReadSetup = (timeoutMs: number | null) =>
  `SET TRANSACTION READ ONLY;${timeoutMs === null ? "" : ` SET LOCAL statement_timeout = ${timeoutMs};`} SET LOCAL enable_seqscan = off`;

interface DbState {
  prisma: PrismaClient;
  backend: "pglite" | "postgres";
  runner: SqlRunner;
  read(query: Prisma.Sql, opts?: QueryOptions): Promise<unknown[]>;
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /** Reads in one read-only transaction under a statement timeout of `timeoutMs`, with no sequential scan (readSqlWithin). */
  boundedReads<T>(timeoutMs: number, fn: (read: SqlRead) => Promise<T>): Promise<T>;
  /** Plain SQL text for libraries that bring their own (the job queue): several statements when no values. */
  raw(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount?: number }>;
  /** The PostgreSQL schema in use (DATABASE_URL's ?schema=), if any. */
  schema?: string;
  tryAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<{ locked: true; value: T } | { locked: false }>;
  /** Migrations applied. */
  migrated: Promise<void>;
  /** Run once the migrations are applied, before anything else is written (the embedded database's template). */
  afterMigrations?: () => Promise<void>;
  /** What requests wait for: `migrated`, or a task holding them after it (holdReadyFor). */
  ready: Promise<void>;
  /** One round trip to the primary and, when configured, the replica. */
  ping(): Promise<{ database: "ok" | "failed"; replica: "ok" | "failed" | "not_configured" }>;
  close(): Promise<void>;
}

const dbSlot = processSlot<DbState>("claims.db");

const statementNames = new Map<string, string>();
/** DATABASE_PREPARED_STATEMENTS=0 (a transaction-mode pooler that cannot keep them): every statement unnamed. */
let namedStatements = true;

/** A pg query config: named (prepared once per connection) when asked, by a hash of its text. */
function pgQuery(q: Prisma.Sql, opts?: QueryOptions): pg.QueryConfig {
  if (!opts?.prepared || !namedStatements) return { text: q.text, values: q.values as unknown[] };
  let name = statementNames.get(q.text);
  if (!name) {
    name = `s_${createHash("sha1").update(q.text).digest("hex").slice(0, 20)}`;
    if (statementNames.size < 1000) statementNames.set(q.text, name);
  }
  return { name, text: q.text, values: q.values as unknown[] };
}

/** Reads and writes on a pg pool or one of its clients (a transaction). */
function pgSql(on: pg.Pool | pg.PoolClient): SqlTx {
  return {
    query: async (q, opts) => (await on.query(pgQuery(q, opts))).rows,
    execute: async (q, opts) => (await on.query(pgQuery(q, opts))).rowCount ?? 0,
  };
}

/** Reads and writes on PGlite or one of its transactions (no prepared statements to name). */
function pgliteSql(on: Pick<PGlite, "query">): SqlTx {
  return {
    query: async <T>(q: Prisma.Sql) => (await on.query<T>(q.text, q.values as unknown[])).rows,
    execute: async (q) => (await on.query(q.text, q.values as unknown[])).affectedRows ?? 0,
  };
}

/** SQLSTATE 57014 query_canceled: what PostgreSQL answers when statement_timeout cuts a statement. */
const QUERY_CANCELED = "57014";

/** Prisma's answer when a transaction found no free connection within its maxWait (WRITE_TX_OPTIONS). */
const NO_CONNECTION_IN_TIME = /Unable to start a transaction in the given time/;

/**
 * Whether `err` (a pg error, or Prisma's wrapping of one, at any depth of `cause`) says the database
 * was too busy — a statement cancelled by the statement timeout, or a transaction that found no free
 * connection in time (nothing was written in either case): the API answers it with 503, not 500.
 */
export function isDatabaseBusy(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; originalCode?: unknown; meta?: { code?: unknown }; message?: unknown };
    if (x.code === QUERY_CANCELED || x.originalCode === QUERY_CANCELED || x.meta?.code === QUERY_CANCELED) return true;
    if (x.code === "P2028" && NO_CONNECTION_IN_TIME.test(String(x.message ?? ""))) return true;
  }
  return false;
}

function openPool(url: string, statementTimeoutMs: number, max = config().DATABASE_POOL_SIZE): { pool: pg.Pool; schema?: string } {
  const { connectionString, schema } = splitSchema(url);
  const pool = new pg.Pool({
    connectionString,
    max,
    // Unqualified names (raw SQL included) resolve in the configured schema.
    options: schema ? `-c search_path=${schema}` : undefined,
    // Every statement of the API (reads and writes, Prisma's included) is cut off by the server after
    // this long, so one pathological query cannot hold a connection and a core; 0 = no limit.
    statement_timeout: statementTimeoutMs > 0 ? statementTimeoutMs : undefined,
  });
  return { pool, schema };
}

const poolStats = (p: pg.Pool) => ({ total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount });

/** Set while background work runs (`onBackgroundPool`): its statements take the jobs' pool. */
const backgroundWork = new AsyncLocalStorage<true>();

/**
 * Runs `fn` — and everything it starts, timers and callbacks included — on the background work's
 * connections (JOBS_POOL_SIZE): the relay, the workers and the job queue. Requests waiting for a
 * connection under load then do not delay the followers' updates, nor these the requests. PGlite has
 * one connection for everything: nothing changes there.
 */
export function onBackgroundPool<T>(fn: () => T): T {
  return backgroundWork.run(true, fn);
}

/**
 * Runs `fn`, from background work, on the requests' connections: bulk work (walking the followers of a
 * much-followed claim) that should queue with the requests for the database, not run beside them.
 */
export function onRequestPool<T>(fn: () => T): T {
  return backgroundWork.exit(fn);
}

/**
 * `fn` on one connection of `pool`, in a transaction that `begin` opens (with its SET LOCALs, which end
 * with it): committed when `fn` resolves, rolled back when it throws.
 */
async function inTransaction<T>(pool: pg.Pool, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    // A connection that cannot even roll back is discarded, not returned to the pool.
    await client.query("ROLLBACK").catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}

function openPostgres(url: string, statementTimeoutMs: number, jobsPoolSize: number, replicaUrl?: string): Omit<DbState, "ready" | "migrated"> {
  const { pool: requestPool, schema } = openPool(url, statementTimeoutMs);
  // Opens no connection until background work asks for one.
  const jobsPool = openPool(url, statementTimeoutMs, jobsPoolSize).pool;
  jobsPool.on("error", (err) => logError("[db] idle jobs client error", err));
  const poolNow = () => (backgroundWork.getStore() ? jobsPool : requestPool);
  const pool = requestPool;
  // A streaming replica for reads outside transactions (server/db/read-routing.ts decides which go there).
  const replica = replicaUrl ? openPool(replicaUrl, statementTimeoutMs).pool : undefined;
  replica?.on("error", (err) => logError("[db] idle replica client error", err));
  setPoolStatsSource(() => {
    const stats: Record<string, ReturnType<typeof poolStats>> = { primary: poolStats(pool), jobs: poolStats(jobsPool) };
    if (replica) stats.replica = poolStats(replica);
    return stats;
  });
  const primaryRead = pgSql(pool).query;
  const jobsRead = pgSql(jobsPool).query;
  const replicaRead = replica ? pgSql(replica).query : undefined;
  const reads = metrics().dbReads;
  /** While migrating: the locked connection, with no statement timeout (a migration may be long). */
  let migrating: pg.PoolClient | undefined;
  const runOn = () => migrating ?? pool;
  pool.on("error", (err) => logError("[db] idle client error", err));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
  return {
    prisma,
    backend: "postgres",
    runner: {
      exec: async (sql) => void (await runOn().query(sql)),
      query: async (sql, params) => (await runOn().query(sql, params as unknown[])).rows,
      withLock: async (fn) => {
        // Several app instances may start at once: one migrates, the others wait.
        const client = await pool.connect();
        try {
          await client.query("SET statement_timeout = 0");
          await client.query("SELECT pg_advisory_lock(72707369)");
          // Under the lock: CREATE SCHEMA IF NOT EXISTS is not safe against a concurrent twin
          // (both pass the check, one fails on pg_namespace's unique index).
          if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
          migrating = client;
          try {
            return await fn();
          } finally {
            migrating = undefined;
            await client.query("SELECT pg_advisory_unlock(72707369)");
          }
        } finally {
          // Discarded, not pooled: its session has no statement timeout.
          client.release(true);
        }
      },
    },
    read: (q, opts) => {
      if (backgroundWork.getStore()) return jobsRead(q, opts);
      if (replicaRead && readFromReplica()) {
        reads.inc({ target: "replica" });
        return replicaRead(q, opts);
      }
      reads.inc({ target: "primary" });
      return primaryRead(q, opts);
    },
    ping: async () => {
      const [database, rep] = await Promise.all([
        pool.query("SELECT 1").then(() => "ok" as const, () => "failed" as const),
        replica ? replica.query("SELECT 1").then(() => "ok" as const, () => "failed" as const) : Promise.resolve("not_configured" as const),
      ]);
      return { database, replica: rep };
    },
    raw: async (text, values) => {
      const r = await poolNow().query(text, values);
      // Several statements answer an array of results: the last one is what the caller asked for.
      const last = Array.isArray(r) ? r[r.length - 1] : r;
      return { rows: last?.rows ?? [], rowCount: last?.rowCount ?? 0 };
    },
    schema,
    transaction: (fn) => inTransaction(poolNow(), "BEGIN", (client) => fn(pgSql(client))),
    boundedReads: (timeoutMs, fn) => {
      // The connection a plain read would take (the jobs' pool, the replica or the primary).
      const on = backgroundWork.getStore() ? jobsPool : replica && readFromReplica() ? replica : pool;
      if (on !== jobsPool) reads.inc({ target: on === replica ? "replica" : "primary" });
      // The API's own timeout stays the ceiling; the value is a whole number of milliseconds, written into the text.
      const ms = Math.max(1, Math.floor(statementTimeoutMs > 0 ? Math.min(timeoutMs, statementTimeoutMs) : timeoutMs));
      return inTransaction(on, `BEGIN; ${boundedReadSetup(ms)}`, (client) => fn(pgSql(client).query));
    },
    tryAdvisoryLock: async (key, fn) => {
      // A session lock on a connection of its own, held while fn runs: another instance's try fails.
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [key]);
        if (!rows[0]?.locked) return { locked: false };
        try {
          return { locked: true, value: await fn() };
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [key]).catch((e: Error) => (broken = e));
        }
      } finally {
        client.release(broken);
      }
    },
    close: async () => {
      setPoolStatsSource(undefined);
      await prisma.$disconnect();
      await Promise.all([pool.end(), jobsPool.end(), replica?.end()]);
    },
  };
}

const pgliteLocks = new Set<number>();

function openPglite(dataDir: string): Omit<DbState, "ready" | "migrated"> {
  const extensions = PGLITE_EXTENSIONS;
  const where = dataDir.startsWith("memory://") ? dataDir : path.resolve(/*turbopackIgnore: true*/ dataDir, "pglite");
  // A new database starts from the kept copy of a migrated one when there is one, else it is created
  // and, once migrated, kept for the next (server/db/pglite-template.ts).
  const template = isNewDatabase(where) ? templatePath(Object.keys(extensions)) : null;
  const loadDataDir = readTemplate(template);
  const pglite = new PGlite(where, { extensions, ...(loadDataDir ? { loadDataDir } : {}) });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    backend: "pglite",
    afterMigrations: template && !loadDataDir ? () => saveTemplate(pglite, template) : undefined,
    runner: pgliteRunner(pglite),
    read: pgliteSql(pglite).query,
    raw: async (text, values) => {
      // PGlite's extended protocol takes one statement: scripts without values go through exec.
      if (values && values.length) {
        const r = await pglite.query(text, values);
        return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
      }
      let results;
      try {
        results = await pglite.exec(text);
      } catch (err) {
        // A script that opened a transaction and failed must not leave the one session aborted.
        await pglite.exec("ROLLBACK").catch(() => {});
        throw err;
      }
      const last = results[results.length - 1];
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
    },
    ping: async () => ({
      database: await pglite.query("SELECT 1").then(() => "ok" as const, () => "failed" as const),
      replica: "not_configured" as const,
    }),
    // PGlite runs one transaction at a time and queues every other query behind it.
    transaction: (fn) => pglite.transaction((t) => fn(pgliteSql(t))),
    // No statement timeout in PGlite: what bounds these reads is what they are given to read.
    boundedReads: (_timeoutMs, fn) =>
      pglite.transaction(async (t) => {
        await t.exec(boundedReadSetup(null));
        return fn(pgliteSql(t).query);
      }),
    // One process owns a PGlite database: an in-process flag is the lock.
    tryAdvisoryLock: async (key, fn) => {
      if (pgliteLocks.has(key)) return { locked: false };
      pgliteLocks.add(key);
      try {
        return { locked: true, value: await fn() };
      } finally {
        pgliteLocks.delete(key);
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

function open(): DbState {
  const cfg = config();
  namedStatements = cfg.DATABASE_PREPARED_STATEMENTS;
  const base = cfg.DATABASE_URL
    ? openPostgres(cfg.DATABASE_URL, cfg.DATABASE_STATEMENT_TIMEOUT_MS, cfg.JOBS_POOL_SIZE, cfg.DATABASE_REPLICA_URL)
    : openPglite(cfg.PGLITE_DATA_DIR ?? cfg.DATA_DIR);
  const migrated = cfg.SKIP_MIGRATIONS ? Promise.resolve() : applyMigrations(base.runner).then(() => base.afterMigrations?.());
  // Surface a failed migration on every use instead of as an unhandled rejection.
  migrated.catch(() => {});
  return { ...base, migrated, ready: migrated };
}

function state(): DbState {
  return processSingleton("claims.db", open);
}

/** The Prisma client of this process. */
export function db(): PrismaClient {
  return state().prisma;
}

/** Resolves once pending migrations are applied (instant after the first call), and any task holding requests has run (holdReadyFor). */
export function dbReady(): Promise<void> {
  return state().ready;
}

/**
 * Resolves once pending migrations are applied, even while holdReadyFor holds dbReady(): for what such a
 * task itself uses (the job queue the services enqueue on), which would otherwise wait on the task.
 */
export function dbMigrated(): Promise<void> {
  return state().migrated;
}

/**
 * Holds dbReady() — what every request, page and background task awaits — until `task` has run on the
 * migrated database. `npm run dev` loads the demo data so in its Next process while Next starts and
 * compiles (server/seed/on-start.ts): no page reads a half-loaded database. Call it before anything
 * awaits dbReady(); what `task` calls must not await dbReady() (dbMigrated() instead). A failing task
 * does not hold requests: it is the task's to report.
 */
export function holdReadyFor(task: () => Promise<void>): void {
  const s = state();
  s.ready = s.ready.then(() => task().catch(() => {}));
  s.ready.catch(() => {});
}

/**
 * The one helper for reads written in SQL (rule 1 above): a read outside any transaction, sent straight
 * to the driver (the pg pool, or PGlite, which queues it behind a running transaction). Prisma 6's
 * client engine compiles every query — `$queryRaw` included — in WebAssembly on the event loop, which
 * was 25–50 % of the CPU of the read endpoints (docs/benchmarks/2026-11-21-api.md). Two forms:
 *   readSql<Row>`SELECT … WHERE id = ${id}`                      a tagged template;
 *   readSql<Row>(query, { prepared: true })                       a query assembled with Prisma.sql/join,
 *                                                                 and QueryOptions (a prepared statement
 *                                                                 for hot look-ups by key).
 * Values are bound parameters, never spliced into the text. Rows come as the driver types them:
 * float8, int4, bool, arrays and timestamptz are JS values, but int8 (`count(*)`) may be a string or a
 * bigint — cast to int in SQL or wrap in Number().
 */
export function readSql<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
export function readSql<T>(query: Prisma.Sql, opts?: QueryOptions): Promise<T[]>;
export async function readSql<T>(first: TemplateStringsArray | Prisma.Sql, ...rest: unknown[]): Promise<T[]> {
  // A tagged template's strings are an array; an assembled query is a Prisma.Sql.
  const [query, opts] = Array.isArray(first) ? [Prisma.sql(first as TemplateStringsArray, ...rest), undefined] : [first as Prisma.Sql, rest[0] as QueryOptions | undefined];
  return (await state().read(query, opts)) as T[];
}

/**
 * A read-write transaction on the driver, for the write transactions that lock rows (rule 2 above; a
 * vote is 5–9 statements: through Prisma 11.4 ms of CPU, on the driver under 2 ms). Committed when
 * `fn` resolves, rolled back when it throws.
 */
export function sqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  return state().transaction(fn);
}

/**
 * Reads whose cost grows with what the caller sends (the text searches: docs/features/arguments.md#what-a-search-reads),
 * on the driver like readSql: `fn`'s reads run in one read-only transaction, under a statement timeout of
 * their own (`timeoutMs`, never more than DATABASE_STATEMENT_TIMEOUT_MS), and the planner may not scan a
 * table where an index can answer. When the timeout cuts a read, the answer is `null` — the caller answers
 * with what it has instead of a 503 — and the connection is free again after `timeoutMs`. PGlite has no
 * statement timeout: there the reads must be bounded by what they are given (a prefix of the text, a
 * LIMIT on the candidates), and they hold the one connection while they run.
 */
export async function readSqlWithin<T>(timeoutMs: number, fn: (read: SqlRead) => Promise<T>): Promise<T | null> {
  try {
    return await state().boundedReads(timeoutMs, fn);
  } catch (err) {
    if (isDatabaseBusy(err)) return null;
    throw err;
  }
}

/** Plain SQL for the job queue library (pg-boss's `db.executeSql`), on whichever database runs. */
export function rawSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount?: number }> {
  return state().raw(text, values);
}

/** The PostgreSQL schema of DATABASE_URL (`?schema=`), or undefined (public, or PGlite). */
export function dbSchema(): string | undefined {
  return state().schema;
}

/**
 * Runs `fn` while holding the advisory lock `key` (PostgreSQL: a session lock, so one instance at a
 * time across processes; PGlite: within this process), or does nothing when another holder has it.
 */
export function tryWithAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<{ locked: true; value: T } | { locked: false }> {
  return state().tryAdvisoryLock(key, fn);
}

/** Readiness: one round trip to the primary and, when configured, the replica. */
export function pingDatabases(): ReturnType<DbState["ping"]> {
  return state().ping();
}

export function dbBackend(): "pglite" | "postgres" {
  return state().backend;
}

/** Close the database (scripts and tests: an open PGlite keeps Node alive). */
export async function closeDb(): Promise<void> {
  const s = dbSlot.take();
  if (!s) return;
  await s.ready.catch(() => {});
  await s.close();
}
