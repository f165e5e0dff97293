// Every status of the consensus rule driven through the API (docs/features/consensus.md): no votes,
// too few, bridged true/false (the real fit over planted camps), divided, undecided, and the votes'
// own true/false/open when bridging has too little data; the histogram, `since`, the filter and the
// platform statistic.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { runBridgingFit } from "../../server/services/bridging.ts";
import { computePlatformStats } from "../../server/services/stats.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let campA: Voter[];
let campB: Voter[];
const ids = {} as Record<
  "none" | "few" | "bothTrue" | "bothFalse" | "carried" | "middle" | "votesTrue" | "votesFalse" | "votesOpen",
  string
>;
const before: Record<string, { status: string; since: string | null; decided_by: string | null }> = {};

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const consensusOf = async (id: string) => {
  const res = await api.get(`/claims/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.consensus as { status: string; voters: number; decided_by: string | null; histogram: number[]; since: string | null };
};

beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  campA = await quickAgents(8);
  campB = await quickAgents(6);
  const tag = { tags: ["consensus-test"] };
  // Partisan claims reveal the two camps to the fit (as tests/api/bridging.test.ts plants them).
  const jitter = (i: number) => (i % 3) * 0.03;
  for (let p = 0; p < 10; p++) {
    const c = await newClaim(api, author.token, tag);
    const [high, low] = p % 2 === 0 ? [campA, campB] : [campB, campA];
    for (const [i, v] of high.entries()) await vote(c.id, 0.9 - jitter(i), v);
    for (const [i, v] of low.entries()) await vote(c.id, 0.1 + jitter(i), v);
  }
  const plant = async (a: number, b: number) => {
    const c = await newClaim(api, author.token, tag);
    const toward = (x: number, i: number) => (x > 0.5 ? x - jitter(i) : x < 0.5 ? x + jitter(i) : x);
    for (const [i, v] of campA.entries()) await vote(c.id, toward(a, i), v);
    for (const [i, v] of campB.entries()) await vote(c.id, toward(b, i), v);
    return c.id;
  };
  ids.bothTrue = await plant(0.95, 0.9);
  ids.bothFalse = await plant(0.05, 0.1);
  ids.carried = await plant(0.95, 0.1);
  ids.middle = await plant(0.5, 0.5);
  // Voters with no other history: the fit cannot place them, so the votes alone decide.
  const byNewcomers = async (value: number) => {
    const c = await newClaim(api, author.token, tag);
    for (const v of await quickAgents(5)) await vote(c.id, value, v);
    return c.id;
  };
  ids.votesTrue = await byNewcomers(0.9);
  ids.votesFalse = await byNewcomers(0.1);
  ids.votesOpen = await byNewcomers(0.6);
  ids.none = (await newClaim(api, author.token, tag)).id;
  ids.few = (await newClaim(api, author.token, tag)).id;
  for (const v of await quickAgents(3)) await vote(ids.few, 0.95, v);
  for (const [name, id] of Object.entries(ids)) before[name] = await consensusOf(id);
}, 180_000);
afterAll(() => api.close());

describe("consensus, stated only when it is there", () => {
  it("before any fit, the votes alone decide claims with five voters or more", async () => {
    expect(before.bothTrue).toMatchObject({ status: "consensus_true", decided_by: "votes" });
    expect(before.carried).toMatchObject({ status: "open", decided_by: null });
  });

  it("no votes: no verdict, no start, an empty histogram", async () => {
    expect(await consensusOf(ids.none)).toEqual({
      status: "no_votes",
      voters: 0,
      decided_by: null,
      histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      gradient: null,
      not_counted: { people: 0, automated: 0 },
      since: null,
    });
  });

  it("three unanimous votes at 0.95 are too few to call", async () => {
    const c = await consensusOf(ids.few);
    expect(c).toMatchObject({ status: "too_few_votes", voters: 3, decided_by: null, histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 3] });
    expect(c.since).not.toBeNull();
  });

  it("after the fit: bridged true and false are consensus decided by viewpoints; a carried claim is divided; a split middle is open", async () => {
    const fit = await runBridgingFit({ inline: true });
    expect(fit).not.toBeNull();
    const bothTrue = await consensusOf(ids.bothTrue);
    expect(bothTrue).toMatchObject({ status: "consensus_true", voters: 14, decided_by: "viewpoints" });
    expect(bothTrue.histogram.reduce((a, b) => a + b, 0)).toBe(14);
    expect(bothTrue.histogram.slice(0, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    // The status held through the fit (only who decided changed): it began when the votes made it.
    expect(bothTrue.since).toBe(before.bothTrue.since);
    expect(await consensusOf(ids.bothFalse)).toMatchObject({ status: "consensus_false", decided_by: "viewpoints" });
    const carried = await consensusOf(ids.carried);
    expect(carried).toMatchObject({ status: "divided", decided_by: null });
    // A new status: it began with the fit, after the votes' open.
    expect(Date.parse(carried.since!)).toBeGreaterThan(Date.parse(before.carried.since!));
    const plain = (await api.get(`/claims/${ids.carried}`)).body;
    expect(plain.bridging.status).toBe("divided");
    expect(await consensusOf(ids.middle)).toMatchObject({ status: "open", decided_by: null });
    expect((await api.get(`/claims/${ids.middle}`)).body.bridging.status).toBe("undecided");
  });

  it("voters the fit cannot place: the gradient decides true, false or open", async () => {
    for (const id of [ids.votesTrue, ids.votesFalse, ids.votesOpen]) {
      expect((await api.get(`/claims/${id}`)).body.bridging.status).toBe("insufficient_data");
    }
    expect(await consensusOf(ids.votesTrue)).toMatchObject({ status: "consensus_true", decided_by: "votes", voters: 5 });
    expect(await consensusOf(ids.votesFalse)).toMatchObject({ status: "consensus_false", decided_by: "votes" });
    expect(await consensusOf(ids.votesOpen)).toMatchObject({ status: "open", decided_by: null, histogram: [0, 0, 0, 0, 0, 0, 5, 0, 0, 0] });
  });

  it("a vote removed below five voters makes it too few again, with a new start", async () => {
    const c = await newClaim(api, author.token, { tags: ["consensus-test"] });
    const voters = await quickAgents(5);
    for (const v of voters) await vote(c.id, 0.05, v);
    const at5 = await consensusOf(c.id);
    expect(at5).toMatchObject({ status: "consensus_false", decided_by: "votes" });
    const del = await api.del(`/claims/${c.id}/vote`, { token: voters[0].token });
    expect(del.status).toBe(204);
    const at4 = await consensusOf(c.id);
    expect(at4).toMatchObject({ status: "too_few_votes", voters: 4, histogram: [4, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(Date.parse(at4.since!)).toBeGreaterThanOrEqual(Date.parse(at5.since!));
    // The vote's own answer carries the new consensus too.
    const again = await vote(c.id, 0.05, voters[0]);
    expect(again.consensus).toMatchObject({ status: "consensus_false", voters: 5 });
  });

  it("GET /claims?consensus= filters by status (comma-separated or repeated) and refuses unknown ones", async () => {
    const list = async (q: string) => {
      const res = await api.get(`/claims?tags=consensus-test&limit=100&${q}`);
      expect(res.status, res.text).toBe(200);
      return res.body as { claims: { id: string; consensus: { status: string } }[]; total: number };
    };
    const divided = await list("consensus=divided");
    expect(divided.claims.map((c) => c.id)).toContain(ids.carried);
    expect(divided.claims.every((c) => c.consensus.status === "divided")).toBe(true);
    expect(divided.total).toBe(divided.claims.length);
    const both = await list("consensus=consensus_true,consensus_false");
    expect(both.claims.map((c) => c.id)).toEqual(expect.arrayContaining([ids.bothTrue, ids.bothFalse, ids.votesTrue, ids.votesFalse]));
    expect(both.claims.every((c) => c.consensus.status.startsWith("consensus_"))).toBe(true);
    const repeated = await list("consensus=no_votes&consensus=too_few_votes");
    expect(repeated.claims.map((c) => c.id).sort()).toEqual([ids.none, ids.few].sort());
    const bad = await api.get("/claims?consensus=true");
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/consensus: each must be one of no_votes, too_few_votes, consensus_true/);
  });

  it("claims_at_consensus counts consensus_true and consensus_false, not gradients", async () => {
    const stats = await computePlatformStats();
    const atConsensus = await api.get("/claims?consensus=consensus_true,consensus_false&limit=1");
    expect(stats.claims_at_consensus).toBe(atConsensus.body.total);
    // `few` has a gradient of 0.95 but is not counted; neither is `carried` (plain gradient high).
    const all = await api.get("/claims?min_gradient=0.8&limit=100");
    const highButNot = all.body.claims.filter((c: { consensus: { status: string } }) => !c.consensus.status.startsWith("consensus_"));
    expect(highButNot.map((c: { id: string }) => c.id)).toContain(ids.few);
  });

  it("leaves every counter, histogram and status consistent", async () => {
    expect(await checkInvariants()).toEqual([]);
  });
});
