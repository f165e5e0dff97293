// Automated accounts counted apart: `automated` at registration and through PATCH /auth/me, every
// Claim's gradient_people (the weighted mean over the votes of people, null when there are none),
// exact under concurrent votes from both kinds of accounts and while accounts change their flag,
// the leaderboard's automated filter — and the invariants check covers the people sums.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { gradientFromSums, voteWeight } from "../../server/domain/gradient.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, quickAgents, setReputation, type Voter } from "./claims-fixtures.ts";

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

async function makeAutomated(voters: Voter[]): Promise<void> {
  for (const v of voters) expect((await api.patch("/auth/me", { automated: true }, { token: v.token })).status).toBe(200);
}

describe("automated accounts", () => {
  it("registration takes automated; Agent carries it; PATCH /auth/me changes it; a bad value is a 400", async () => {
    const username = uniqueName("bot");
    const reg = await api.post("/auth/register", { email: `${username}@example.test`, password: "Password123", username, automated: true });
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body.automated).toBe(true);
    const person = await quickAgent();
    expect((await api.get("/auth/me", { token: person.token })).body.automated).toBe(false);
    const bad = await api.patch("/auth/me", { automated: "yes" }, { token: person.token });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("automated: must be true or false");
    const changed = await api.patch("/auth/me", { automated: true }, { token: person.token });
    expect(changed.status).toBe(200);
    expect(changed.body.automated).toBe(true);
    expect((await api.get(`/profiles/${person.id}`)).body.automated).toBe(true);
  });

  it("gradient_people is null without votes of people, and leaves automated votes out", async () => {
    const claim = await newClaim(api, author.token);
    expect(claim.gradient_people).toBeNull();
    const [bot, person] = await quickAgents(2);
    await makeAutomated([bot]);
    const afterBot = await api.post(`/claims/${claim.id}/vote`, { value: 0.1 }, { token: bot.token });
    expect(afterBot.body.gradient).toBe(0.1);
    expect(afterBot.body.gradient_people).toBeNull();
    const afterPerson = await api.post(`/claims/${claim.id}/vote`, { value: 0.9 }, { token: person.token });
    expect(afterPerson.body.gradient).toBeCloseTo(0.5, 9);
    expect(afterPerson.body.gradient_people).toBe(0.9);
    // The account flips to a person's: its vote moves into the people sums at once.
    expect((await api.patch("/auth/me", { automated: false }, { token: bot.token })).status).toBe(200);
    expect((await api.get(`/claims/${claim.id}`)).body.gradient_people).toBeCloseTo(0.5, 9);
    expect(await checkInvariants()).toEqual([]);
  });

  it("stays exact under concurrent votes from both kinds of accounts and flag changes", async () => {
    const claim = await newClaim(api, author.token);
    const voters = await quickAgents(24);
    const bots = voters.filter((_, i) => i % 3 === 0);
    await makeAutomated(bots);
    const reputations = voters.map((_, i) => (i % 5) * 40);
    for (const [i, v] of voters.entries()) if (reputations[i] > 0) await setReputation(v.id, reputations[i]);
    const values = voters.map((_, i) => ((i * 7) % 11) / 10);
    // Everyone votes at once; meanwhile two bots turn into people and one person into a bot.
    const flips: [Voter, boolean][] = [[bots[0], false], [bots[1], false], [voters[1], true]];
    const responses = await Promise.all([
      ...voters.map((v, i) => api.post(`/claims/${claim.id}/vote`, { value: values[i] }, { token: v.token })),
      ...flips.map(([v, automated]) => api.patch("/auth/me", { automated }, { token: v.token })),
    ]);
    expect([...new Set(responses.map((r) => r.status))]).toEqual([200]);
    // A flag change that ran before the vote was written is picked up by the vote; one that ran after
    // re-sorted it. Either way the final state follows the flags as they stand.
    const automatedNow = new Set([...bots.slice(2), voters[1]].map((v) => v.id));
    let ws = 0;
    let wt = 0;
    let n = 0;
    voters.forEach((v, i) => {
      if (automatedNow.has(v.id)) return;
      ws += voteWeight(reputations[i]) * values[i];
      wt += voteWeight(reputations[i]);
      n++;
    });
    const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(row.voteCount).toBe(24);
    expect(row.peopleVoteCount).toBe(n);
    expect(row.peopleWeightedSum).toBeCloseTo(ws, 9);
    expect(row.peopleWeightTotal).toBeCloseTo(wt, 9);
    const shown = await api.get(`/claims/${claim.id}`);
    expect(shown.body.gradient_people).toBeCloseTo(gradientFromSums({ weightedSum: ws, weightTotal: wt, voteCount: n }), 9);
    expect(await checkInvariants()).toEqual([]);
  });

  it("the invariants check notices people sums that drifted", async () => {
    const claim = await newClaim(api, author.token);
    const person = await quickAgent();
    await api.post(`/claims/${claim.id}/vote`, { value: 0.7 }, { token: person.token });
    await db().claim.update({ where: { id: claim.id }, data: { peopleWeightedSum: 5 } });
    const problems = await checkInvariants();
    expect(problems.some((p) => p.includes(claim.id) && p.includes("people_weighted_sum"))).toBe(true);
    await db().claim.update({ where: { id: claim.id }, data: { peopleWeightedSum: 0.7 * voteWeight(0) } });
    expect(await checkInvariants()).toEqual([]);
  });

  it("the leaderboard takes automated=true|false", async () => {
    const bot = await quickAgent();
    await makeAutomated([bot]);
    await setReputation(bot.id, 5000);
    const everyone = await api.get("/discover/leaderboard?by=reputation&limit=100");
    expect(everyone.body.agents.map((a: { id: string }) => a.id)).toContain(bot.id);
    const people = await api.get("/discover/leaderboard?by=reputation&limit=100&automated=false");
    expect(people.status).toBe(200);
    expect(people.body.agents.every((a: { automated: boolean }) => !a.automated)).toBe(true);
    expect(people.body.agents.map((a: { id: string }) => a.id)).not.toContain(bot.id);
    const bots = await api.get("/discover/leaderboard?by=reputation&automated=true");
    expect(bots.body.agents[0].id).toBe(bot.id);
    expect(bots.body.total).toBeLessThan(everyone.body.total);
    expect((await api.get("/discover/leaderboard?automated=maybe")).status).toBe(400);
  });
});
