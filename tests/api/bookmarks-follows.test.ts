// Bookmarks and follows, and the caller's lists of them (docs/api.md#claims).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { newClaim, quickAgent, UNKNOWN_ID, writeCounts, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

describe("bookmarks", () => {
  it("POST with no body bookmarks: 200 {claim_id, is_bookmarked, created_at}; again keeps the first", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const first = await api.request("POST", `/claims/${claim.id}/bookmark`, { token: me.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ claim_id: claim.id, is_bookmarked: true, created_at: expect.stringMatching(/Z$/) });
    const again = await api.post(`/claims/${claim.id}/bookmark`, {}, { token: me.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await db().bookmark.count({ where: { agentId: me.id } })).toBe(1);
  });

  it("GET /claims/bookmarks lists the caller's bookmarks, newest bookmark first, with is_bookmarked true", async () => {
    const me = await quickAgent();
    const someoneElse = await quickAgent();
    const claims = [await newClaim(api, author.token), await newClaim(api, author.token), await newClaim(api, author.token)];
    // Bookmarked in an order different from creation.
    for (const c of [claims[1], claims[0], claims[2]]) await api.post(`/claims/${c.id}/bookmark`, undefined, { token: me.token });
    await api.post(`/claims/${claims[1].id}/bookmark`, undefined, { token: someoneElse.token });

    const res = await api.get("/claims/bookmarks", { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(res.body.claims.map((c: any) => c.id)).toEqual([claims[2].id, claims[0].id, claims[1].id]);
    expect(res.body.claims.every((c: any) => c.is_bookmarked === true)).toBe(true);

    const page = await api.get("/claims/bookmarks?limit=2&offset=1", { token: me.token });
    expect(page.body.claims.map((c: any) => c.id)).toEqual([claims[0].id, claims[1].id]);
    expect(page.body.total).toBe(3);

    const theirs = await api.get("/claims/bookmarks", { token: someoneElse.token });
    expect(theirs.body.claims.map((c: any) => c.id)).toEqual([claims[1].id]);
  });

  it("DELETE removes the bookmark (204), and again (204)", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/bookmark`, undefined, { token: me.token });
    const res = await api.del(`/claims/${claim.id}/bookmark`, { token: me.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api.del(`/claims/${claim.id}/bookmark`, { token: me.token })).status).toBe(204);
    expect((await api.get("/claims/bookmarks", { token: me.token })).body.total).toBe(0);
    expect((await api.get(`/claims/${claim.id}`, { token: me.token })).body.is_bookmarked).toBe(false);
  });

  it("404 'Claim not found' for unknown and malformed ids, 401 without a token; nothing written", async () => {
    const me = await quickAgent();
    const before = await writeCounts();
    for (const id of [UNKNOWN_ID, "bookmark-me"]) {
      for (const res of [await api.post(`/claims/${id}/bookmark`, undefined, { token: me.token }), await api.del(`/claims/${id}/bookmark`, { token: me.token })]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
      }
    }
    const claim = await newClaim(api, author.token);
    expect((await api.post(`/claims/${claim.id}/bookmark`)).status).toBe(401);
    expect((await api.del(`/claims/${claim.id}/bookmark`)).status).toBe(401);
    expect((await writeCounts()).bookmarks).toBe(before.bookmarks);
  });

  it("GET /claims/bookmarks validates limit and offset", async () => {
    const me = await quickAgent();
    for (const [query, field] of [["limit=0", "limit"], ["limit=101", "limit"], ["offset=-3", "offset"]]) {
      const res = await api.get(`/claims/bookmarks?${query}`, { token: me.token });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    }
  });
});

describe("follows", () => {
  it("POST with no body follows with every flag on", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const res = await api.request("POST", `/claims/${claim.id}/follow`, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      claim_id: claim.id,
      is_following: true,
      notify_on_vote: true,
      notify_on_evidence: true,
      notify_on_comment: true,
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it("POST with a body sets the given flags; following again sets only the given ones and keeps the time", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const first = await api.post(`/claims/${claim.id}/follow`, { notify_on_vote: false }, { token: me.token });
    expect(first.body).toMatchObject({ notify_on_vote: false, notify_on_evidence: true, notify_on_comment: true });
    const again = await api.post(`/claims/${claim.id}/follow`, { notify_on_comment: false }, { token: me.token });
    expect(again.body).toMatchObject({ notify_on_vote: false, notify_on_evidence: true, notify_on_comment: false, created_at: first.body.created_at });
    const same = await api.post(`/claims/${claim.id}/follow`, undefined, { token: me.token });
    expect(same.body).toEqual(again.body);
    expect(await db().follow.count({ where: { agentId: me.id } })).toBe(1);
  });

  it("PATCH changes flags of an existing follow; 404 when not following", async () => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const notYet = await api.patch(`/claims/${claim.id}/follow`, { notify_on_vote: false }, { token: me.token });
    expect(notYet.status).toBe(404);
    expect(notYet.body).toEqual({ code: "not_found", detail: "Not following this claim" });
    expect(await db().follow.count({ where: { agentId: me.id } })).toBe(0);

    await api.post(`/claims/${claim.id}/follow`, undefined, { token: me.token });
    const res = await api.patch(`/claims/${claim.id}/follow`, { notify_on_evidence: false, notify_on_comment: false }, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ claim_id: claim.id, is_following: true, notify_on_vote: true, notify_on_evidence: false, notify_on_comment: false });
    const empty = await api.patch(`/claims/${claim.id}/follow`, {}, { token: me.token });
    expect(empty.body).toEqual(res.body);
  });

  it.each([
    ["a string", { notify_on_vote: "false" }, "notify_on_vote"],
    ["a number", { notify_on_evidence: 0 }, "notify_on_evidence"],
    ["null", { notify_on_comment: null }, "notify_on_comment"],
  ])("refuses %s as a flag with 400 naming it, on POST and PATCH, changing nothing", async (_label, body, field) => {
    const me = await quickAgent();
    const claim = await newClaim(api, author.token);
    const post = await api.post(`/claims/${claim.id}/follow`, body, { token: me.token });
    expect(post.status).toBe(400);
    expect(post.body.detail).toBe(`${field}: must be true or false`);
    expect(await db().follow.count({ where: { agentId: me.id } })).toBe(0);
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: me.token });
    const patch = await api.patch(`/claims/${claim.id}/follow`, body, { token: me.token });
    expect(patch.status).toBe(400);
    const row = await db().follow.findUniqueOrThrow({ where: { agentId_claimId: { agentId: me.id, claimId: claim.id } } });
    expect(row).toMatchObject({ notifyOnVote: true, notifyOnEvidence: true, notifyOnComment: true });
  });

  it("DELETE unfollows (204, also when not following); GET /claims/following lists newest follow first", async () => {
    const me = await quickAgent();
    const claims = [await newClaim(api, author.token), await newClaim(api, author.token), await newClaim(api, author.token)];
    for (const c of [claims[2], claims[0], claims[1]]) await api.post(`/claims/${c.id}/follow`, undefined, { token: me.token });
    const list = await api.get("/claims/following", { token: me.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(list.body.claims.map((c: any) => c.id)).toEqual([claims[1].id, claims[0].id, claims[2].id]);
    expect(list.body.claims.every((c: any) => c.is_following === true)).toBe(true);

    expect((await api.del(`/claims/${claims[0].id}/follow`, { token: me.token })).status).toBe(204);
    expect((await api.del(`/claims/${claims[0].id}/follow`, { token: me.token })).status).toBe(204);
    const after = await api.get("/claims/following?limit=1", { token: me.token });
    expect(after.body.total).toBe(2);
    expect(after.body.claims.map((c: any) => c.id)).toEqual([claims[1].id]);
  });

  it("404 'Claim not found' for unknown and malformed ids, 401 without a token", async () => {
    const me = await quickAgent();
    for (const id of [UNKNOWN_ID, "following"]) {
      for (const res of [
        await api.post(`/claims/${id}/follow`, undefined, { token: me.token }),
        await api.patch(`/claims/${id}/follow`, { notify_on_vote: false }, { token: me.token }),
        await api.del(`/claims/${id}/follow`, { token: me.token }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
      }
    }
    const claim = await newClaim(api, author.token);
    expect((await api.post(`/claims/${claim.id}/follow`)).status).toBe(401);
    expect((await api.patch(`/claims/${claim.id}/follow`, {})).status).toBe(401);
    expect((await api.del(`/claims/${claim.id}/follow`)).status).toBe(401);
    expect(await db().follow.count({ where: { agentId: me.id } })).toBe(0);
  });
});
