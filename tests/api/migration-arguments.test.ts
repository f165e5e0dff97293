// Migration 'arguments' gives existing claims their folded-statement key: statements that were already
// duplicated before duplicates were refused keep their rows (the oldest takes the key, later copies a
// null one) and the migration does not fail on them (docs/features/arguments.md#duplicates). Run on a
// database migrated to just before it, on PGlite or on a fresh schema of DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedUpTo, type MigrationStage } from "../helpers/migration-stage.ts";

const MIGRATION = "20261125400000_arguments";
let db: MigrationStage;

beforeAll(async () => {
  db = await migratedUpTo(MIGRATION);
});
afterAll(async () => {
  await db?.close();
});

describe(`migration ${MIGRATION}`, () => {
  it("keys the oldest of each folded statement, keeps older duplicates, and refuses new ones", async () => {
    const q = db.query;
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
    expect(await db.applyTarget()).toEqual([MIGRATION]);

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
