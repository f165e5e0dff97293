// Query cost (docs/api.md#discovery): every read is bounded — one shared trending ranking, a bounded search, paged
// replies, and ids in paths that are case-insensitive like the UUIDs they are.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { createCache, type Cache } from "../../server/cache/index.ts";
import { TRENDING_RANKING_SIZE, trending } from "../../server/services/discovery.ts";
import { MAX_SEARCH_TERMS, SEARCH_MATCH_CAP, SEARCH_READ_ALL_LIMIT } from "../../server/services/claims.ts";
import { REPLIES_EMBEDDED } from "../../server/services/comments.ts";

let api: TestApi;
let alice: TestAgent;
let bob: TestAgent;
beforeAll(async () => {
  api = await startApi();
  alice = await createAgent(api);
  bob = await createAgent(api);
});
afterAll(() => api.close());

let seq = 0;
async function newClaim(by: TestAgent = alice, statement?: string): Promise<string> {
  seq += 1;
  const res = await api.post("/claims", { statement: statement ?? `Query cost claim number ${seq}` }, { token: by.token });
  expect(res.status).toBe(201);
  return res.body.id;
}

const ids = (claims: { id: string }[]) => claims.map((c) => c.id);

/** A cache that records which keys are asked for (the store underneath is real). */
function recordingCache(prefix: string): { cache: Cache; keys: Set<string> } {
  const inner = createCache({ prefix });
  const keys = new Set<string>();
  const cache: Cache = {
    backend: inner.backend,
    get: (k) => inner.get(k),
    getText: (k) => inner.getText(k),
    set: (k, v, ttl) => inner.set(k, v, ttl),
    getOrCompute: (k, ttl, compute) => {
      keys.add(k);
      return inner.getOrCompute(k, ttl, compute);
    },
    memoryEntries: () => inner.memoryEntries(),
    close: () => inner.close(),
  };
  return { cache, keys };
}

describe("trending: one ranking serves every page", () => {
  it("computes one bounded ranking per cache period, whatever limit and offset ask for", async () => {
    const claims = [await newClaim(), await newClaim(), await newClaim()];
    for (const [i, c] of claims.entries()) {
      for (let k = 0; k <= i; k++) expect((await api.post(`/claims/${c}/comments`, { content: `c${k}` }, { token: bob.token })).status).toBe(201);
    }
    const { cache, keys } = recordingCache(`trend-${Date.now()}`);
    const first = await trending({ limit: 1, offset: 0 }, null, { store: cache });
    // New activity after the ranking was computed: the other pages still come from the same ranking.
    const hot = await newClaim();
    for (let k = 0; k < 5; k++) await api.post(`/claims/${hot}/comments`, { content: `hot ${k}` }, { token: bob.token });
    const second = await trending({ limit: 1, offset: 1 }, null, { store: cache });
    const wide = await trending({ limit: 50, offset: 0 }, null, { store: cache });
    await cache.close();
    expect(keys.size).toBe(1);
    expect(second.updated_at).toBe(first.updated_at);
    expect(wide.updated_at).toBe(first.updated_at);
    expect(ids(wide.claims)).not.toContain(hot);
    expect(ids(first.claims)).toEqual(ids(wide.claims).slice(0, 1));
    expect(ids(second.claims)).toEqual(ids(wide.claims).slice(1, 2));
  });

  it(`ranks the top ${TRENDING_RANKING_SIZE}; an offset past it is an empty page, not an error`, async () => {
    const res = await api.get(`/discover/trending?offset=${TRENDING_RANKING_SIZE}`);
    expect(res.status).toBe(200);
    expect(res.body.claims).toEqual([]);
    const far = await api.get("/discover/trending?offset=999999&limit=50");
    expect(far.status).toBe(200);
    expect(far.body.claims).toEqual([]);
  });
});

describe("the in-process cache store is bounded", () => {
  it("keeps at most maxMemoryEntries keys, evicting the least recently used", async () => {
    const c = createCache({ prefix: "bounded", maxMemoryEntries: 3 });
    for (const k of ["a", "b", "c"]) await c.set(k, k, 60);
    expect(await c.get("a")).toBe("a"); // a is now the most recently used
    await c.set("d", "d", 60);
    expect(await c.get("b")).toBeUndefined();
    expect(await c.get("a")).toBe("a");
    expect(await c.get("c")).toBe("c");
    expect(await c.get("d")).toBe("d");
    for (let i = 0; i < 1000; i++) await c.set(`k${i}`, i, 60);
    expect(c.memoryEntries()).toBe(3);
    await c.close();
  });

  it("drops expired entries instead of keeping them until read", async () => {
    const c = createCache({ prefix: "expiring", maxMemoryEntries: 100 });
    for (let i = 0; i < 50; i++) await c.set(`gone${i}`, i, 0.001);
    await new Promise((r) => setTimeout(r, 20));
    await c.set("fresh", 1, 60);
    expect(c.memoryEntries()).toBe(1);
    await c.close();
  });
});

describe("search: bounded work", () => {
  it(`refuses more than ${MAX_SEARCH_TERMS} search terms with 400 naming q`, async () => {
    const many = Array.from({ length: MAX_SEARCH_TERMS + 1 }, (_, i) => `word${i}`).join(" or ");
    const res = await api.get(`/claims?q=${encodeURIComponent(many)}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^q: at most \d+ search terms/);
    const ok = await api.get(`/claims?q=${encodeURIComponent(many.split(" or ").slice(0, MAX_SEARCH_TERMS).join(" or "))}`);
    expect(ok.status).toBe(200);
  });

  it(`counts and ranks at most ${SEARCH_MATCH_CAP} matches: total says ${SEARCH_MATCH_CAP}, the newest matches are the ones ranked`, async () => {
    await db().$executeRaw`
      INSERT INTO claims (id, statement, author_id, created_at, updated_at)
      SELECT gen_random_uuid(), 'Zebras are capped number ' || n, ${alice.id}::uuid,
             now() - make_interval(secs => n), now()
      FROM generate_series(1, ${SEARCH_MATCH_CAP + 20}) AS n`;
    const res = await api.get("/claims?q=zebras&limit=5");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(SEARCH_MATCH_CAP);
    expect(res.body.claims).toHaveLength(5);
    const byDate = await api.get("/claims?q=zebras&sort_by=created_at&limit=1&offset=" + (SEARCH_MATCH_CAP - 1));
    expect(byDate.body.claims[0].statement).toBe(`Zebras are capped number ${SEARCH_MATCH_CAP}`);
    const past = await api.get(`/claims?q=zebras&offset=${SEARCH_MATCH_CAP}`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ claims: [], total: SEARCH_MATCH_CAP });
    // Below the cap the total is exact.
    await newClaim(alice, "Okapis are rare and counted exactly");
    expect((await api.get("/claims?q=okapis")).body.total).toBe(1);
  });

  it(`a search with more than ${SEARCH_READ_ALL_LIMIT} matches takes the other road to the same answer: its ${SEARCH_MATCH_CAP} newest`, async () => {
    await db().$executeRaw`
      INSERT INTO claims (id, statement, author_id, created_at, updated_at)
      SELECT gen_random_uuid(), 'Gnus are broad number ' || n, ${alice.id}::uuid,
             now() - make_interval(secs => ${SEARCH_READ_ALL_LIMIT + 21} - n), now()
      FROM generate_series(1, ${SEARCH_READ_ALL_LIMIT + 20}) AS n`;
    const res = await api.get("/claims?q=gnus&limit=5");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(SEARCH_MATCH_CAP);
    const newest = await api.get("/claims?q=gnus&sort_by=created_at&sort_order=desc&limit=1");
    // Inserted oldest first: the rows read first are the oldest, so a wrong road would rank those.
    expect(newest.body.claims[0].statement).toBe(`Gnus are broad number ${SEARCH_READ_ALL_LIMIT + 20}`);
    const last = await api.get("/claims?q=gnus&sort_by=created_at&sort_order=desc&limit=1&offset=" + (SEARCH_MATCH_CAP - 1));
    expect(last.body.claims[0].statement).toBe(`Gnus are broad number ${SEARCH_READ_ALL_LIMIT + 20 - (SEARCH_MATCH_CAP - 1)}`);
  });
});

describe("comment replies are paged", () => {
  it(`embeds the first ${REPLIES_EMBEDDED} replies with reply_count, and pages the rest through /replies`, async () => {
    const claim = await newClaim();
    const root = await api.post(`/claims/${claim}/comments`, { content: "root" }, { token: alice.token });
    const replyIds: string[] = [];
    for (let i = 0; i < REPLIES_EMBEDDED + 4; i++) {
      const r = await api.post(`/claims/${claim}/comments`, { content: `reply ${i}`, parent_id: root.body.id }, { token: bob.token });
      expect(r.status).toBe(201);
      replyIds.push(r.body.id);
    }
    const list = await api.get(`/claims/${claim}/comments?limit=1`);
    expect(list.status).toBe(200);
    const thread = list.body.comments[0];
    expect(thread).toMatchObject({ id: root.body.id, reply_count: REPLIES_EMBEDDED + 4 });
    expect(ids(thread.replies)).toEqual(replyIds.slice(0, REPLIES_EMBEDDED));
    expect(thread.replies[0]).toMatchObject({ reply_count: 0, replies: [] });
    const single = await api.get(`/comments/${root.body.id}`);
    expect(ids(single.body.replies)).toEqual(replyIds.slice(0, REPLIES_EMBEDDED));

    const page = await api.get(`/claims/${claim}/comments/${root.body.id}/replies?limit=3&offset=${REPLIES_EMBEDDED}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(REPLIES_EMBEDDED + 4);
    expect(ids(page.body.replies)).toEqual(replyIds.slice(REPLIES_EMBEDDED, REPLIES_EMBEDDED + 3));

    // The comment must belong to the claim; unknown and malformed ids are 404.
    const other = await newClaim();
    for (const [c, id, detail] of [
      [other, root.body.id, "Comment not found"],
      [claim, "00000000-0000-4000-8000-000000000000", "Comment not found"],
      [claim, "nope", "Comment not found"],
      ["nope", root.body.id, "Claim not found"],
    ]) {
      const res = await api.get(`/claims/${c}/comments/${id}/replies`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail });
    }
    for (const q of ["limit=0", "limit=101", "offset=-1"]) {
      const res = await api.get(`/claims/${claim}/comments/${root.body.id}/replies?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(new RegExp(`^${q.split("=")[0]}: `));
    }
  });

  it("describes the replies endpoint and reply_count in the OpenAPI document", async () => {
    const doc = (await api.get("/openapi.json")).body;
    const op = doc.paths["/claims/{claim_id}/comments/{comment_id}/replies"]?.get;
    expect(op).toBeDefined();
    expect(op.parameters.map((p: any) => p.name).sort()).toEqual(["claim_id", "comment_id", "limit", "offset"]);
    expect(JSON.stringify(doc.components.schemas.Comment)).toContain("reply_count");
  });
});

describe("ids in paths are case-insensitive UUIDs", () => {
  it("answers an uppercase id like its lowercase form, on every path that takes one", async () => {
    const claim = await newClaim();
    const root = await api.post(`/claims/${claim}/comments`, { content: "root" }, { token: alice.token });
    const ev = await api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "text", content: "e" }, { token: alice.token });
    expect(ev.status).toBe(201);
    const C = claim.toUpperCase();
    const reply = await api.post(`/claims/${C}/comments`, { content: "reply", parent_id: root.body.id.toUpperCase() }, { token: bob.token });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ claim_id: claim, parent_id: root.body.id });
    const vote = await api.post(`/claims/${C}/vote`, { value: 0.7 }, { token: bob.token });
    expect(vote.status).toBe(200);
    expect(vote.body.id).toBe(claim);
    for (const path of [
      `/claims/${C}`,
      `/claims/${C}/comments`,
      `/claims/${C}/comments/${root.body.id.toUpperCase()}/replies`,
      `/claims/${C}/evidence`,
      `/claims/${C}/children`,
      `/comments/${root.body.id.toUpperCase()}`,
      `/evidence/${ev.body.id.toUpperCase()}`,
      `/discover/related/${C}`,
      `/profiles/${alice.id.toUpperCase()}`,
      `/profiles/${alice.id.toUpperCase()}/timeline`,
      `/profiles/${alice.id.toUpperCase()}/reputation-journey`,
    ]) {
      const upper = await api.get(path, { token: bob.token });
      const lower = await api.get(path.toLowerCase(), { token: bob.token });
      expect(upper.status, path).toBe(200);
      expect(upper.body, path).toEqual(lower.body);
    }
    const bookmark = await api.post(`/claims/${C}/bookmark`, undefined, { token: bob.token });
    expect(bookmark.status).toBe(200);
    expect(bookmark.body.claim_id).toBe(claim);
    const follow = await api.post(`/claims/${C}/follow`, undefined, { token: bob.token });
    expect(follow.status).toBe(200);
    expect(follow.body.claim_id).toBe(claim);
    expect((await api.del(`/claims/${C}/vote`, { token: bob.token })).status).toBe(204);
    expect((await api.patch(`/comments/${reply.body.id.toUpperCase()}`, { content: "edited" }, { token: bob.token })).status).toBe(200);
  });
});
