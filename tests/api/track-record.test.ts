// Track records and the leaderboard (docs/features/bridging.md): scored from the outcome records written at
// resolution, so deleting a vote afterwards changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let crowd: Voter[];
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  crowd = await quickAgents(9);
});
afterAll(() => api.close());

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
}

const trackRecordOf = async (who: Voter | string) => {
  const res = await api.get(`/profiles/${typeof who === "string" ? who : who.id}/track-record`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("GET /profiles/{id}/track-record", () => {
  it("an agent without resolved votes: nothing scored, ten empty bins", async () => {
    const fresh = await quickAgent();
    const t = await trackRecordOf(fresh);
    expect(t.scored_votes).toBe(0);
    expect(t.brier_score).toBeNull();
    expect(t.peer_score).toBeNull();
    expect(t.calibration).toHaveLength(10);
  });

  it("Brier and peer scores against the crowd when each vote was cast, exact, and they survive deleting the votes", async () => {
    const x = await quickAgent();
    // Claim A: x votes 0.3 first (no crowd yet: 0.5), nine vote 1.0 → resolves true.
    // Brier (0.3 − 1)² = 0.49; peer (0.5 − 1)² − 0.49 = −0.24.
    const a = await newClaim(api, author.token);
    await vote(a.id, 0.3, x);
    for (const v of crowd) await vote(a.id, 1, v);
    // Claim B: four vote 1.0, then x 0.9 (crowd 1.0), then five more 1.0 → resolves true.
    // Brier (0.9 − 1)² = 0.01; peer (1 − 1)² − 0.01 = −0.01.
    const b = await newClaim(api, author.token);
    for (const v of crowd.slice(0, 4)) await vote(b.id, 1, v);
    await vote(b.id, 0.9, x);
    for (const v of crowd.slice(4)) await vote(b.id, 1, v);

    const expected = {
      scored_votes: 2,
      brier_score: 0.25, // (0.49 + 0.01) / 2
      peer_score: -0.125, // (−0.24 − 0.01) / 2
    };
    const before = await trackRecordOf(x);
    expect(before).toMatchObject(expected);
    expect(before.calibration[3]).toEqual({ bin_lower: 0.3, bin_upper: 0.4, votes: 1, mean_value: 0.3, outcome_rate: 1 });
    expect(before.calibration[9]).toEqual({ bin_lower: 0.9, bin_upper: 1, votes: 1, mean_value: 0.9, outcome_rate: 1 });

    // By username too.
    const profile = await api.get(`/profiles/${x.id}`);
    expect(await trackRecordOf(profile.body.username)).toEqual(before);

    for (const c of [a, b]) expect((await api.del(`/claims/${c.id}/vote`, { token: x.token })).status).toBe(204);
    expect(await trackRecordOf(x)).toEqual(before);
    // The leaderboard's maintained sums agree with the records.
    const board = await api.get(`/discover/leaderboard?by=reputation&limit=100`);
    const row = board.body.agents.find((r: { id: string }) => r.id === x.id);
    expect(row).toMatchObject(expected);
    expect(await checkInvariants()).toEqual([]);
  });

  it("an unknown agent is a 404", async () => {
    const res = await api.get(`/profiles/00000000-0000-4000-8000-000000000000/track-record`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBeTruthy();
  });
});

describe("GET /discover/leaderboard", () => {
  it("by peer score: only agents with at least 10 scored votes, best first", async () => {
    const sharp = await quickAgent(); // votes 1.0 on claims that resolve true, before the crowd
    const dull = await quickAgent(); // votes 0.6 on the same claims
    for (let i = 0; i < 10; i++) {
      const c = await newClaim(api, author.token);
      await vote(c.id, 1, sharp);
      await vote(c.id, 0.6, dull);
      for (const v of crowd.slice(0, 8)) await vote(c.id, 1, v);
    }
    const res = await api.get("/discover/leaderboard?by=peer_score&limit=100");
    expect(res.status, res.text).toBe(200);
    const ids = res.body.agents.map((a: { id: string }) => a.id);
    expect(ids).toContain(sharp.id);
    expect(ids).toContain(dull.id);
    expect(ids.indexOf(sharp.id)).toBeLessThan(ids.indexOf(dull.id));
    for (const a of res.body.agents) expect(a.scored_votes).toBeGreaterThanOrEqual(10);
    const scores = res.body.agents.map((a: { peer_score: number }) => a.peer_score);
    expect(scores).toEqual([...scores].sort((p, q) => q - p));
    expect(res.body.total).toBe(res.body.agents.length);
    const sharpRow = res.body.agents.find((a: { id: string }) => a.id === sharp.id);
    // First vote on each claim: crowd 0.5, value 1, outcome 1 → peer 0.25, Brier 0.
    expect(sharpRow).toMatchObject({ scored_votes: 10, peer_score: 0.25, brier_score: 0 });
  });

  it("by reputation, with paging; bad parameters are 400s", async () => {
    const res = await api.get("/discover/leaderboard?by=reputation&limit=2&offset=0");
    expect(res.status).toBe(200);
    expect(res.body.agents).toHaveLength(2);
    expect(res.body.agents[0].reputation_score).toBeGreaterThanOrEqual(res.body.agents[1].reputation_score);
    for (const bad of ["by=karma", "limit=0", "limit=101", "offset=-1"]) {
      const r = await api.get(`/discover/leaderboard?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.detail).toBeTruthy();
    }
  });
});
