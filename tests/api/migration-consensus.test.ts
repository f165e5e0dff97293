// Migration 'consensus' fills each existing claim's vote histogram from its votes and its consensus
// status by the rule (docs/features/consensus.md), leaving resolved claims resolved. Run on a database
// migrated to just before it, with data in the old shape, on PGlite or on a fresh schema of
// DATABASE_URL's PostgreSQL.
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { applyMigrations, type SqlRunner } from "../../server/db/migrate.ts";

const MIGRATION = "20261125100000_consensus";
const source = path.resolve("prisma/migrations");
const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
let runner: SqlRunner;
let close: () => Promise<void>;

async function openRunner(): Promise<{ runner: SqlRunner; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = new PGlite();
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
      withLock: (fn) => fn(),
    },
    close: async () => {
      await client.query(`DROP SCHEMA "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/** Makes the migrations folder hold every migration before MIGRATION (and it too when `including`). */
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
  it("fills the histogram from the votes and the status by the rule, in its order", async () => {
    const q = (sql: string, params: unknown[] = []) => runner.query(sql, params);
    const agent = async () => {
      const id = randomUUID();
      const name = `m_${id.slice(0, 8)}`;
      await q(`INSERT INTO agents (id, username, username_key, display_name, updated_at) VALUES ($1, $2, $2, $2, now())`, [id, name]);
      return id;
    };
    const author = await agent();
    const voters: string[] = [];
    for (let i = 0; i < 6; i++) voters.push(await agent());
    const resolvedAt = new Date("2026-10-01T12:00:00.000Z");
    /** A claim with these vote values, its stored gradient and its bridging status. */
    const claim = async (values: number[], gradient: number, bridging = "insufficient_data", resolved = false) => {
      const id = randomUUID();
      await q(
        `INSERT INTO claims (id, statement, author_id, vote_count, gradient, resolved_at, updated_at)
         VALUES ($1, 'A claim from before the migration', $2, $3, $4, $5, now())`,
        [id, author, values.length, gradient, resolved ? resolvedAt : null],
      );
      for (const [i, value] of values.entries()) {
        await q(`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, updated_at) VALUES ($1, $2, $3, $4, 0.1, now())`, [
          randomUUID(),
          id,
          voters[i],
          value,
        ]);
      }
      await q(`UPDATE claim_bridging SET status = $2::"BridgingStatus" WHERE claim_id = $1`, [id, bridging]);
      return id;
    };
    const six = (v: number) => new Array(6).fill(v);
    const ids = {
      none: await claim([], 0.5),
      few: await claim([0.05, 0.95, 1], 0.95),
      votesTrue: await claim(six(0.9), 0.9),
      votesFalse: await claim([0, 0.1, 0.1, 0.1, 0.19, 0.3], 0.13, "insufficient_data", true),
      bridgedTrue: await claim(six(0.7), 0.7, "bridged_true"),
      bridgedFalse: await claim(six(0.5), 0.5, "bridged_false"),
      divided: await claim(six(0.9), 0.9, "divided"),
      undecided: await claim(six(0.95), 0.95, "undecided"),
      open: await claim(six(0.8), 0.8),
    };

    stage(true);
    const before = Date.now();
    expect(await applyMigrations(runner)).toEqual([MIGRATION]);

    const rows = await q(
      `SELECT id::text AS id, vote_histogram, consensus_status::text AS status, consensus_since, resolved_at FROM claims WHERE id = ANY($1::uuid[])`,
      [Object.values(ids)],
    );
    const of = (id: string) => rows.find((r) => r.id === id)!;
    expect(of(ids.none)).toMatchObject({ vote_histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], status: "no_votes", consensus_since: null });
    expect(of(ids.few)).toMatchObject({ vote_histogram: [1, 0, 0, 0, 0, 0, 0, 0, 0, 2], status: "too_few_votes" });
    expect(of(ids.votesTrue)).toMatchObject({ vote_histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 6], status: "consensus_true" });
    expect(of(ids.votesFalse)).toMatchObject({ vote_histogram: [1, 4, 0, 1, 0, 0, 0, 0, 0, 0], status: "consensus_false" });
    expect(of(ids.bridgedTrue).status).toBe("consensus_true");
    expect(of(ids.bridgedFalse).status).toBe("consensus_false");
    expect(of(ids.divided).status).toBe("divided");
    expect(of(ids.undecided).status).toBe("open");
    expect(of(ids.open)).toMatchObject({ vote_histogram: [0, 0, 0, 0, 0, 0, 0, 0, 6, 0], status: "open" });
    // When an existing status began is not known: from the migration on.
    for (const id of Object.values(ids).filter((id) => id !== ids.none)) {
      expect(new Date(of(id).consensus_since as string).getTime()).toBeGreaterThanOrEqual(before - 5_000);
    }
    // A claim resolved before keeps its resolution.
    expect(new Date(of(ids.votesFalse).resolved_at as string).getTime()).toBe(resolvedAt.getTime());
  });
});
