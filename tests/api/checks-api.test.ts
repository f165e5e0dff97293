// Checks against the world over REST (docs/features/checks.md), with windows of seconds: a check set
// with its claim, votes before and after close_at, a proposal made final, a dispute settled by a
// moderator, the bonds to the point, the scores of the votes cast before close_at (the late vote and
// the changed one), ambiguous and annulled outcomes not scored, and the crowd's calibration equal to
// a recomputation from what the claims showed at close_at. PGlite by default, PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.OUTCOME_DISPUTE_SECONDS = "3";
});

import { randomUUID } from "node:crypto";
import { startApi, type TestApi } from "../helpers/api.ts";
import { sleep, sleepUntil } from "../helpers/time.ts";
import { readSql } from "../../server/db/client.ts";
import { finaliseDueOutcomes } from "../../server/services/checks.ts";
import { quickAgent, reputationOf, setReputation, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let moderator: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  moderator = await quickAgent();
  await readSql`UPDATE agents SET role = 'moderator' WHERE id = ${moderator.id}::uuid`;
});
afterAll(async () => {
  await api.close();
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

/** An account with standing and `reputation`. */
async function able(reputation: number): Promise<Voter> {
  const agent = await quickAgent();
  await setReputation(agent.id, reputation);
  await readSql`UPDATE agents SET standing = true WHERE id = ${agent.id}::uuid`;
  return agent;
}

interface Timed {
  id: string;
  close_at: string;
  check_at: string;
}

/** A claim created with a check closing in `closeMs` and checked `checkMs` from now. */
async function claimWithCheck(closeMs = 8_000, checkMs = 14_000): Promise<Timed> {
  // One "now" for both dates: equal offsets must give equal times (close_at may not pass check_at).
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  const res = await api.post(
    "/claims",
    {
      statement: `Global sea level rose more than 4 mm in 2026 (${randomUUID()})`,
      check: {
        criteria: "NOAA's annual climate report for 2026 states a rise above 4 mm",
        source_url: "https://www.noaa.gov/climate",
        check_at: at(checkMs),
        close_at: at(closeMs),
        assumptions: ["The report is published by check_at"],
      },
    },
    { token: author.token },
  );
  expect(res.status, res.text).toBe(201);
  expect(res.body.check).toMatchObject({ state: "open", outcome: null, proposal: null, dispute: null, clarifications: [] });
  return { id: res.body.id, close_at: res.body.check.close_at, check_at: res.body.check.check_at };
}

async function vote(voter: Voter, claimId: string, value: number) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: voter.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const world = async (agentId: string) => {
  const res = await api.get(`/profiles/${agentId}/track-record`);
  expect(res.status, res.text).toBe(200);
  return res.body.world;
};

const propose = (voter: Voter, claimId: string, outcome: string) =>
  api.post(`/claims/${claimId}/outcome`, { outcome, evidence_url: "https://www.noaa.gov/report-2026", note: "The report states 4.3 mm" }, { token: voter.token });

/** What the claim showed just before close_at: its gradient and consensus, for the calibration's recomputation. */
const atClose = new Map<string, { gradient: number; status: string; outcome?: "true" | "false" }>();
async function recordAtClose(claimId: string, closeAt?: string) {
  const res = await api.get(`/claims/${claimId}`);
  // Read before close_at, or the test's machine was too slow for its windows.
  if (closeAt) expect(Date.now()).toBeLessThan(new Date(closeAt).getTime());
  atClose.set(claimId, { gradient: res.body.gradient, status: res.body.consensus.status });
}

describe("a check's life over REST", () => {
  it("proposal → final: the bond back with 1 more; votes scored at their value at close_at, the late vote not at all", { timeout: 60_000 }, async () => {
    // Everyone exists before the claim: its windows (seconds) hold only the votes and the steps.
    const [a, b, c, late] = [await quickAgent(), await quickAgent(), await quickAgent(), await quickAgent()];
    const proposer = await able(12);
    const second = await able(50);
    const claim = await claimWithCheck();
    await vote(a, claim.id, 0.9);
    await vote(b, claim.id, 0.6);
    await vote(c, claim.id, 0.2);
    await recordAtClose(claim.id, claim.close_at);
    await sleepUntil(claim.close_at);
    expect((await api.get(`/claims/${claim.id}/check`)).body.state).toBe("closed");
    // After close_at: b changes its mind (scored as it stood), `late` votes for the first time (not scored).
    await vote(b, claim.id, 0.1);
    await vote(late, claim.id, 0.95);

    expect((await propose(proposer, claim.id, "true")).body).toMatchObject({ code: "outcome_not_open" });
    await sleepUntil(claim.check_at);
    expect((await api.get(`/claims/${claim.id}`)).body.check.state).toBe("awaiting_outcome");

    const proposed = await propose(proposer, claim.id, "true");
    expect(proposed.status, proposed.text).toBe(200);
    expect(proposed.body).toMatchObject({ state: "proposed", outcome: null, proposal: { outcome: "true", by: { id: proposer.id }, note: "The report states 4.3 mm" } });
    expect((await reputationOf(proposer.id)).reputation).toBe(7);
    expect((await propose(second, claim.id, "false")).status).toBe(409);

    await sleepUntil(proposed.body.proposal.dispute_deadline);
    expect(await finaliseDueOutcomes()).toBe(1);
    const final = await api.get(`/claims/${claim.id}`);
    expect(final.body.check).toMatchObject({ state: "final", outcome: "true" });
    expect((await reputationOf(proposer.id)).reputation).toBe(13);
    atClose.get(claim.id)!.outcome = "true";

    const wa = await world(a.id);
    expect(wa).toMatchObject({ scored: 1 });
    expect(wa.brier).toBeCloseTo(0.01, 12);
    expect(wa.log).toBeCloseTo(Math.log(0.9), 12);
    // The others' mean (0.6 + 0.2) / 2 = 0.4: (0.4 − 1)² − (0.9 − 1)².
    expect(wa.peer).toBeCloseTo(0.35, 12);
    expect(wa.calibration[9]).toEqual({ bin: 9, predicted: 0.9, observed: 1, n: 1 });
    // b as it stood at close_at (0.6), not its 0.1 after.
    expect((await world(b.id)).brier).toBeCloseTo(0.16, 12);
    expect(await world(late.id)).toMatchObject({ scored: 0, brier: null, log: null, peer: null });

    const board = await api.get("/discover/leaderboard?basis=world&by=reputation&limit=100");
    expect(board.status, board.text).toBe(200);
    const row = board.body.agents.find((x: { id: string }) => x.id === a.id);
    expect(row).toMatchObject({ scored_votes: 1, brier_score: 0.01, peer_score: 0.35 });
  });

  it("proposal → dispute → moderator → final: the wrong side's bond to the right side; annulled is not scored", { timeout: 60_000 }, async () => {
    const voter = await quickAgent();
    const proposer = await able(10);
    const disputer = await able(3);
    const claim = await claimWithCheck();
    await vote(voter, claim.id, 0.7);
    await sleepUntil(claim.check_at);
    expect((await propose(proposer, claim.id, "true")).status).toBe(200);

    const own = await api.post(`/claims/${claim.id}/outcome/dispute`, { reason: "Mine", evidence_url: "https://example.org/x" }, { token: proposer.token });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe("own_proposal");
    const disputed = await api.post(`/claims/${claim.id}/outcome/dispute`, { reason: "The figure is for 2025", evidence_url: "https://example.org/2025" }, { token: disputer.token });
    expect(disputed.status, disputed.text).toBe(200);
    expect(disputed.body).toMatchObject({ state: "disputed", dispute: { by: { id: disputer.id }, reason: "The figure is for 2025" } });
    // The stake takes the disputer below zero.
    expect((await reputationOf(disputer.id)).reputation).toBe(-2);
    // Past the dispute window: a disputed outcome waits for a moderator.
    await sleep(3_100);
    expect(await finaliseDueOutcomes()).toBe(0);

    const settleBody = { outcome: "annulled", reason: "The report was not published" };
    const byMember = await api.post(`/moderation/claims/${claim.id}/outcome`, settleBody, { token: disputer.token });
    expect(byMember.status).toBe(403);
    const settled = await api.post(`/moderation/claims/${claim.id}/outcome`, settleBody, { token: moderator.token });
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body).toMatchObject({ state: "final", outcome: "annulled" });
    expect((await reputationOf(proposer.id)).reputation).toBe(5);
    expect((await reputationOf(disputer.id)).reputation).toBe(8);
    // Each side's reputation journey names the bond's steps.
    const journey = await api.get(`/profiles/${disputer.id}/reputation-journey`);
    expect(journey.status, journey.text).toBe(200);
    expect(journey.body.history.map((h: { reason: string; delta: number }) => [h.reason, h.delta])).toEqual(
      expect.arrayContaining([["outcome_bond_staked", -5], ["outcome_bond_won", 10]]),
    );
    const proposerJourney = await api.get(`/profiles/${proposer.id}/reputation-journey`);
    expect(proposerJourney.status, proposerJourney.text).toBe(200);
    expect(proposerJourney.body.history.map((h: { reason: string }) => h.reason)).toContain("outcome_bond_staked");
    expect((await api.post(`/moderation/claims/${claim.id}/outcome`, settleBody, { token: moderator.token })).body.code).toBe("outcome_not_open");
    expect(await world(voter.id)).toMatchObject({ scored: 0 });
  });

  it("the terms: set with the claim or by its author before the first vote, then only clarified", { timeout: 30_000 }, async () => {
    const statement = `A claim checked later ${randomUUID()}`;
    const past = await api.post("/claims", { statement, check: { criteria: "Checked against the report", check_at: inMs(-1000) } }, { token: author.token });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe("validation_failed");
    // Refused, the claim was not written either.
    const plain = await api.post("/claims", { statement }, { token: author.token });
    expect(plain.status).toBe(201);
    expect(plain.body.check).toBeNull();
    const id = plain.body.id;
    expect((await api.get(`/claims/${id}/check`)).status).toBe(404);

    const terms = { criteria: "Checked against the annual report", check_at: inMs(3_600_000), close_at: inMs(1_800_000) };
    const other = await quickAgent();
    expect((await api.request("PUT", `/claims/${id}/check`, { body: terms, token: other.token })).status).toBe(403);
    const set = await api.request("PUT", `/claims/${id}/check`, { body: terms, token: author.token });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ criteria: terms.criteria, state: "open", assumptions: [], fine_print: null });
    expect((await api.request("PUT", `/claims/${id}/check`, { body: { ...terms, close_at: inMs(7_200_000) }, token: author.token })).body.code).toBe("validation_failed");
    await vote(other, id, 0.4);
    const late = await api.request("PUT", `/claims/${id}/check`, { body: terms, token: author.token });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("check_immutable");

    expect((await api.post(`/claims/${id}/check/clarifications`, { text: "Sea level means the global mean" }, { token: other.token })).status).toBe(403);
    const clarified = await api.post(`/claims/${id}/check/clarifications`, { text: "Sea level means the global mean" }, { token: author.token });
    expect(clarified.status, clarified.text).toBe(201);
    const byModerator = await api.post(`/claims/${id}/check/clarifications`, { text: "Satellite altimetry counts" }, { token: moderator.token });
    expect(byModerator.status).toBe(201);
    expect(byModerator.body.clarifications.map((c: { text: string; by: { id: string } }) => [c.text, c.by.id])).toEqual([
      ["Sea level means the global mean", author.id],
      ["Satellite altimetry counts", moderator.id],
    ]);
    expect(byModerator.body.criteria).toBe(terms.criteria);
  });

  it("the crowd's calibration equals a recomputation from the gradients and statuses at close_at and the outcomes", { timeout: 90_000 }, async () => {
    // Two claims with a stated consensus_true at close_at: one comes out true, one false (and its
    // voters then turn, which does not change what was stated at close_at); one more with a middling crowd.
    const plan = [
      { values: [0.9, 0.95, 1, 0.9, 0.85], outcome: "true" as const },
      { values: [0.95, 0.9, 0.9, 1, 0.9], outcome: "false" as const },
      { values: [0.3, 0.6, 0.5], outcome: "false" as const },
    ];
    // close_at and check_at are moved to the moment the votes are in (time passing, as in the test
    // above, without its waits): the triggers keep what stood then.
    const proposer = await able(100);
    for (const { values, outcome } of plan) {
      const claim = await claimWithCheck(3_600_000, 3_600_000);
      const voters = [];
      for (const value of values) {
        const voter = await able(0);
        voters.push(voter);
        await vote(voter, claim.id, value);
      }
      await recordAtClose(claim.id);
      await readSql`UPDATE claim_checks SET close_at = now(), check_at = now() WHERE claim_id = ${claim.id}::uuid`;
      for (const voter of voters) await vote(voter, claim.id, outcome === "true" ? 0.9 : 0.05);
      expect((await propose(proposer, claim.id, outcome)).status).toBe(200);
      atClose.get(claim.id)!.outcome = outcome;
    }
    await sleep(3_100); // past the dispute window
    expect(await finaliseDueOutcomes()).toBe(plan.length);

    const res = await api.get("/stats/calibration");
    expect(res.status, res.text).toBe(200);
    const scored = [...atClose.values()].filter((x) => x.outcome !== undefined) as { gradient: number; status: string; outcome: "true" | "false" }[];
    expect(scored.map((s) => s.status).filter((s) => s === "consensus_true")).toHaveLength(2);
    const o = (s: { outcome: string }) => (s.outcome === "true" ? 1 : 0);
    const bins = Array.from({ length: 10 }, (_, bin) => {
      const inBin = scored.filter((s) => Math.min(9, Math.floor(s.gradient * 10)) === bin);
      const n = inBin.length;
      return { bin, n, predicted: n ? inBin.reduce((t, s) => t + s.gradient, 0) / n : null, observed: n ? inBin.reduce((t, s) => t + o(s), 0) / n : null };
    });
    expect(res.body.n).toBe(scored.length);
    expect(res.body.brier).toBeCloseTo(scored.reduce((t, s) => t + (s.gradient - o(s)) ** 2, 0) / scored.length, 12);
    for (const bin of bins) {
      const got = res.body.bins[bin.bin];
      expect({ bin: got.bin, n: got.n }).toEqual({ bin: bin.bin, n: bin.n });
      if (bin.n) {
        expect(got.predicted).toBeCloseTo(bin.predicted!, 12);
        expect(got.observed).toBeCloseTo(bin.observed!, 12);
      } else expect(got).toMatchObject({ predicted: null, observed: null });
    }
    const stated = scored.filter((s) => s.status === "consensus_true" || s.status === "consensus_false");
    expect(res.body.consensus).toEqual({ n: stated.length, right: stated.filter((s) => (s.status === "consensus_true") === (s.outcome === "true")).length });
    expect(res.body.consensus.right).toBe(1);
  });

  it("GET /claims?check=<state> lists the claims whose check is in that state", async () => {
    const ids = async (state: string) => ((await api.get(`/claims?check=${state}&limit=100`)).body.claims as { id: string }[]).map((c) => c.id);
    const finals = [...atClose].filter(([, x]) => x.outcome !== undefined).map(([id]) => id);
    const open = await claimWithCheck(3_600_000, 7_200_000);
    expect(await ids("final")).toEqual(expect.arrayContaining(finals));
    expect(await ids("open")).toContain(open.id);
    expect(await ids("open")).not.toEqual(expect.arrayContaining([finals[0]]));
    expect(await ids("awaiting_outcome")).not.toContain(open.id);
    const bad = await api.get("/claims?check=someday");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("check");
  });
});
