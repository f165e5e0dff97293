// `npm run check:invariants` over checks (docs/features/checks.md#scores): after a real life over REST —
// votes before close_at, one changed and one removed after it (kept at close), a late one, an outcome
// proposed and made final, another annulled — every invariant holds; each stored number the world
// scores are computed from, tampered with, changes what a profile shows and is reported: a kept value
// beside a vote untouched since before close_at, a kept value that is no vote's, a kept value on a check
// still open, a final outcome on a check that is not final. PGlite by default, PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.OUTCOME_DISPUTE_SECONDS = "1";
});

import { randomUUID } from "node:crypto";
import { startApi, type TestApi } from "../helpers/api.ts";
import { sleep, sleepUntil } from "../helpers/time.ts";
import { readSql } from "../../server/db/client.ts";
import { finaliseDueOutcomes } from "../../server/services/checks.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { quickAgent, setReputation, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());


/** A claim with a check closing `closeMs` and checked `checkMs` from now. */
async function claimWithCheck(closeMs: number, checkMs: number): Promise<{ id: string; close_at: string; check_at: string }> {
  const now = Date.now();
  const res = await api.post(
    "/claims",
    {
      statement: `Global sea level rose more than 4 mm in 2026 (${randomUUID()})`,
      check: {
        criteria: "NOAA's annual climate report for 2026 states a rise above 4 mm",
        close_at: new Date(now + closeMs).toISOString(),
        check_at: new Date(now + checkMs).toISOString(),
      },
    },
    { token: author.token },
  );
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, close_at: res.body.check.close_at, check_at: res.body.check.check_at };
}

async function vote(voter: Voter, claimId: string, value: number) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: voter.token });
  expect(res.status, res.text).toBe(200);
}

const world = async (agentId: string) => {
  const res = await api.get(`/profiles/${agentId}/track-record`);
  expect(res.status, res.text).toBe(200);
  return res.body.world as { scored: number; brier: number | null };
};

describe("invariants over checks and world scores", () => {
  it("hold after a real life; a tampered input of the world scores is reported", { timeout: 90_000 }, async () => {
    const [a, b, c, late] = [await quickAgent(), await quickAgent(), await quickAgent(), await quickAgent()];
    const proposer = await quickAgent();
    await setReputation(proposer.id, 20);
    await readSql`UPDATE agents SET standing = true WHERE id = ${proposer.id}::uuid`;
    const scored = await claimWithCheck(15_000, 16_000);
    const annulled = await claimWithCheck(15_000, 16_000);
    await vote(a, scored.id, 0.9);
    await vote(b, scored.id, 0.6);
    await vote(c, scored.id, 0.2);
    await vote(a, annulled.id, 0.3);
    expect(Date.now(), "votes before close_at: this machine was too slow for the window").toBeLessThan(new Date(scored.close_at).getTime());
    await sleepUntil(scored.close_at);
    // After close_at: b changes its mind, c takes its vote back (both kept at close), `late` votes.
    await vote(b, scored.id, 0.1);
    expect([200, 204]).toContain((await api.del(`/claims/${scored.id}/vote`, { token: c.token })).status);
    await vote(late, scored.id, 0.95);
    await sleepUntil(annulled.check_at);
    for (const [claim, outcome] of [[scored.id, "true"], [annulled.id, "annulled"]]) {
      const res = await api.post(`/claims/${claim}/outcome`, { outcome, evidence_url: "https://www.noaa.gov/report-2026", note: "The report" }, { token: proposer.token });
      expect(res.status, res.text).toBe(200);
    }
    await sleep(1_100);
    expect(await finaliseDueOutcomes()).toBe(2);
    expect((await api.get(`/claims/${scored.id}`)).body.check).toMatchObject({ state: "final", outcome: "true" });

    const kept = await readSql<{ agent_id: string; value: number }>`
      SELECT agent_id::text AS agent_id, value FROM check_votes_at_close WHERE claim_id = ${scored.id}::uuid ORDER BY value`;
    expect(kept).toEqual([
      { agent_id: c.id, value: 0.2 },
      { agent_id: b.id, value: 0.6 },
    ]);
    expect(await world(a.id)).toMatchObject({ scored: 1 });
    expect((await world(a.id)).brier).toBeCloseTo(0.01, 9);
    expect(await checkInvariants()).toEqual([]);

    const reported = async (tamper: () => Promise<unknown>, undo: () => Promise<unknown>, ...words: string[]) => {
      await tamper();
      const violations = await checkInvariants();
      expect(violations.length, violations.join("\n")).toBeGreaterThan(0);
      for (const w of words) expect(violations.join("\n")).toContain(w);
      await undo();
      expect(await checkInvariants()).toEqual([]);
    };

    // a's vote stood untouched since before close_at at 0.9: a kept 0.2 beside it would score 0.2.
    await reported(
      async () => {
        await readSql`INSERT INTO check_votes_at_close (claim_id, agent_id, value) VALUES (${scored.id}::uuid, ${a.id}::uuid, 0.2)`;
        expect((await world(a.id)).brier).toBeCloseTo(0.64, 9);
      },
      () => readSql`DELETE FROM check_votes_at_close WHERE claim_id = ${scored.id}::uuid AND agent_id = ${a.id}::uuid`,
      `claim ${scored.id}, agent ${a.id}`,
      "untouched since before close_at",
    );

    // A kept value no vote can have.
    await reported(
      () => readSql`UPDATE check_votes_at_close SET value = 1.6 WHERE claim_id = ${scored.id}::uuid AND agent_id = ${b.id}::uuid`,
      () => readSql`UPDATE check_votes_at_close SET value = 0.6 WHERE claim_id = ${scored.id}::uuid AND agent_id = ${b.id}::uuid`,
      `claim ${scored.id}, agent ${b.id}`,
      "no vote's value",
    );

    // A kept value on a check whose close_at has not come.
    const open = await claimWithCheck(3_600_000, 7_200_000);
    await vote(a, open.id, 0.5);
    await reported(
      () => readSql`INSERT INTO check_votes_at_close (claim_id, agent_id, value) VALUES (${open.id}::uuid, ${a.id}::uuid, 0.5)`,
      () => readSql`DELETE FROM check_votes_at_close WHERE claim_id = ${open.id}::uuid`,
      `claim ${open.id}, agent ${a.id}`,
      "not yet passed",
    );

    // An outcome on a check that is not final: its votes stop being scored, and the row is reported.
    await reported(
      async () => {
        await readSql`UPDATE claim_checks SET stage = 'proposed' WHERE claim_id = ${scored.id}::uuid`;
        expect(await world(a.id)).toMatchObject({ scored: 0 });
      },
      () => readSql`UPDATE claim_checks SET stage = 'final' WHERE claim_id = ${scored.id}::uuid`,
      `claim ${scored.id}: check stage=proposed outcome=true`,
    );
    // And a final check without its outcome.
    await reported(
      () => readSql`UPDATE claim_checks SET outcome = NULL WHERE claim_id = ${annulled.id}::uuid`,
      () => readSql`UPDATE claim_checks SET outcome = 'annulled' WHERE claim_id = ${annulled.id}::uuid`,
      `claim ${annulled.id}: check stage=final outcome=null`,
    );
    expect((await world(a.id)).brier).toBeCloseTo(0.01, 9);
  });
});
