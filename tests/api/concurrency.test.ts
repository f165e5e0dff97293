// Concurrent writes against the real database (PGlite by default, PostgreSQL with DATABASE_URL):
// the claim row lock keeps votes, sums, gradients and counters exact; afterwards every derived field
// still equals what the raw rows say (checkInvariants).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { gradientFromSums, voteWeight } from "../../server/domain/gradient.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, newEvidence, quickAgent, quickAgents, reputationOf, setReputation, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(async () => {
  expect(await checkInvariants()).toEqual([]);
  await api.close();
});

const statuses = (responses: { status: number }[]) => [...new Set(responses.map((r) => r.status))];

describe("claim votes", () => {
  it("30 parallel votes by one agent on one claim leave exactly one vote", async () => {
    const claim = await newClaim(api, author.token);
    const voter = await quickAgent();
    const values = Array.from({ length: 30 }, (_, i) => i / 29);
    const responses = await Promise.all(values.map((value) => api.post(`/claims/${claim.id}/vote`, { value }, { token: voter.token })));
    expect(statuses(responses)).toEqual([200]);

    const votes = await db().claimVote.findMany({ where: { claimId: claim.id } });
    expect(votes).toHaveLength(1);
    const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.voteCount).toBe(1);
    // The claim holds exactly the vote that committed last.
    expect(row.gradient).toBeCloseTo(votes[0].value, 9);
    expect(row.weightTotal).toBeCloseTo(voteWeight(0), 12);
    expect(await db().gradientHistory.count({ where: { claimId: claim.id } })).toBe(30);
    expect(await checkInvariants()).toEqual([]);
  });

  it("20 agents voting at once leave vote_count 20 and the exact weighted gradient", async () => {
    const claim = await newClaim(api, author.token);
    const voters = await quickAgents(20);
    // Different reputations, so a lost update would show in the weighted mean.
    const reputations = voters.map((_, i) => i * 7);
    for (const [i, v] of voters.entries()) if (reputations[i] > 0) await setReputation(v.id, reputations[i]);
    const values = voters.map((_, i) => ((i * 37) % 21) / 20);

    const responses = await Promise.all(voters.map((v, i) => api.post(`/claims/${claim.id}/vote`, { value: values[i] }, { token: v.token })));
    expect(statuses(responses)).toEqual([200]);

    let weightedSum = 0;
    let weightTotal = 0;
    values.forEach((value, i) => {
      weightedSum += voteWeight(reputations[i]) * value;
      weightTotal += voteWeight(reputations[i]);
    });
    const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.voteCount).toBe(20);
    expect(row.gradient).toBeCloseTo(gradientFromSums({ weightedSum, weightTotal, voteCount: 20 }), 9);
    expect(row.weightTotal).toBeCloseTo(weightTotal, 9);
    expect(row.weightedSum).toBeCloseTo(weightedSum, 9);
    expect((await api.get(`/claims/${claim.id}`)).body.gradient_history.map((p: any) => p.vote_count)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(await checkInvariants()).toEqual([]);
  });

  it("a storm of casts, changes and removals by many agents stays exact", async () => {
    const claims = [await newClaim(api, author.token), await newClaim(api, author.token)];
    const voters = await quickAgents(12);
    const requests: Promise<{ status: number }>[] = [];
    for (const [i, v] of voters.entries()) {
      for (const claim of claims) {
        requests.push(api.post(`/claims/${claim.id}/vote`, { value: (i % 5) / 4 }, { token: v.token }));
        requests.push(api.post(`/claims/${claim.id}/vote`, { value: ((i + 2) % 5) / 4 }, { token: v.token }));
        if (i % 3 === 0) requests.push(api.del(`/claims/${claim.id}/vote`, { token: v.token }));
      }
    }
    const responses = await Promise.all(requests);
    expect(responses.every((r) => r.status === 200 || r.status === 204)).toBe(true);
    for (const claim of claims) {
      const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
      expect(row.voteCount).toBe(await db().claimVote.count({ where: { claimId: claim.id } }));
    }
    expect(await checkInvariants()).toEqual([]);
  });

  it("12 agents reaching consensus at once resolve the claim exactly once", async () => {
    const claim = await newClaim(api, author.token);
    const voters = await quickAgents(12);
    const responses = await Promise.all(voters.map((v) => api.post(`/claims/${claim.id}/vote`, { value: 0.95 }, { token: v.token })));
    expect(statuses(responses)).toEqual([200]);
    const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.resolvedAt).not.toBeNull();
    // The 10th vote resolved it: ten voters were rewarded, the two after them were not.
    expect(await db().reputationEvent.count({ where: { claimId: claim.id, reason: "vote_aligned" } })).toBe(10);
    expect(await db().voteOutcomeRecord.count({ where: { claimId: claim.id, outcome: "aligned" } })).toBe(10);
    const reputations = await Promise.all(voters.map(async (v) => (await reputationOf(v.id)).reputation));
    expect(reputations.filter((r) => r === 1)).toHaveLength(10);
    expect(reputations.filter((r) => r === 0)).toHaveLength(2);
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("evidence votes", () => {
  it("parallel evidence votes leave exact counters and reputation", async () => {
    const writer = await quickAgent();
    const claim = await newClaim(api, author.token);
    const evidence = [await newEvidence(api, writer.token, claim.id), await newEvidence(api, writer.token, claim.id)];
    const voters = await quickAgents(16);

    // Everyone votes up on both pieces at once: 32 × +5.
    const ups = await Promise.all(voters.flatMap((v) => evidence.map((e) => api.post(`/evidence/${e.id}/vote`, { direction: "up" }, { token: v.token }))));
    expect(statuses(ups)).toEqual([200]);
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 160, tier: "established" });

    // Then at once: a quarter switch to down, a quarter remove, the rest vote up again (no change).
    const mixed = await Promise.all(
      voters.flatMap((v, i) =>
        evidence.map((e) =>
          i % 4 === 0
            ? api.post(`/evidence/${e.id}/vote`, { direction: "down" }, { token: v.token })
            : i % 4 === 1
              ? api.del(`/evidence/${e.id}/vote`, { token: v.token })
              : api.post(`/evidence/${e.id}/vote`, { direction: "up" }, { token: v.token }),
        ),
      ),
    );
    expect(mixed.every((r) => r.status === 200 || r.status === 204)).toBe(true);

    for (const e of evidence) {
      const row = await db().evidence.findUniqueOrThrow({ where: { id: e.id } });
      expect(row).toMatchObject({ upvotes: 8, downvotes: 4, voteScore: 4 });
    }
    // Per piece 8 ups (+40) and 4 downs (−12), reached without ever touching 0: 2 × 28.
    expect(await reputationOf(writer.id)).toMatchObject({ reputation: 56, tier: "new" });
    expect(await checkInvariants()).toEqual([]);
  });

  it("parallel up and down votes by one agent leave one vote and a consistent author", async () => {
    const writer = await quickAgent();
    const claim = await newClaim(api, author.token);
    const evidence = await newEvidence(api, writer.token, claim.id);
    const voter = await quickAgent();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 5 === 4
          ? api.del(`/evidence/${evidence.id}/vote`, { token: voter.token })
          : api.post(`/evidence/${evidence.id}/vote`, { direction: i % 2 ? "up" : "down" }, { token: voter.token }),
      ),
    );
    expect(responses.every((r) => r.status === 200 || r.status === 204)).toBe(true);
    expect(await db().evidenceVote.count({ where: { evidenceId: evidence.id } })).toBeLessThanOrEqual(1);
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("other writes", () => {
  it("parallel claim creation keeps the claims counter exact", async () => {
    const agents = await quickAgents(3);
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => api.post("/claims", { statement: `Concurrent claim number ${i}` }, { token: agents[i % 3].token })),
    );
    expect(statuses(responses)).toEqual([201]);
    const counter = await db().platformCounter.findUniqueOrThrow({ where: { name: "claims" } });
    expect(Number(counter.value)).toBe(await db().claim.count());
  });

  it("parallel bookmarks and follows by one agent leave one of each", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? api.post(`/claims/${claim.id}/bookmark`, undefined, { token: me.token }) : api.post(`/claims/${claim.id}/follow`, undefined, { token: me.token }),
      ),
    );
    expect(statuses(responses)).toEqual([200]);
    expect(await db().bookmark.count({ where: { agentId: me.id } })).toBe(1);
    expect(await db().follow.count({ where: { agentId: me.id } })).toBe(1);
  });

  it("parallel evidence on one claim keeps evidence_count exact", async () => {
    const claim = await newClaim(api, author.token);
    const writers = await quickAgents(4);
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api.post(`/claims/${claim.id}/evidence`, { position: "neutral", content_type: "text", content: `Evidence ${i}` }, { token: writers[i % 4].token }),
      ),
    );
    expect(statuses(responses)).toEqual([201]);
    expect((await db().claim.findUniqueOrThrow({ where: { id: claim.id } })).evidenceCount).toBe(16);
  });
});
