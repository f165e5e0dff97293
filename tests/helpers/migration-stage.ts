// A database migrated up to just before one migration, to test that migration on data in the old
// shape: an in-memory PGlite (with pg_trgm, as the service loads it), or a fresh schema of
// DATABASE_URL's PostgreSQL (dropped on close). The migrations are applied from a copy of
// prisma/migrations that holds only those before the one under test; applyTarget() adds it and runs it.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { applyMigrations, type SqlRunner } from "../../server/db/migrate.ts";

export interface MigrationStage {
  /** Runs one statement on the staged database. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Applies the migration under test; returns the names of the migrations that ran. */
  applyTarget(): Promise<string[]>;
  close(): Promise<void>;
}

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
      // The service's migration lock: an extension is created once per database, not per schema, so
      // test files migrating at once must take turns.
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

/** A database with every migration before `migration` (a folder name of prisma/migrations) applied. */
export async function migratedUpTo(migration: string): Promise<MigrationStage> {
  const source = path.resolve("prisma/migrations");
  const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
  const stage = (including: boolean) => {
    for (const name of readdirSync(source)) {
      if (name < migration || (including && name === migration) || name === "migration_lock.toml") {
        cpSync(path.join(source, name), path.join(dir, name), { recursive: true });
      }
    }
  };
  const { runner, close } = await openRunner();
  stage(false);
  await applyMigrations(runner, dir);
  return {
    query: (sql, params = []) => runner.query(sql, params),
    applyTarget: () => {
      stage(true);
      return applyMigrations(runner, dir);
    },
    close: async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
