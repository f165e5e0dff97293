import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";

let api: TestApi;
let alice: TestAgent;
let bob: TestAgent;
let claimId: string;
let otherClaimId: string;

async function newClaim(author: TestAgent, statement: string): Promise<string> {
  const claim = await db().claim.create({ data: { statement, authorId: author.id, tags: ["comments-test"] }, select: { id: true } });
  return claim.id;
}

const commentCount = async (id: string) => (await db().claim.findUniqueOrThrow({ where: { id }, select: { commentCount: true } })).commentCount;

beforeAll(async () => {
  api = await startApi();
  alice = await createAgent(api);
  bob = await createAgent(api);
  claimId = await newClaim(alice, "Comments are threaded three levels deep");
  otherClaimId = await newClaim(bob, "Another claim that has its own comments");
});
afterAll(() => api.close());

const post = (claim: string, body: unknown, who: TestAgent = alice) => api.post(`/claims/${claim}/comments`, body, { token: who.token });

describe("POST /claims/{claim_id}/comments", () => {
  it("creates a top-level comment: 201 with the Comment shape, the claim's comment_count goes up", async () => {
    const before = await commentCount(claimId);
    const res = await post(claimId, { content: "  A first thought.  " });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      claim_id: claimId,
      parent_id: null,
      content: "A first thought.",
      is_edited: false,
      is_deleted: false,
      depth: 0,
      replies: [],
      author: { id: alice.id, username: alice.username, tier: "new" },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.created_at).toMatch(/Z$/);
    expect(res.body.updated_at).toMatch(/Z$/);
    expect(await commentCount(claimId)).toBe(before + 1);
  });

  it("nests replies down to depth 3 and refuses a fourth level with 400, changing nothing", async () => {
    const root = await post(claimId, { content: "root" });
    let parent = root.body.id as string;
    for (const depth of [1, 2, 3]) {
      const reply = await post(claimId, { content: `reply at ${depth}`, parent_id: parent }, depth % 2 ? bob : alice);
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ depth, parent_id: parent });
      parent = reply.body.id;
    }
    const before = await db().comment.count();
    const countBefore = await commentCount(claimId);
    const tooDeep = await post(claimId, { content: "reply at 4", parent_id: parent });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.detail).toMatch(/^parent_id: .*3 levels/);
    expect(await db().comment.count()).toBe(before);
    expect(await commentCount(claimId)).toBe(countBefore);
  });

  it("refuses a parent_id from another claim, unknown or malformed, with 400 naming parent_id", async () => {
    const elsewhere = await post(otherClaimId, { content: "on the other claim" });
    const before = await db().comment.count();
    for (const parent_id of [elsewhere.body.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid", ""]) {
      const res = await post(claimId, { content: "reply", parent_id });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^parent_id: /);
    }
    expect(await db().comment.count()).toBe(before);
  });

  it.each([
    [{}, "content"],
    [{ content: "" }, "content"],
    [{ content: "   " }, "content"],
    [{ content: "x".repeat(5001) }, "content"],
    [{ content: 42 }, "content"],
    [{ content: "ok", parent_id: 7 }, "parent_id"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const before = await db().comment.count();
    const res = await post(claimId, body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    expect(await db().comment.count()).toBe(before);
  });

  it("accepts exactly 5000 characters", async () => {
    const res = await post(claimId, { content: "y".repeat(5000) });
    expect(res.status).toBe(201);
    expect(res.body.content).toHaveLength(5000);
  });

  it("needs a token (401) and an existing claim (404, malformed id included)", async () => {
    const anon = await api.post(`/claims/${claimId}/comments`, { content: "anonymous" });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const res = await post(id, { content: "hello" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });
});

describe("GET /claims/{claim_id}/comments", () => {
  it("returns the threads oldest first with replies nested, and the number of top-level comments", async () => {
    const claim = await newClaim(bob, "A claim with a small conversation on it");
    const a = await post(claim, { content: "first" });
    const b = await post(claim, { content: "second" }, bob);
    const a1 = await post(claim, { content: "first, reply", parent_id: a.body.id }, bob);
    const a11 = await post(claim, { content: "first, reply, reply", parent_id: a1.body.id });
    const a2 = await post(claim, { content: "first, second reply", parent_id: a.body.id });
    const res = await api.get(`/claims/${claim}/comments`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    const tree = res.body.comments;
    expect(tree.map((c: any) => c.id)).toEqual([a.body.id, b.body.id]);
    expect(tree[0].replies.map((c: any) => c.id)).toEqual([a1.body.id, a2.body.id]);
    expect(tree[0].replies[0].replies.map((c: any) => c.id)).toEqual([a11.body.id]);
    expect(tree[0].replies[0].replies[0]).toMatchObject({ depth: 2, content: "first, reply, reply", replies: [] });
    expect(tree[1].replies).toEqual([]);
  });

  it("pages through top-level comments with limit and offset", async () => {
    const claim = await newClaim(alice, "A claim with many top-level comments");
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(claim, { content: `comment ${i}` })).body.id);
    const page = await api.get(`/claims/${claim}/comments?limit=2&offset=2`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.comments.map((c: any) => c.id)).toEqual(ids.slice(2, 4));
  });

  it.each(["limit=0", "limit=101", "limit=abc", "offset=-1"])("refuses %s with 400 naming the parameter", async (query) => {
    const res = await api.get(`/claims/${claimId}/comments?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${query.split("=")[0]}: `));
  });

  it("answers 404 for an unknown or malformed claim id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "x"]) {
      const res = await api.get(`/claims/${id}/comments`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });
});

describe("GET /comments/{comment_id}", () => {
  it("returns the comment with its replies", async () => {
    const root = await post(claimId, { content: "look me up" });
    const reply = await post(claimId, { content: "a reply", parent_id: root.body.id }, bob);
    const res = await api.get(`/comments/${root.body.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: root.body.id, content: "look me up", replies: [{ id: reply.body.id, content: "a reply" }] });
  });

  it("answers 404 Comment not found for unknown and malformed ids", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "123"]) {
      const res = await api.get(`/comments/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Comment not found" });
    }
  });
});

describe("PATCH /comments/{comment_id}", () => {
  it("lets the author edit: new content, is_edited true", async () => {
    const c = await post(claimId, { content: "tpyo" });
    const res = await api.patch(`/comments/${c.body.id}`, { content: " typo " }, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.body.id, content: "typo", is_edited: true, is_deleted: false });
    expect((await api.get(`/comments/${c.body.id}`)).body).toMatchObject({ content: "typo", is_edited: true });
  });

  it("refuses someone else's comment with 403 and leaves it as it was", async () => {
    const c = await post(claimId, { content: "mine" });
    const res = await api.patch(`/comments/${c.body.id}`, { content: "yours now" }, { token: bob.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
    expect((await api.get(`/comments/${c.body.id}`)).body).toMatchObject({ content: "mine", is_edited: false });
  });

  it("validates the content (400), needs a token (401), answers 404 for unknown ids", async () => {
    const c = await post(claimId, { content: "to be edited" });
    for (const content of ["", "   ", "z".repeat(5001)]) {
      const res = await api.patch(`/comments/${c.body.id}`, { content }, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^content: /);
    }
    expect((await api.patch(`/comments/${c.body.id}`, { content: "x" })).status).toBe(401);
    const unknown = await api.patch("/comments/00000000-0000-4000-8000-000000000000", { content: "x" }, { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "not_found", detail: "Comment not found" });
    expect((await api.get(`/comments/${c.body.id}`)).body.content).toBe("to be edited");
  });
});

describe("DELETE /comments/{comment_id}", () => {
  it("soft-deletes: 204, the text becomes [deleted], the replies stay", async () => {
    const root = await post(claimId, { content: "regrettable" });
    const reply = await post(claimId, { content: "still here", parent_id: root.body.id }, bob);
    const res = await api.del(`/comments/${root.body.id}`, { token: alice.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const after = await api.get(`/comments/${root.body.id}`);
    expect(after.body).toMatchObject({ content: "[deleted]", is_deleted: true, replies: [{ id: reply.body.id, content: "still here" }] });
    expect((await db().comment.findUniqueOrThrow({ where: { id: root.body.id } })).content).toBe("[deleted]");
    // A deleted comment cannot be edited back to life; deleting again is harmless.
    const edit = await api.patch(`/comments/${root.body.id}`, { content: "undo" }, { token: alice.token });
    expect(edit.status).toBe(400);
    expect((await api.del(`/comments/${root.body.id}`, { token: alice.token })).status).toBe(204);
  });

  it("refuses someone else's comment with 403; 401 without a token; 404 when unknown", async () => {
    const c = await post(claimId, { content: "keep me" });
    const res = await api.del(`/comments/${c.body.id}`, { token: bob.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "forbidden", detail: "Insufficient permissions" });
    expect((await api.del(`/comments/${c.body.id}`)).status).toBe(401);
    const unknown = await api.del("/comments/nope", { token: alice.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "not_found", detail: "Comment not found" });
    expect((await api.get(`/comments/${c.body.id}`)).body).toMatchObject({ content: "keep me", is_deleted: false });
  });
});
