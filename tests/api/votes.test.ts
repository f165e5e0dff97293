// Claim votes, the reputation-weighted gradient and resolution (docs/api.md#claims, #scoring).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { gradientFromSums, voteWeight } from "../../server/domain/gradient.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, reputationOf, setReputation, UNKNOWN_ID, writeCounts, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let voter: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  voter = await quickAgent();
});
afterAll(() => api.close());

const vote = (claimId: string, value: unknown, who: Voter) => api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
const unvote = (claimId: string, who: Voter) => api.del(`/claims/${claimId}/vote`, { token: who.token });
const claimRow = (id: string) => db().claim.findUniqueOrThrow({ where: { id } });

/** The gradient the contract defines, from (value, reputation) pairs. */
function expectedGradient(votes: [value: number, reputation: number][]) {
  let weightedSum = 0;
  let weightTotal = 0;
  for (const [value, reputation] of votes) {
    weightedSum += voteWeight(reputation) * value;
    weightTotal += voteWeight(reputation);
  }
  return gradientFromSums({ weightedSum, weightTotal, voteCount: votes.length });
}

describe("POST /claims/{claim_id}/vote", () => {
  it("casts a vote: 200 with the claim, its new gradient and user_vote", async () => {
    const claim = await newClaim(api, author.token);
    const res = await vote(claim.id, 0.8, voter);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: claim.id, gradient: 0.8, vote_count: 1, user_vote: 0.8, is_bookmarked: false, is_following: false });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(claim.updated_at));
    const row = await db().claimVote.findUniqueOrThrow({ where: { claimId_agentId: { claimId: claim.id, agentId: voter.id } } });
    expect(row).toMatchObject({ value: 0.8, weight: voteWeight(0), crowdGradient: 0.5 });
  });

  it("voting again changes the vote, not the count", async () => {
    const claim = await newClaim(api, author.token);
    await vote(claim.id, 0.8, voter);
    const res = await vote(claim.id, 0.3, voter);
    expect(res.body).toMatchObject({ gradient: 0.3, vote_count: 1, user_vote: 0.3 });
    expect(await db().claimVote.count({ where: { claimId: claim.id } })).toBe(1);
    expect(await db().gradientHistory.count({ where: { claimId: claim.id } })).toBe(2);
  });

  it("accepts the bounds 0 and 1", async () => {
    const claim = await newClaim(api, author.token);
    expect((await vote(claim.id, 0, voter)).body.gradient).toBe(0);
    expect((await vote(claim.id, 1, voter)).body.gradient).toBe(1);
  });

  it("weights each vote by max(0.1, ln(1 + reputation)) at the time it is cast", async () => {
    const claim = await newClaim(api, author.token);
    const [novice, expert] = await quickAgents(2);
    await setReputation(expert.id, 99);
    await vote(claim.id, 0, novice);
    const res = await vote(claim.id, 1, expert);
    expect(res.body.gradient).toBeCloseTo(expectedGradient([[0, 0], [1, 99]]), 9);
    expect(res.body.gradient).toBeCloseTo(Math.log(100) / (Math.log(100) + 0.1), 9);
    const stored = await claimRow(claim.id);
    expect(stored.weightTotal).toBeCloseTo(0.1 + Math.log(100), 9);
    expect(stored.weightedSum).toBeCloseTo(Math.log(100), 9);

    // The expert's reputation falls: the stored vote keeps its weight until it is cast again.
    await setReputation(expert.id, 0);
    expect((await api.get(`/claims/${claim.id}`)).body.gradient).toBe(res.body.gradient);
    const recast = await vote(claim.id, 1, expert);
    expect(recast.body.gradient).toBeCloseTo(0.5, 9);
  });

  it("refuses a vote on one's own claim with 403 and changes nothing", async () => {
    const claim = await newClaim(api, author.token);
    const before = await writeCounts();
    const res = await vote(claim.id, 0.9, author);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
    expect(await writeCounts()).toEqual(before);
    expect((await claimRow(claim.id)).gradient).toBe(0.5);
  });

  it("answers 404 'Claim not found' for an unknown or malformed claim", async () => {
    for (const id of [UNKNOWN_ID, "nope", "12345"]) {
      const res = await vote(id, 0.5, voter);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });

  it("requires a token", async () => {
    const claim = await newClaim(api, author.token);
    const res = await api.post(`/claims/${claim.id}/vote`, { value: 0.5 });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
  });

  it.each([
    ["1.1", { value: 1.1 }],
    ["-0.1", { value: -0.1 }],
    ["a string", { value: "0.5" }],
    ["null", { value: null }],
    ["true", { value: true }],
    ["an array", { value: [0.5] }],
    ["no value", {}],
    ["1e308", { value: 1e308 }],
  ])("refuses %s as value with 400 'value: ...' and writes nothing", async (_label, body) => {
    const claim = await newClaim(api, author.token);
    const before = await writeCounts();
    const res = await api.post(`/claims/${claim.id}/vote`, body, { token: voter.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^value: /);
    expect(await writeCounts()).toEqual(before);
  });

  it("says the rule for an out-of-range value", async () => {
    const claim = await newClaim(api, author.token);
    expect((await vote(claim.id, 2, voter)).body.detail).toBe("value: must be between 0 and 1");
  });
});

describe("DELETE /claims/{claim_id}/vote", () => {
  it("removes the vote: 204, the count and the gradient follow, a history point is added", async () => {
    const claim = await newClaim(api, author.token);
    const other = await quickAgent();
    await vote(claim.id, 1, voter);
    await vote(claim.id, 0.2, other);
    const res = await unvote(claim.id, voter);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const row = await claimRow(claim.id);
    expect(row).toMatchObject({ voteCount: 1, gradient: 0.2 });
    const detail = await api.get(`/claims/${claim.id}`, { token: voter.token });
    expect(detail.body.user_vote).toBeNull();
    expect(detail.body.gradient_history.at(-1)).toMatchObject({ gradient: 0.2, vote_count: 1 });
  });

  it("back to 0.5 with exact zero sums when the last vote goes", async () => {
    const claim = await newClaim(api, author.token);
    await vote(claim.id, 0.7, voter);
    await unvote(claim.id, voter);
    expect(await claimRow(claim.id)).toMatchObject({ gradient: 0.5, voteCount: 0, weightedSum: 0, weightTotal: 0 });
  });

  it("answers 204 when there is no vote, and writes nothing", async () => {
    const claim = await newClaim(api, author.token);
    const before = await writeCounts();
    expect((await unvote(claim.id, voter)).status).toBe(204);
    expect((await unvote(claim.id, author)).status).toBe(204);
    expect(await writeCounts()).toEqual(before);
  });

  it("answers 404 for an unknown or malformed claim, 401 without a token", async () => {
    for (const id of [UNKNOWN_ID, "nope"]) {
      const res = await unvote(id, voter);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
    const claim = await newClaim(api, author.token);
    expect((await api.del(`/claims/${claim.id}/vote`)).status).toBe(401);
  });
});

describe("resolution", () => {
  it("happens on the vote that brings 10 votes to consensus, once: aligned voters +1, counted correct", async () => {
    const claim = await newClaim(api, author.token);
    const voters = await quickAgents(11);
    for (const v of voters.slice(0, 9)) await vote(claim.id, 0.9, v);
    expect((await claimRow(claim.id)).resolvedAt).toBeNull();
    for (const v of voters.slice(0, 9)) expect((await reputationOf(v.id)).reputation).toBe(0);

    await vote(claim.id, 0.9, voters[9]);
    expect((await claimRow(claim.id)).resolvedAt).not.toBeNull();
    for (const v of voters.slice(0, 10)) {
      expect(await reputationOf(v.id)).toMatchObject({ reputation: 1, tier: "new", resolvedVotes: 1, correctResolvedVotes: 1 });
      const events = await db().reputationEvent.findMany({ where: { agentId: v.id } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ reason: "vote_aligned", delta: 1, reputationScore: 1, claimId: claim.id });
    }
    const outcomes = await db().voteOutcomeRecord.findMany({ where: { claimId: claim.id }, select: { outcome: true } });
    expect(outcomes).toHaveLength(10);
    expect(outcomes.every((o) => o.outcome === "aligned")).toBe(true);

    // Later votes and changes do not resolve it again.
    await vote(claim.id, 0.95, voters[10]);
    await vote(claim.id, 0.1, voters[0]);
    await vote(claim.id, 0.9, voters[0]);
    expect(await reputationOf(voters[10].id)).toMatchObject({ reputation: 0, resolvedVotes: 0 });
    expect(await reputationOf(voters[0].id)).toMatchObject({ reputation: 1, resolvedVotes: 1 });
    expect(await db().reputationEvent.count({ where: { claimId: claim.id } })).toBe(10);
    expect(await checkInvariants()).toEqual([]);
  });

  it("opposed voters lose 0.5, 0.5 voters are untouched, and tiers follow", async () => {
    const claim = await newClaim(api, author.token);
    const aligned = await quickAgents(8);
    const [neutral, opposed] = await quickAgents(2);
    for (const a of aligned) await setReputation(a.id, 99);
    await setReputation(opposed.id, 10);
    await vote(claim.id, 0.1, opposed);
    await vote(claim.id, 0.5, neutral);
    for (const a of aligned) await vote(claim.id, 0.95, a);

    const row = await claimRow(claim.id);
    expect(row.gradient).toBeCloseTo(expectedGradient([[0.1, 10], [0.5, 0], ...aligned.map(() => [0.95, 99] as [number, number])]), 9);
    expect(row.gradient).toBeGreaterThan(0.8);
    expect(row.resolvedAt).not.toBeNull();

    for (const a of aligned) {
      expect(await reputationOf(a.id)).toMatchObject({ reputation: 100, tier: "established", resolvedVotes: 1, correctResolvedVotes: 1 });
    }
    expect(await reputationOf(opposed.id)).toMatchObject({ reputation: 9.5, tier: "new", resolvedVotes: 1, correctResolvedVotes: 0 });
    const opposedEvents = await db().reputationEvent.findMany({ where: { agentId: opposed.id, reason: "vote_opposed" } });
    expect(opposedEvents).toHaveLength(1);
    expect(opposedEvents[0]).toMatchObject({ delta: -0.5, reputationScore: 9.5, claimId: claim.id });
    expect(await reputationOf(neutral.id)).toMatchObject({ reputation: 0, resolvedVotes: 0 });
    expect(await db().reputationEvent.count({ where: { agentId: neutral.id } })).toBe(0);
    const outcome = async (v: Voter) =>
      (await db().voteOutcomeRecord.findUniqueOrThrow({ where: { claimId_agentId: { claimId: claim.id, agentId: v.id } } })).outcome;
    expect(await outcome(opposed)).toBe("opposed");
    expect(await outcome(neutral)).toBe("neutral");
    expect(await outcome(aligned[0])).toBe("aligned");
    expect(await checkInvariants()).toEqual([]);
  });

  it("false consensus: low votes are the aligned ones; an opposed voter at 0 stays at 0", async () => {
    const claim = await newClaim(api, author.token);
    const low = await quickAgents(9);
    const high = await quickAgent();
    await vote(claim.id, 0.9, high);
    for (const v of low) await vote(claim.id, 0.05, v);
    const row = await claimRow(claim.id);
    expect(row.gradient).toBeLessThan(0.2);
    expect(row.resolvedAt).not.toBeNull();
    expect(await reputationOf(low[0].id)).toMatchObject({ reputation: 1, correctResolvedVotes: 1 });
    expect(await reputationOf(high.id)).toMatchObject({ reputation: 0, resolvedVotes: 1, correctResolvedVotes: 0 });
    const [event] = await db().reputationEvent.findMany({ where: { agentId: high.id } });
    expect(event).toMatchObject({ reason: "vote_opposed", delta: 0, reputationScore: 0 });
  });

  it("does not happen with 9 votes, nor at exactly 0.8", async () => {
    const nine = await newClaim(api, author.token);
    const exact = await newClaim(api, author.token);
    const voters = await quickAgents(10);
    for (const v of voters.slice(0, 9)) await vote(nine.id, 1, v);
    for (const v of voters) await vote(exact.id, 0.8, v);
    expect((await claimRow(nine.id)).resolvedAt).toBeNull();
    expect(await claimRow(exact.id)).toMatchObject({ resolvedAt: null, gradient: 0.8, voteCount: 10 });
  });

  it("can be reached by removing a vote", async () => {
    const claim = await newClaim(api, author.token);
    const heavy = await quickAgent();
    await setReputation(heavy.id, 1);
    await vote(claim.id, 0, heavy);
    const voters = await quickAgents(10);
    for (const v of voters) await vote(claim.id, 0.9, v);
    expect((await claimRow(claim.id)).resolvedAt).toBeNull();
    expect((await unvote(claim.id, heavy)).status).toBe(204);
    expect(await claimRow(claim.id)).toMatchObject({ voteCount: 10, gradient: 0.9 });
    expect((await claimRow(claim.id)).resolvedAt).not.toBeNull();
    expect(await reputationOf(voters[0].id)).toMatchObject({ reputation: 1, correctResolvedVotes: 1 });
    expect(await reputationOf(heavy.id)).toMatchObject({ reputation: 1, resolvedVotes: 0 });
  });
});
