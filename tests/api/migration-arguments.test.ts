// Migration 'arguments' gives existing claims their folded-statement key: statements that were already
// duplicated before duplicates were refused keep their rows (the oldest takes the key, later copies a
// null one) and the migration does not fail on them (docs/features/arguments.md#duplicates). Run on a
// database migrated to just before it, on PGlite or on a fresh schema of DATABASE_URL's PostgreSQL.
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { applyMigrations, type SqlRunner } from "../../server/db/migrate.ts";

const MIGRATION = "20261125400000_arguments";
const source = path.resolve("prisma/migrations");
const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
let runner: SqlRunner;
let close: () => Promise<void>;

async function openRunner(): Promise<{ runner: SqlRunner; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = new PGlite({ extensions: { pg_trgm } });
    return {
      runner: {
        exec: async (sql) => void (await db.exec(sql)),
        query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as Record<string, unknown>[],
        withLock: (fn) => fn(),
      },
      close: () => db.close(),
    };
  }
  const schema = `m_${randomBytes(6).toString("hex")}`;
  const server = new URL(url);
  server.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  return {
    runner: {
      exec: async (sql) => void (await client.query(sql)),
      query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
      // The service's migration lock: the extension is created once per database, not per schema.
      withLock: async (fn) => {
        await client.query("SELECT pg_advisory_lock(72707369)");
        try {
          return await fn();
        } finally {
          await client.query("SELECT pg_advisory_unlock(72707369)");
        }
      },
    },
    close: async () => {
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}

function stage(including: boolean) {
  for (const name of readdirSync(source)) {
    if (name < MIGRATION || (including && name === MIGRATION) || name === "migration_lock.toml") {
      cpSync(path.join(source, name), path.join(dir, name), { recursive: true });
    }
  }
}

beforeAll(async () => {
  process.env.MIGRATIONS_DIR = dir;
  ({ runner, close } = await openRunner());
  stage(false);
  await applyMigrations(runner);
});
afterAll(async () => {
  delete process.env.MIGRATIONS_DIR;
  await close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe(`migration ${MIGRATION}`, () => {
  it("keys the oldest of each folded statement, keeps older duplicates, and refuses new ones", async () => {
    const q = (sql: string, params: unknown[] = []) => runner.query(sql, params);
    const author = randomUUID();
    await q(`INSERT INTO agents (id, username, username_key, display_name, updated_at) VALUES ($1, 'm_a', 'm_a', 'm_a', now())`, [author]);
    const claim = async (statement: string, createdAt: string) => {
      const id = randomUUID();
      await q(`INSERT INTO claims (id, statement, author_id, created_at, updated_at) VALUES ($1, $2, $3, $4, now())`, [
        id,
        statement,
        author,
        createdAt,
      ]);
      return id;
    };
    const first = await claim("Tea is healthy.", "2026-01-01T00:00:00Z");
    const copy = await claim("  tea IS healthy!! ", "2026-02-01T00:00:00Z");
    const other = await claim("Tea is not healthy.", "2026-03-01T00:00:00Z");

    stage(true);
    expect(await applyMigrations(runner)).toEqual([MIGRATION]);

    const rows = await q(`SELECT id::text AS id, statement_key FROM claims WHERE id = ANY($1::uuid[])`, [[first, copy, other]]);
    const key = (id: string) => rows.find((r) => r.id === id)!.statement_key;
    expect(key(first)).toMatch(/^[0-9a-f]{32}$/);
    expect(key(copy)).toBeNull();
    expect(key(other)).toMatch(/^[0-9a-f]{32}$/);
    expect(key(other)).not.toBe(key(first));
    // New rows get their key from the trigger, and the unique index refuses another copy.
    const fresh = await claim("Coffee is healthy", "2026-04-01T00:00:00Z");
    expect((await q(`SELECT statement_key FROM claims WHERE id = $1`, [fresh]))[0].statement_key).toMatch(/^[0-9a-f]{32}$/);
    await expect(claim("TEA is healthy", "2026-05-01T00:00:00Z")).rejects.toThrow(/statement_key/);
  });
});
