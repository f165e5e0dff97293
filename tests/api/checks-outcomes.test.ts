// Checks against the world (docs/features/checks.md), the outcome's life on the database: a proposal
// stakes its bond and, undisputed, is made final by the background table's outcomes task exactly once
// with two instances' runners looking, its bond back with 1 more; a dispute stakes the same bond and
// a moderator's settlement gives both to the right side (audited); who may propose and dispute when.
// Runs on PGlite by default and on PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // A dispute window of a second, so the outcomes task runs every second.
  process.env.OUTCOME_DISPUTE_SECONDS = "1";
});

import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { readSql, sqlTransaction } from "../../server/db/client.ts";
import { BACKGROUND_TASKS } from "../../server/jobs/index.ts";
import { startRunner } from "../../server/jobs/runner.ts";
import { disputeOutcome, finaliseDueOutcomes, proposeOutcome, setCheckIn, settleOutcome } from "../../server/services/checks.ts";
import { newClaim, quickAgent, reputationOf, setReputation, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(async () => {
  await api.close();
});

const HOUR = 3_600_000;

/** A claim with a check whose check_at has passed (set in the future, then moved back as time would). */
async function awaitingClaim(): Promise<string> {
  const { id } = await newClaim(api, author.token);
  const result = await sqlTransaction((tx) =>
    setCheckIn(tx, {
      claimId: id,
      viewerId: author.id,
      terms: { criteria: "NOAA's annual report for 2026 states the rise", finePrint: null, sourceUrl: null, checkAt: new Date(Date.now() + HOUR), closeAt: null, assumptions: [] },
      now: new Date(),
    }),
  );
  expect(result).toEqual({ ok: true });
  await readSql`UPDATE claim_checks SET close_at = now() - interval '2 hours', check_at = now() - interval '1 hour' WHERE claim_id = ${id}::uuid`;
  return id;
}

/** An account with standing and `reputation`. */
async function able(reputation: number): Promise<Voter> {
  const agent = await quickAgent();
  await setReputation(agent.id, reputation);
  await readSql`UPDATE agents SET standing = true WHERE id = ${agent.id}::uuid`;
  return agent;
}

const proposal = (claimId: string, proposerId: string) => ({ claimId, proposerId, outcome: "true" as const, evidenceUrl: "https://example.org/report", note: "The report states 4.3 mm" });
const checkRow = async (claimId: string) =>
  (await readSql<{ stage: string; outcome: string | null }>`SELECT stage::text AS stage, outcome FROM claim_checks WHERE claim_id = ${claimId}::uuid`)[0];
const bondEvents = async (agentId: string) =>
  readSql<{ reason: string; delta: number }>`
    SELECT reason::text AS reason, delta FROM reputation_events WHERE agent_id = ${agentId}::uuid AND reason::text LIKE 'outcome_%' ORDER BY id`;

describe("a check's outcome", () => {
  it("undisputed, is made final once by two instances' outcomes tasks: the bond back with 1 more", { timeout: 60_000 }, async () => {
    const claimId = await awaitingClaim();
    const proposer = await able(12);
    expect(await proposeOutcome(proposal(claimId, proposer.id))).toEqual({ ok: true });
    expect((await reputationOf(proposer.id)).reputation).toBe(7);
    expect(await checkRow(claimId)).toEqual({ stage: "proposed", outcome: null });

    const task = BACKGROUND_TASKS.find((t) => t.name === "outcomes")!;
    const runners = await Promise.all([startRunner([task]), startRunner([task])]);
    try {
      await eventually(async () => (await checkRow(claimId)).stage === "final", 20_000);
      // Another period or two of both runners: nothing more moves.
      await new Promise((r) => setTimeout(r, 2_500));
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    expect(await checkRow(claimId)).toEqual({ stage: "final", outcome: "true" });
    expect((await reputationOf(proposer.id)).reputation).toBe(13);
    expect(await bondEvents(proposer.id)).toEqual([
      { reason: "outcome_bond_staked", delta: -5 },
      { reason: "outcome_bond_returned", delta: 6 },
    ]);
  });

  it("two rounds at the same time (a round outlasting its period) finalise each due proposal once", async () => {
    const claims = [await awaitingClaim(), await awaitingClaim(), await awaitingClaim()];
    const proposer = await able(30);
    for (const claimId of claims) expect(await proposeOutcome(proposal(claimId, proposer.id))).toEqual({ ok: true });
    await readSql`UPDATE claim_checks SET dispute_deadline = now() - interval '1 second' WHERE claim_id = ANY(${claims}::uuid[])`;
    const counts = await Promise.all([finaliseDueOutcomes(), finaliseDueOutcomes(), finaliseDueOutcomes()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect((await reputationOf(proposer.id)).reputation).toBe(30 - 3 * 5 + 3 * 6);
    expect((await bondEvents(proposer.id)).filter((e) => e.reason === "outcome_bond_returned")).toHaveLength(3);
  });

  it("disputed and settled for the proposal: the proposer takes both bonds; against it: the disputer does (audited)", async () => {
    const moderator = await quickAgent();
    for (const [settled, winner] of [["true", "proposer"], ["annulled", "disputer"]] as const) {
      const claimId = await awaitingClaim();
      const proposer = await able(10);
      const disputer = await able(0);
      expect(await proposeOutcome(proposal(claimId, proposer.id))).toEqual({ ok: true });
      expect(await disputeOutcome({ claimId, disputerId: disputer.id, reason: "The report is for 2025", evidenceUrl: "https://example.org/2025" })).toEqual({ ok: true });
      // Staking took the disputer below zero.
      expect((await reputationOf(disputer.id)).reputation).toBe(-5);
      expect(await checkRow(claimId)).toEqual({ stage: "disputed", outcome: null });
      // A second dispute, or a settlement of what is not disputed, is refused and moves nothing.
      const third = await able(10);
      expect(await disputeOutcome({ claimId, disputerId: third.id, reason: "Me too", evidenceUrl: "https://example.org/x" })).toMatchObject({ ok: false, code: "outcome_not_open" });
      expect((await reputationOf(third.id)).reputation).toBe(10);

      expect(await settleOutcome({ claimId, moderatorId: moderator.id, outcome: settled, reason: "The 2026 report says so" })).toEqual({ ok: true });
      expect(await checkRow(claimId)).toEqual({ stage: "final", outcome: settled });
      expect((await reputationOf(proposer.id)).reputation).toBe(winner === "proposer" ? 15 : 5);
      expect((await reputationOf(disputer.id)).reputation).toBe(winner === "disputer" ? 5 : -5);
      expect(await settleOutcome({ claimId, moderatorId: moderator.id, outcome: "false", reason: "again" })).toMatchObject({ ok: false, code: "outcome_not_open" });
      const audit = await readSql<{ action: string; reason: string }>`
        SELECT action, reason FROM moderation_audit WHERE target_id = ${claimId}::uuid AND actor_id = ${moderator.id}::uuid`;
      expect(audit).toEqual([{ action: "settle_outcome", reason: "The 2026 report says so" }]);
    }
  });

  it("a proposal needs the check awaiting an outcome, standing and the reputation; a dispute another account", async () => {
    const { id: early } = await newClaim(api, author.token);
    await sqlTransaction((tx) =>
      setCheckIn(tx, { claimId: early, viewerId: author.id, terms: { criteria: "Checked against the annual report", finePrint: null, sourceUrl: null, checkAt: new Date(Date.now() + HOUR), closeAt: null, assumptions: [] }, now: new Date() }),
    );
    const proposer = await able(20);
    expect(await proposeOutcome(proposal(early, proposer.id))).toMatchObject({ ok: false, code: "outcome_not_open" });

    const claimId = await awaitingClaim();
    const poor = await able(9);
    expect(await proposeOutcome(proposal(claimId, poor.id))).toMatchObject({ ok: false, code: "insufficient_reputation" });
    const newcomer = await quickAgent();
    await setReputation(newcomer.id, 50);
    await readSql`UPDATE agents SET standing = false WHERE id = ${newcomer.id}::uuid`;
    expect(await proposeOutcome(proposal(claimId, newcomer.id))).toMatchObject({ ok: false, code: "insufficient_standing" });
    expect((await reputationOf(poor.id)).reputation).toBe(9);
    expect(await checkRow(claimId)).toEqual({ stage: "pending", outcome: null });

    expect(await proposeOutcome(proposal(claimId, proposer.id))).toEqual({ ok: true });
    expect(await disputeOutcome({ claimId, disputerId: proposer.id, reason: "Changed my mind", evidenceUrl: "https://example.org/y" })).toMatchObject({ ok: false, code: "own_proposal" });
  });

  it("its terms are the author's to set while the claim has no votes", async () => {
    const { id } = await newClaim(api, author.token);
    const other = await quickAgent();
    const terms = { criteria: "Checked against the annual report", finePrint: null, sourceUrl: null, checkAt: new Date(Date.now() + HOUR), closeAt: null, assumptions: [] };
    const set = (viewerId: string, t = terms) => sqlTransaction((tx) => setCheckIn(tx, { claimId: id, viewerId, terms: t, now: new Date() }));
    expect(await set(other.id)).toMatchObject({ ok: false, code: "forbidden" });
    expect(await set(author.id, { ...terms, checkAt: new Date(Date.now() - 1000) })).toMatchObject({ ok: false, code: "validation_failed" });
    expect(await set(author.id)).toEqual({ ok: true });
    const voter = await quickAgent();
    const res = await api.post(`/claims/${id}/vote`, { value: 0.8 }, { token: voter.token });
    expect(res.status, res.text).toBeLessThan(300);
    expect(await set(author.id)).toMatchObject({ ok: false, code: "check_immutable" });
  });
});
