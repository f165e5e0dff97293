// Migration 'standing' keeps the behaviour before it under the open rule it stores
// (docs/features/consensus.md#standing): every account that is neither automated nor suspended has
// standing, each vote is sorted so, the counted sums and both histograms come from the votes, and a
// status that changes (a suspended account's vote no longer counts) starts now while one that stays
// keeps its start. Run on a database migrated to just before it, with data in the old shape, on PGlite
// or on a fresh schema of DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedUpTo, type MigrationStage } from "../helpers/migration-stage.ts";

const MIGRATION = "20261128114435_standing";
let db: MigrationStage;

beforeAll(async () => {
  db = await migratedUpTo(MIGRATION);
}, 180_000);
afterAll(async () => {
  await db?.close();
});

describe(`migration ${MIGRATION}`, () => {
  it("sorts every vote by the open rule and restates the claims from the counted votes", async () => {
    const q = db.query;
    const agent = async (extra: { automated?: boolean; suspendedUntil?: Date | null; suspended?: boolean } = {}) => {
      const id = randomUUID();
      const name = `m_${id.slice(0, 8)}`;
      await q(
        `INSERT INTO agents (id, username, username_key, display_name, automated, suspended_at, suspended_until, updated_at)
         VALUES ($1, $2, $2, $2, $3, $4, $5, now())`,
        [id, name, extra.automated ?? false, extra.suspended ? new Date() : null, extra.suspendedUntil ?? null],
      );
      return id;
    };
    const author = await agent();
    const people: string[] = [];
    for (let i = 0; i < 6; i++) people.push(await agent());
    const bot = await agent({ automated: true });
    const suspended = await agent({ suspended: true });
    const until = new Date(Date.now() + 3 * 86_400_000);
    const timed = await agent({ suspended: true, suspendedUntil: until });
    const startedAt = new Date("2026-11-01T00:00:00.000Z");

    /** A claim with these votes (agent, value, automated), stored as the service left it before. */
    const claim = async (votes: [string, number, boolean][], status: string) => {
      const id = randomUUID();
      const people = votes.filter(([, , automated]) => !automated);
      await q(
        `INSERT INTO claims (id, statement, author_id, vote_count, people_vote_count, consensus_status, consensus_since, updated_at)
         VALUES ($1::uuid, 'A claim from before standing ' || $1::text, $2, $3, $4, $5::"ConsensusStatus", $6, now())`,
        [id, author, votes.length, people.length, status, startedAt],
      );
      for (const [voter, value, automated] of votes) {
        await q(`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, automated, updated_at) VALUES ($1, $2, $3, $4, 0.1, $5, now())`, [
          randomUUID(),
          id,
          voter,
          value,
          automated,
        ]);
      }
      return id;
    };
    const carried = await claim(
      [...people.map((p, i): [string, number, boolean] => [p, 0.04 + (i % 2) * 0.02, false]), [bot, 1, true], [suspended, 1, false], [timed, 1, false]],
      "open",
    );
    const few = await claim([[people[0], 0.6, false], [people[1], 0.7, false], [suspended, 0.9, false]], "too_few_votes");
    const before = Date.now();
    expect(await db.applyTarget()).toEqual([MIGRATION]);

    expect(await q(`SELECT min_age_seconds, min_votes, require_verified FROM standing_rule`)).toEqual([
      { min_age_seconds: 0, min_votes: 0, require_verified: false },
    ]);
    const standing = async (id: string) => (await q(`SELECT standing, standing_gains_at FROM agents WHERE id = $1`, [id]))[0];
    expect(await standing(people[0])).toEqual({ standing: true, standing_gains_at: null });
    expect(await standing(bot)).toEqual({ standing: false, standing_gains_at: null });
    expect(await standing(suspended)).toEqual({ standing: false, standing_gains_at: null });
    expect(new Date((await standing(timed)).standing_gains_at as string).getTime()).toBe(until.getTime());

    const counted = await q(`SELECT agent_id::text AS agent, counted FROM claim_votes WHERE claim_id = $1`, [carried]);
    expect(counted.filter((v) => v.counted).map((v) => v.agent).sort()).toEqual([...people].sort());

    const claims = await q(
      `SELECT id::text AS id, counted_vote_count, counted_weight_total, counted_histogram, agents_histogram,
              consensus_status::text AS status, consensus_since FROM claims WHERE id = ANY($1::uuid[])`,
      [[carried, few]],
    );
    const of = (id: string) => claims.find((c) => c.id === id)!;
    // The people who usually decide it rated it false; the votes that carried it to "open" no longer count.
    expect(of(carried)).toMatchObject({ counted_vote_count: 6, counted_histogram: [6, 0, 0, 0, 0, 0, 0, 0, 0, 0], agents_histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1], status: "consensus_false" });
    expect(Number(of(carried).counted_weight_total)).toBeCloseTo(0.6, 9);
    expect(new Date(of(carried).consensus_since as string).getTime()).toBeGreaterThanOrEqual(before - 5_000);
    // A status that stays keeps when it began.
    expect(of(few)).toMatchObject({ counted_vote_count: 2, counted_histogram: [0, 0, 0, 0, 0, 0, 1, 1, 0, 0], status: "too_few_votes" });
    expect(new Date(of(few).consensus_since as string).getTime()).toBe(startedAt.getTime());

    // An account born under the open rule has standing at once; an automated one has none.
    const born = randomUUID();
    await q(`INSERT INTO agents (id, username, username_key, display_name, updated_at) VALUES ($1, 'born_after', 'born_after', 'born', now())`, [born]);
    expect(await standing(born)).toEqual({ standing: true, standing_gains_at: null });
  });
});
