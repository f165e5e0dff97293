// The one module that knows which database runs: embedded PGlite in DATA_DIR by default,
// PostgreSQL when DATABASE_URL is set. Everything else imports `db()` and `dbReady()`.
//
// The instance lives on globalThis: Next's hot reload and its bundles (route handlers, the custom
// server) re-evaluate modules, and one PGlite data directory must be opened by one instance only.
// Nothing is opened at import time, so `next build` never touches DATA_DIR.
//
// Reads outside transactions can skip Prisma: `readSql` sends them straight to the driver.
import { createHash } from "node:crypto";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { config } from "../config.ts";
import { applyMigrations, type SqlRunner } from "./migrate.ts";

export type Db = PrismaClient;

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

interface DbState {
  prisma: PrismaClient;
  backend: "pglite" | "postgres";
  runner: SqlRunner;
  read(query: Prisma.Sql, opts?: QueryOptions): Promise<unknown[]>;
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  ready: Promise<void>;
  close(): Promise<void>;
}

const globalForDb = globalThis as unknown as { __claimsDb?: DbState };

/** `postgres://…?schema=x` (Prisma's convention) → the schema to use, and the URL without it. */
function splitSchema(url: string): { connectionString: string; schema?: string } {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? undefined;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error("DATABASE_URL: the schema parameter must be a plain identifier");
  }
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), schema };
}

const statementNames = new Map<string, string>();

/** A pg query config: named (prepared once per connection) when asked, by a hash of its text. */
function pgQuery(q: Prisma.Sql, opts?: QueryOptions): pg.QueryConfig {
  if (!opts?.prepared) return { text: q.text, values: q.values as unknown[] };
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

function openPostgres(url: string): Omit<DbState, "ready"> {
  const { connectionString, schema } = splitSchema(url);
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    // Unqualified names (raw SQL included) resolve in the configured schema.
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  pool.on("error", (err) => console.error("[db] idle client error:", err.message));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
  return {
    prisma,
    backend: "postgres",
    runner: {
      exec: async (sql) => void (await pool.query(sql)),
      query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
      withLock: async (fn) => {
        // Several app instances may start at once: one migrates, the others wait.
        const client = await pool.connect();
        try {
          if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
          await client.query("SELECT pg_advisory_lock(72707369)");
          try {
            return await fn();
          } finally {
            await client.query("SELECT pg_advisory_unlock(72707369)");
          }
        } finally {
          client.release();
        }
      },
    },
    read: pgSql(pool).query,
    transaction: async (fn) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn(pgSql(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        // A connection that cannot even roll back is discarded, not returned to the pool.
        await client.query("ROLLBACK").catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

function openPglite(dataDir: string): Omit<DbState, "ready"> {
  const pglite = dataDir.startsWith("memory://")
    ? new PGlite(dataDir)
    : new PGlite(path.resolve(/*turbopackIgnore: true*/ dataDir, "pglite"));
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    backend: "pglite",
    runner: {
      exec: async (sql) => void (await pglite.exec(sql)),
      query: async (sql, params) => (await pglite.query(sql, params as unknown[])).rows as Record<string, unknown>[],
      withLock: (fn) => fn(),
    },
    read: pgliteSql(pglite).query,
    // PGlite runs one transaction at a time and queues every other query behind it.
    transaction: (fn) => pglite.transaction((t) => fn(pgliteSql(t))),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

function open(): DbState {
  const cfg = config();
  const base = cfg.DATABASE_URL
    ? openPostgres(cfg.DATABASE_URL)
    : openPglite(process.env.PGLITE_DATA_DIR ?? cfg.DATA_DIR);
  const ready = cfg.SKIP_MIGRATIONS ? Promise.resolve() : applyMigrations(base.runner).then(() => {});
  // Surface a failed migration on every use instead of as an unhandled rejection.
  ready.catch(() => {});
  return { ...base, ready };
}

function state(): DbState {
  return (globalForDb.__claimsDb ??= open());
}

/** The Prisma client of this process. */
export function db(): PrismaClient {
  return state().prisma;
}

/** Resolves once pending migrations are applied (instant after the first call). */
export function dbReady(): Promise<void> {
  return state().ready;
}

/**
 * A read outside any transaction, sent straight to the driver (the pg pool, or PGlite, which queues it
 * behind a running transaction). Prisma 6's client engine compiles every query — `$queryRaw` included —
 * in WebAssembly on the event loop, which was 25–50 % of the CPU of the read endpoints (README,
 * Benchmark). Values are bound parameters, never spliced into the text. Rows come as the driver types
 * them: float8, int4, bool, arrays and timestamptz are JS values, but int8 (`count(*)`) may be a string
 * or a bigint — cast to int in SQL or wrap in Number().
 */
export function readSql<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> {
  return readQuery<T>(Prisma.sql(strings, ...values));
}

/** `readSql` as a prepared statement (see QueryOptions): for hot look-ups whose plan never changes. */
export function preparedSql<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> {
  return readQuery<T>(Prisma.sql(strings, ...values), { prepared: true });
}

/** `readSql` for a query assembled with `Prisma.sql`/`Prisma.join`. */
export async function readQuery<T>(query: Prisma.Sql, opts?: QueryOptions): Promise<T[]> {
  return (await state().read(query, opts)) as T[];
}

/**
 * A read-write transaction on the driver, for hot write paths (a vote is 5–9 statements: through
 * Prisma 11.4 ms of CPU, on the driver under 2 ms). Committed when `fn` resolves, rolled back when it
 * throws. Prisma's own `db().$transaction` remains the default for everything else.
 */
export function sqlTransaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  return state().transaction(fn);
}

export function dbBackend(): "pglite" | "postgres" {
  return state().backend;
}

/** Close the database (scripts and tests: an open PGlite keeps Node alive). */
export async function closeDb(): Promise<void> {
  const s = globalForDb.__claimsDb;
  if (!s) return;
  globalForDb.__claimsDb = undefined;
  await s.ready.catch(() => {});
  await s.close();
}
