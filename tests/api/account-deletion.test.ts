// Deleting an account (docs/features/accounts.md) on a database full of that account's votes and
// evidence votes: every counter, gradient and reputation it moved is corrected in the same
// transaction (checkInvariants() recomputes them all from the raw rows, as `npm run check:invariants`
// does), other people's track records stay exactly as they were, what it wrote stays under the
// tombstone, and nothing of the person is left to find.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

async function ok(res: Promise<{ status: number; text: string; body: any }>, status = 200) {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r;
}

describe("POST /auth/me/delete", () => {
  let leaving: TestAgent;
  let others: Voter[];
  let authorOfEvidence: TestAgent;
  const claimsVoted: string[] = [];
  let resolvedClaim: string;
  let ownClaim: string;
  let ownEvidence: string;
  let hiddenClaim: string;

  beforeAll(async () => {
    leaving = await createAgent(api);
    authorOfEvidence = await createAgent(api);
    others = await quickAgents(10);
    // Claims by others that the leaving account votes on, with others' votes beside it.
    for (let i = 0; i < 6; i++) {
      const c = await ok(api.post("/claims", { statement: `A claim the leaving account voted on, number ${i}.`, tags: ["deletion"] }, { token: authorOfEvidence.token }), 201);
      claimsVoted.push((c as unknown as { body: { id: string } }).body.id);
    }
    for (const [i, id] of claimsVoted.entries()) {
      await ok(api.post(`/claims/${id}/vote`, { value: (i % 5) / 4 }, { token: leaving.token }));
      await ok(api.post(`/claims/${id}/vote`, { value: 0.7 }, { token: others[i].token }));
    }
    // A claim that resolves with the leaving account among its voters: outcome records for everyone.
    resolvedClaim = claimsVoted[0];
    for (const voter of others.slice(1)) await ok(api.post(`/claims/${resolvedClaim}/vote`, { value: 0.95 }, { token: voter.token }));
    // A hidden claim the account voted on.
    hiddenClaim = claimsVoted[5];
    await db().$executeRawUnsafe(`UPDATE claims SET hidden_at = now() WHERE id = $1::uuid`, hiddenClaim);

    // Evidence votes both ways: the account votes on others' evidence, others on the account's.
    for (const [i, id] of claimsVoted.slice(0, 4).entries()) {
      const e = await api.post(`/claims/${id}/evidence`, { position: "supports", content_type: "text", content: `Evidence ${i}` }, { token: authorOfEvidence.token });
      await ok(api.post(`/evidence/${e.body.id}/vote`, { direction: i % 2 === 0 ? "up" : "down" }, { token: leaving.token }));
    }
    const own = await api.post("/claims", { statement: "A claim written by the account that leaves.", tags: ["deletion"] }, { token: leaving.token });
    ownClaim = own.body.id;
    await ok(api.post(`/claims/${ownClaim}/vote`, { value: 0.3 }, { token: others[0].token }));
    const ev = await api.post(`/claims/${claimsVoted[1]}/evidence`, { position: "opposes", content_type: "text", content: "The leaving account's evidence" }, { token: leaving.token });
    ownEvidence = ev.body.id;
    await ok(api.post(`/evidence/${ownEvidence}/vote`, { direction: "up" }, { token: others[2].token }));
    await ok(api.post(`/evidence/${ownEvidence}/vote`, { direction: "down" }, { token: others[3].token }));
    await ok(api.post(`/claims/${ownClaim}/comments`, { content: "A comment by the leaving account" }, { token: leaving.token }), 201);
    await ok(api.post(`/claims/${claimsVoted[2]}/bookmark`, undefined, { token: leaving.token }));
    await ok(api.post("/auth/api-keys", { name: "doomed", scopes: ["read"] }, { token: leaving.token }), 201);
    expect(await checkInvariants()).toEqual([]);
  });

  it("refuses a wrong password and changes nothing", async () => {
    const res = await api.post("/auth/me/delete", { password: "Wrong1234" }, { token: leaving.token });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Insufficient permissions");
    expect((await api.get("/auth/me", { token: leaving.token })).status).toBe(200);
  });

  it("removes the person and corrects everything they moved, in one go", async () => {
    const trackRecords = await Promise.all(others.map(async (o) => (await api.get(`/profiles/${o.id}/track-record`)).body));
    const outcomesBefore = await db().voteOutcomeRecord.count({ where: { claimId: resolvedClaim } });
    expect(outcomesBefore).toBe(10);
    const reputationBefore = (await api.get(`/profiles/${authorOfEvidence.id}`)).body.reputation_score;
    const votesBefore = await Promise.all(claimsVoted.slice(0, 5).map(async (id) => (await api.get(`/claims/${id}`)).body.vote_count));

    const res = await api.post("/auth/me/delete", { password: leaving.password }, { token: leaving.token });
    expect(res.status, res.text).toBe(204);
    expect(await checkInvariants()).toEqual([]);

    // The person is gone: credentials, profile, username.
    expect((await api.get("/auth/me", { token: leaving.token })).status).toBe(401);
    expect((await api.get(`/profiles/${leaving.id}`)).status).toBe(404);
    expect((await api.get(`/profiles/${leaving.username}`)).status).toBe(404);
    expect((await api.post("/auth/login", { email: leaving.email, password: leaving.password })).status).toBe(401);
    const again = await api.post("/auth/register", { email: `other-${leaving.email}`, password: "Password123", username: leaving.username.toUpperCase() });
    expect(again.status).toBe(409);
    expect(await db().agent.count({ where: { id: leaving.id } })).toBe(0);
    expect(await db().apiKey.count({ where: { agentId: leaving.id } })).toBe(0);
    expect(await db().bookmark.count({ where: { agentId: leaving.id } })).toBe(0);

    // Their votes are out of every claim; the counts dropped by one.
    const votesAfter = await Promise.all(claimsVoted.slice(0, 5).map(async (id) => (await api.get(`/claims/${id}`)).body.vote_count));
    expect(votesAfter).toEqual(votesBefore.map((n: number) => n - 1));
    // The evidence they voted on: each of the four votes reversed on its author, one event each (the
    // result depends on the order where reputation touched 0, as when a person removes votes one by one).
    const removals = await db().reputationEvent.count({ where: { agentId: authorOfEvidence.id, reason: "evidence_vote_removed" } });
    expect(removals).toBe(4);
    expect((await api.get(`/profiles/${authorOfEvidence.id}`)).body.reputation_score).not.toBe(reputationBefore);

    // Resolved-vote records stay, anonymous; everyone else's track record is unchanged.
    expect(await db().voteOutcomeRecord.count({ where: { claimId: resolvedClaim } })).toBe(outcomesBefore);
    expect(await db().voteOutcomeRecord.count({ where: { claimId: resolvedClaim, agentId: null } })).toBe(1);
    const trackRecordsAfter = await Promise.all(others.map(async (o) => (await api.get(`/profiles/${o.id}/track-record`)).body));
    expect(trackRecordsAfter).toEqual(trackRecords);

    // What they wrote stays, under the tombstone.
    const claim = await api.get(`/claims/${ownClaim}`);
    expect(claim.status).toBe(200);
    expect(claim.body.author).toMatchObject({ username: "deleted", display_name: "Deleted account" });
    expect(claim.body.vote_count).toBe(1);
    const evidence = await api.get(`/evidence/${ownEvidence}`);
    expect(evidence.body).toMatchObject({ upvotes: 1, downvotes: 1, author: { username: "deleted" } });
    const comments = await api.get(`/claims/${ownClaim}/comments`);
    expect(comments.body.comments[0]).toMatchObject({ content: "A comment by the leaving account", author: { username: "deleted" } });
    expect((await api.get(`/profiles/deleted`)).status).toBe(404);
    expect((await api.get(`/profiles/${claim.body.author.id}`)).status).toBe(404);
    // Nobody's search finds the person.
    const search = await api.get(`/claims?q=${encodeURIComponent(leaving.username)}`);
    expect(search.text).not.toContain(leaving.username);

    // Votes on the tombstone's evidence change and go without touching anyone's reputation wrongly.
    await ok(api.post(`/evidence/${ownEvidence}/vote`, { direction: "up" }, { token: others[3].token }));
    await ok(api.del(`/evidence/${ownEvidence}/vote`, { token: others[2].token }), 204);
    expect(await checkInvariants()).toEqual([]);
  });

  it("works for an account that added an argument and voted on arguments' relevance (was a 500)", async () => {
    const arguer = await createAgent(api);
    const parent = claimsVoted[4];
    const arg = await ok(api.post(`/claims/${parent}/arguments`, { stance: "opposes", statement: "An argument by an account that then leaves." }, { token: arguer.token }), 201);
    await ok(api.post(`/arguments/${arg.body.id}/relevance`, { value: 0.8 }, { token: arguer.token }));
    await ok(api.post(`/arguments/${arg.body.id}/relevance`, { value: 0.2 }, { token: authorOfEvidence.token }));
    const res = await api.post("/auth/me/delete", { password: arguer.password }, { token: arguer.token });
    expect(res.status, res.text).toBe(204);
    expect(await checkInvariants()).toEqual([]);
    const list = await api.get(`/claims/${parent}/arguments`);
    expect(list.body.arguments.find((a: { id: string }) => a.id === arg.body.id)).toMatchObject({
      author: { username: "deleted" },
      relevance: { value: expect.closeTo(0.2, 9), votes: 1 },
    });
  });

  it("for an account without a password, the username typed is the confirmation", async () => {
    const [oauthOnly] = await quickAgents(1);
    const row = await db().agent.findUniqueOrThrow({ where: { id: oauthOnly.id }, select: { username: true } });
    const c = await api.post("/claims", { statement: "Written by an account that never had a password." }, { token: oauthOnly.token });
    await ok(api.post(`/claims/${claimsVoted[3]}/vote`, { value: 0.1 }, { token: oauthOnly.token }));
    expect((await api.post("/auth/me/delete", { confirm: "someone-else" }, { token: oauthOnly.token })).status).toBe(403);
    expect((await api.post("/auth/me/delete", {}, { token: oauthOnly.token })).status).toBe(403);
    expect((await api.post("/auth/me/delete", { confirm: row.username }, { token: oauthOnly.token })).status).toBe(204);
    expect((await api.get(`/claims/${c.body.id}`)).body.author.username).toBe("deleted");
    expect(await checkInvariants()).toEqual([]);
  });
});
