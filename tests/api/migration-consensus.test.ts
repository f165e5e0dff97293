// Migration 'consensus' fills each existing claim's vote histogram from its votes and its consensus
// status by the rule (docs/features/consensus.md), leaving resolved claims resolved. Run on a database
// migrated to just before it, with data in the old shape, on PGlite or on a fresh schema of
// DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedUpTo, type MigrationStage } from "../helpers/migration-stage.ts";

const MIGRATION = "20261125100000_consensus";
let db: MigrationStage;

beforeAll(async () => {
  db = await migratedUpTo(MIGRATION);
});
afterAll(async () => {
  await db?.close();
});

describe(`migration ${MIGRATION}`, () => {
  it("fills the histogram from the votes and the status by the rule, in its order", async () => {
    const q = db.query;
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
    const before = Date.now();
    expect(await db.applyTarget()).toEqual([MIGRATION]);

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
