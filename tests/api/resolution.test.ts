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

/**
 * A claim that ten newcomers (no bridging data) bring to a true (`value` > 0.5) or false consensus at
 * the tenth vote exactly: nine at 0.8 (or 0.2), open, as consensus is strictly beyond; the tenth at 1
 * (or 0) makes 0.82 (0.18). Its consensus begins with the last vote, however slow the votes are.
 */
async function claimAt(value: number) {
  const claim = await newClaim(api, author.token);
  const voters = await quickAgents(10);
  const [edge, last] = value > 0.5 ? [0.8, 1] : [0.2, 0];
  for (const v of voters.slice(0, 9)) await vote(claim.id, edge, v);
  const answer = await vote(claim.id, last, voters[9]);
  expect(answer.consensus.status).toBe(value > 0.5 ? "consensus_true" : "consensus_false");
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
    // Nine votes at exactly 0.8 (open: consensus is strictly above), the tenth at 1 brings the
    // gradient to 0.82: consensus_true at the tenth vote, and that one voter can flip it back.
    const atTenth = async () => {
      const claim = await newClaim(api, author.token);
      const voters = await quickAgents(10);
      for (const v of voters.slice(0, 9)) await vote(claim.id, 0.8, v);
      expect((await vote(claim.id, 1, voters[9])).consensus.status).toBe("consensus_true");
      return { id: claim.id as string, last: voters[9] };
    };
    const staysOpen = await atTenth();
    const flipping = await atTenth();
    const first = Date.parse((await api.get(`/claims/${flipping.id}`)).body.consensus.since);
    for (const c of [flipping, staysOpen]) expect((await vote(c.id, 0.8, c.last)).consensus.status).toBe("open");
    const back = (await vote(flipping.id, 1, flipping.last)).consensus;
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
