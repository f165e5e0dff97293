// Resolution waits for a stable consensus (docs/features/consensus.md): a claim resolves only after
// holding consensus_true/consensus_false for RESOLUTION_STABLE_SECONDS (4 s here) with at least 10
// voters, by the job (resolveDueClaims, as every instance runs it), exactly once however many runs
// race for it; a flip back before the time restarts the wait; a resolved claim keeps its outcome.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.RESOLUTION_STABLE_SECONDS = "4";
});

import { startApi, type TestApi } from "../helpers/api.ts";
import { readSql } from "../../server/db/client.ts";
import { config } from "../../server/config.ts";
import { resolveDueClaims } from "../../server/services/resolution.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

const STABLE_MS = 4000;
let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A claim that ten newcomers (no bridging data) bring to consensus at `value`. */
async function claimAt(value: number) {
  const claim = await newClaim(api, author.token);
  const voters = await quickAgents(10);
  for (const v of voters) await vote(claim.id, value, v);
  return { id: claim.id as string, voters };
}

async function outcomes(claimId: string) {
  const [row] = await readSql<{ n: number; t: number; resolved: boolean }>`
    SELECT (SELECT count(*)::int FROM vote_outcomes WHERE claim_id = ${claimId}::uuid) AS n,
           (SELECT count(*)::int FROM vote_outcomes WHERE claim_id = ${claimId}::uuid AND consensus_true) AS t,
           (SELECT resolved_at IS NOT NULL FROM claims WHERE id = ${claimId}::uuid) AS resolved`;
  return { records: Number(row.n), trueRecords: Number(row.t), resolved: row.resolved };
}

describe("resolution after a stable consensus", () => {
  it("reads RESOLUTION_STABLE_SECONDS", () => {
    expect(config().RESOLUTION_STABLE_SECONDS).toBe(4);
  });

  it("waits: consensus with 10 votes is not resolved before the stable time, and is after it", async () => {
    const { id, voters } = await claimAt(0.9);
    expect((await api.get(`/claims/${id}`)).body.consensus).toMatchObject({ status: "consensus_true", voters: 10 });
    expect(await resolveDueClaims()).toBe(0);
    expect(await outcomes(id)).toEqual({ records: 0, trueRecords: 0, resolved: false });
    const before = (await api.get(`/profiles/${voters[0].id}`)).body.reputation_score;
    await sleep(STABLE_MS + 200);
    expect(await resolveDueClaims()).toBe(1);
    expect(await outcomes(id)).toEqual({ records: 10, trueRecords: 10, resolved: true });
    expect((await api.get(`/profiles/${voters[0].id}`)).body.reputation_score).toBe(before + 1);
    // Once: nothing is due any more.
    expect(await resolveDueClaims()).toBe(0);
  });

  it("a flip back before the time restarts the wait; a claim that stays open never resolves", async () => {
    // (Built in this order so that the flip comes well within the stable time of flipping's consensus,
    // which began at its fifth vote: a vote on a claim that has held it long enough resolves it.)
    const staysOpen = await claimAt(0.9);
    const flipping = await claimAt(0.9);
    const first = Date.parse((await api.get(`/claims/${flipping.id}`)).body.consensus.since);
    // Two voters change their minds (0.74: open), on both claims; on one they come back.
    for (const c of [flipping, staysOpen]) for (const v of c.voters.slice(0, 2)) await vote(c.id, 0.1, v);
    expect((await api.get(`/claims/${flipping.id}`)).body.consensus.status).toBe("open");
    for (const v of flipping.voters.slice(0, 2)) await vote(flipping.id, 0.9, v);
    const back = (await api.get(`/claims/${flipping.id}`)).body.consensus;
    expect(back.status).toBe("consensus_true");
    const renewed = Date.parse(back.since);
    expect(renewed).toBeGreaterThan(first);
    // A stable time the first consensus has outlasted but the renewed one has not: nothing resolves.
    const stable = (Date.now() - renewed + (renewed - first) / 2) / 1000;
    expect(Date.now() - first).toBeGreaterThan(stable * 1000);
    expect(await resolveDueClaims(50, stable)).toBe(0);
    expect((await outcomes(flipping.id)).resolved).toBe(false);
    await sleep(Math.max(0, renewed + STABLE_MS + 200 - Date.now()));
    expect(await resolveDueClaims()).toBe(1);
    expect((await outcomes(flipping.id)).resolved).toBe(true);
    expect(await outcomes(staysOpen.id)).toEqual({ records: 0, trueRecords: 0, resolved: false });
  });

  it("a false consensus resolves false; runs racing for the same due claims resolve each exactly once", async () => {
    const claims = [await claimAt(0.05), await claimAt(0.95), await claimAt(0.1)];
    await sleep(STABLE_MS + 200);
    const counts = await Promise.all([resolveDueClaims(), resolveDueClaims(), resolveDueClaims(), resolveDueClaims()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(await outcomes(claims[0].id)).toEqual({ records: 10, trueRecords: 0, resolved: true });
    expect(await outcomes(claims[1].id)).toEqual({ records: 10, trueRecords: 10, resolved: true });
    // Each voter gained exactly once (+1 for an aligned vote).
    const [rep] = await readSql<{ events: number }>`
      SELECT count(*)::int AS events FROM reputation_events WHERE claim_id = ANY(${claims.map((c) => c.id)}::uuid[])`;
    expect(Number(rep.events)).toBe(30);
    expect(await checkInvariants()).toEqual([]);
  });

  it("a resolved claim keeps its outcome when the crowd turns and holds the other side", async () => {
    const { id, voters } = await claimAt(0.9);
    await sleep(STABLE_MS + 200);
    expect(await resolveDueClaims()).toBe(1);
    for (const v of voters) await vote(id, 0.05, v);
    expect((await api.get(`/claims/${id}`)).body.consensus.status).toBe("consensus_false");
    await sleep(STABLE_MS + 200);
    expect(await resolveDueClaims()).toBe(0);
    expect(await outcomes(id)).toEqual({ records: 10, trueRecords: 10, resolved: true });
  });
});
