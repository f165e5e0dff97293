// Migration 'vote_outcomes' carries the outcomes that lived on the vote rows over to the outcome
// records, recovers the outcomes of resolved votes already deleted from their reputation events, and
// resets the claims counter from the rows. Run on a database migrated to just before it, with data
// in the old shape, on PGlite or on a fresh schema of DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedUpTo, type MigrationStage } from "../helpers/migration-stage.ts";

const MIGRATION = "20261122210320_vote_outcomes";
let db: MigrationStage;

beforeAll(async () => {
  db = await migratedUpTo(MIGRATION);
});
afterAll(async () => {
  await db?.close();
});

describe(`migration ${MIGRATION}`, () => {
  it("turns today's outcomes into records, recovers deleted ones from reputation events, recounts claims", async () => {
    const q = db.query;
    const agent = async () => {
      const id = randomUUID();
      const name = `m_${id.slice(0, 8)}`;
      await q(`INSERT INTO agents (id, username, username_key, display_name, updated_at) VALUES ($1, $2, $2, $2, now())`, [id, name]);
      return id;
    };
    const [author, kept, changed, neutral, deleted] = [await agent(), await agent(), await agent(), await agent(), await agent()];
    const claim = randomUUID();
    const open = randomUUID();
    const resolvedAt = new Date("2026-10-01T12:00:00.000Z");
    const later = new Date("2026-10-05T12:00:00.000Z");
    for (const id of [claim, open]) {
      await q(`INSERT INTO claims (id, statement, author_id, tags, updated_at) VALUES ($1, 'A claim from before the migration', $2, '{physics,optics}', now())`, [id, author]);
    }
    // The application had miscounted (the counter is what the migration must correct).
    await q(`INSERT INTO platform_counters (name, value) VALUES ('claims', 7) ON CONFLICT (name) DO UPDATE SET value = 7`);
    await q(`UPDATE claims SET resolved_at = $2, gradient = 0.9 WHERE id = $1`, [claim, resolvedAt]);
    // The resolving transaction's history point (same now() as resolved_at), then a later vote's.
    await q(`INSERT INTO gradient_history (claim_id, gradient, vote_count, recorded_at) VALUES ($1, 0.4, 1, $2), ($1, 0.85, 10, $3), ($1, 0.9, 11, $4)`, [
      claim,
      new Date("2026-09-30T00:00:00.000Z"),
      resolvedAt,
      later,
    ]);
    const vote = (agentId: string, value: number, outcome: string, updatedAt: Date) =>
      q(`INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, outcome, created_at, updated_at) VALUES ($1, $2, $3, $4, 0.1, $5::"VoteOutcome", $6, $7)`, [
        randomUUID(),
        claim,
        agentId,
        value,
        outcome,
        new Date("2026-09-30T00:00:00.000Z"),
        updatedAt,
      ]);
    await vote(kept, 0.9, "aligned", resolvedAt);
    await vote(changed, 0.95, "opposed", later); // was 0.1 at resolution, changed since
    await vote(neutral, 0.5, "neutral", resolvedAt);
    const event = (agentId: string, reason: string, delta: number) =>
      q(`INSERT INTO reputation_events (agent_id, delta, reputation_score, reason, claim_id) VALUES ($1, $2, 0, $3::"ReputationReason", $4)`, [
        agentId,
        delta,
        reason,
        claim,
      ]);
    await event(kept, "vote_aligned", 1);
    await event(changed, "vote_opposed", -0.5);
    await event(deleted, "vote_opposed", 0); // its vote is gone
    expect(await db.applyTarget()).toEqual([MIGRATION]);

    const records = await q(
      `SELECT agent_id::text AS agent_id, value, crowd_gradient, crowd_basis::text AS crowd_basis, resolution_gradient, consensus_true,
              outcome::text AS outcome, tags, resolved_at FROM vote_outcomes WHERE claim_id = $1`,
      [claim],
    );
    const byAgent = new Map(records.map((r) => [r.agent_id, r]));
    expect(records).toHaveLength(4);
    const common = { resolution_gradient: 0.85, consensus_true: true, tags: ["physics", "optics"] };
    expect(byAgent.get(kept)).toMatchObject({ ...common, value: 0.9, crowd_gradient: 0.85, crowd_basis: "resolution", outcome: "aligned" });
    expect(byAgent.get(changed)).toMatchObject({ ...common, value: null, crowd_gradient: null, crowd_basis: null, outcome: "opposed" });
    expect(byAgent.get(neutral)).toMatchObject({ ...common, value: 0.5, outcome: "neutral" });
    expect(byAgent.get(deleted)).toMatchObject({ ...common, value: null, outcome: "opposed" });
    for (const r of records) expect(new Date(r.resolved_at as string).getTime()).toBe(resolvedAt.getTime());

    const columns = await q(`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'claim_votes'`);
    expect(columns.map((c) => c.column_name)).not.toContain("outcome");
    expect(columns.map((c) => c.column_name)).toContain("crowd_gradient");
    const [counter] = await q(`SELECT value::int AS value FROM platform_counters WHERE name = 'claims'`);
    expect(counter.value).toBe(2);
  });
});
