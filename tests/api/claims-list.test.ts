// GET /claims: search, filters, sorts, pagination and total (docs/api.md#claims).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { compareIds, newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let voter: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  voter = await quickAgent();
});
afterAll(() => api.close());

/** A tag no other test uses: lists filtered by it see only this test's claims. */
const freshTag = () => `t-${randomUUID().slice(0, 8)}`;

type Claim = { id: string; [k: string]: any };

async function list(query: string, token?: string) {
  const res = await api.get(`/claims?${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { claims: Claim[]; total: number; limit: number; offset: number };
}

async function allPages(query: string, limit: number) {
  const seen: Claim[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await list(`${query}&limit=${limit}&offset=${offset}`);
    expect(page.limit).toBe(limit);
    expect(page.offset).toBe(offset);
    seen.push(...page.claims);
    if (page.claims.length < limit) return { seen, total: page.total };
  }
}

describe("sorting and pagination", () => {
  const tag = freshTag();
  const claims: Claim[] = [];
  const voters: Voter[] = [];

  beforeAll(async () => {
    voters.push(...(await quickAgents(3)));
    // 23 claims; many share a gradient (0.5) and a vote_count (0), so ties must be broken by id.
    for (let i = 0; i < 23; i++) claims.push(await newClaim(api, author.token, { tags: [tag] }));
    for (let i = 0; i < 9; i++) {
      const value = [0.1, 0.9, 0.3][i % 3];
      for (let v = 0; v <= i % 3; v++) await api.post(`/claims/${claims[i].id}/vote`, { value }, { token: voters[v].token });
    }
  });

  const expected = async (field: "created_at" | "gradient" | "vote_count", order: "asc" | "desc") => {
    const rows = await db().claim.findMany({ where: { tags: { has: tag } }, select: { id: true, createdAt: true, gradient: true, voteCount: true } });
    const key = (r: (typeof rows)[number]) => (field === "created_at" ? r.createdAt.getTime() : field === "gradient" ? r.gradient : r.voteCount);
    const sign = order === "asc" ? 1 : -1;
    return rows.sort((a, b) => sign * (key(a) - key(b) || compareIds(a.id, b.id))).map((r) => r.id);
  };

  it.each([
    ["created_at", "desc"],
    ["created_at", "asc"],
    ["gradient", "desc"],
    ["gradient", "asc"],
    ["vote_count", "desc"],
    ["vote_count", "asc"],
  ] as const)("sort_by=%s sort_order=%s: pages of 5 neither overlap nor skip, ties broken by id", async (field, order) => {
    const { seen, total } = await allPages(`tags=${tag}&sort_by=${field}&sort_order=${order}`, 5);
    expect(total).toBe(23);
    expect(seen.map((c) => c.id)).toEqual(await expected(field, order));
  });

  it("defaults to newest first, limit 20, offset 0", async () => {
    const page = await list(`tags=${tag}`);
    expect(page.limit).toBe(20);
    expect(page.offset).toBe(0);
    expect(page.claims).toHaveLength(20);
    expect(page.total).toBe(23);
    expect(page.claims.map((c) => c.id)).toEqual((await expected("created_at", "desc")).slice(0, 20));
  });

  it("an offset past the end gives an empty page and still the total", async () => {
    const page = await list(`tags=${tag}&offset=500`);
    expect(page.claims).toEqual([]);
    expect(page.total).toBe(23);
  });

  it("accepts the bounds: limit 1 and 100", async () => {
    expect((await list(`tags=${tag}&limit=1`)).claims).toHaveLength(1);
    expect((await list(`tags=${tag}&limit=100`)).claims).toHaveLength(23);
  });
});

describe("total", () => {
  it("without filters is the number of all claims (the maintained counter)", async () => {
    await newClaim(api, author.token);
    const page = await list("limit=1");
    expect(page.total).toBe(await db().claim.count());
  });

  it("with filters counts every match, not the page", async () => {
    const tag = freshTag();
    for (let i = 0; i < 4; i++) await newClaim(api, author.token, { tags: [tag] });
    expect((await list(`tags=${tag}&limit=2`)).total).toBe(4);
    expect((await list(`tags=${tag}&limit=2&q=claim`)).total).toBe(4);
  });
});

describe("filters", () => {
  it("tags: any of them; comma-separated, repeated, mixed and case-insensitive", async () => {
    const [a, b, c] = [freshTag(), freshTag(), freshTag()];
    const ca = await newClaim(api, author.token, { tags: [a] });
    const cb = await newClaim(api, author.token, { tags: [b, "shared"] });
    const cab = await newClaim(api, author.token, { tags: [a, b] });
    await newClaim(api, author.token, { tags: [c] });
    const ids = (page: { claims: Claim[] }) => page.claims.map((x) => x.id).sort();
    const want = [ca.id, cb.id, cab.id].sort();
    expect(ids(await list(`tags=${a},${b}`))).toEqual(want);
    expect(ids(await list(`tags=${a}&tags=${b}`))).toEqual(want);
    expect(ids(await list(`tags=${a.toUpperCase()},%20${b}%20`))).toEqual(want);
    expect(ids(await list(`tags=${a}`))).toEqual([ca.id, cab.id].sort());
    expect((await list(`tags=${a},${b}`)).total).toBe(3);
    // A tag nobody uses, or a malformed one, matches nothing (it never widens the filter).
    expect((await list(`tags=${freshTag()}`)).claims).toEqual([]);
    expect((await list(`tags=not%20a%20tag`)).total).toBe(0);
    // Empty parts are ignored: `tags=` alone does not filter.
    expect((await list(`tags=,&limit=1`)).total).toBe(await db().claim.count());
  });

  it("complexity", async () => {
    const tag = freshTag();
    const contested = await newClaim(api, author.token, { tags: [tag], complexity_tier: "contested" });
    await newClaim(api, author.token, { tags: [tag], complexity_tier: "simple" });
    const page = await list(`tags=${tag}&complexity=contested`);
    expect(page.claims.map((c) => c.id)).toEqual([contested.id]);
    expect(page.total).toBe(1);
  });

  it("gradient range, both ends inclusive", async () => {
    const tag = freshTag();
    const byValue: Record<string, string> = {};
    for (const value of [0.2, 0.5, 0.8]) {
      const claim = await newClaim(api, author.token, { tags: [tag] });
      if (value !== 0.5) await api.post(`/claims/${claim.id}/vote`, { value }, { token: voter.token });
      byValue[value] = claim.id;
    }
    const ids = async (q: string) => (await list(`tags=${tag}&${q}`)).claims.map((c) => c.id).sort();
    expect(await ids("min_gradient=0.2&max_gradient=0.8")).toEqual(Object.values(byValue).sort());
    expect(await ids("min_gradient=0.21")).toEqual([byValue[0.5], byValue[0.8]].sort());
    expect(await ids("max_gradient=0.5")).toEqual([byValue[0.2], byValue[0.5]].sort());
    expect(await ids("min_gradient=0.5&max_gradient=0.5")).toEqual([byValue[0.5]]);
    expect(await ids("min_gradient=0&max_gradient=1")).toHaveLength(3);
  });

  it("combines filters with AND", async () => {
    const tag = freshTag();
    const hit = await newClaim(api, author.token, { tags: [tag], complexity_tier: "complex", statement: "Glaciers retreat faster every decade" });
    await newClaim(api, author.token, { tags: [tag], complexity_tier: "simple", statement: "Glaciers retreat faster in summer" });
    await newClaim(api, author.token, { tags: [tag], complexity_tier: "complex", statement: "Deserts expand slowly" });
    const page = await list(`tags=${tag}&complexity=complex&q=glacier&min_gradient=0.4&max_gradient=0.6`);
    expect(page.claims.map((c) => c.id)).toEqual([hit.id]);
    expect(page.total).toBe(1);
  });
});

describe("full-text search", () => {
  const tag = freshTag();
  let strong: Claim;
  let weak: Claim;
  let unrelated: Claim;
  beforeAll(async () => {
    weak = await newClaim(api, author.token, { tags: [tag], statement: "One volcano erupted near the coast last year" });
    strong = await newClaim(api, author.token, { tags: [tag], statement: "Volcanoes, volcanic ash and volcano science: a volcano primer" });
    unrelated = await newClaim(api, author.token, { tags: [tag], statement: "Tides follow the moon around the planet" });
  });

  it("matches word forms (english stemming) and ranks by relevance when no sort_by is given", async () => {
    const page = await list(`tags=${tag}&q=volcano`);
    expect(page.claims.map((c) => c.id)).toEqual([strong.id, weak.id]);
    expect(page.total).toBe(2);
    expect((await list(`tags=${tag}&q=erupting%20volcanoes`)).claims.map((c) => c.id)).toEqual([weak.id]);
  });

  it("uses sort_by when given", async () => {
    const newest = await list(`tags=${tag}&q=volcano&sort_by=created_at`);
    expect(newest.claims.map((c) => c.id)).toEqual([strong.id, weak.id]);
    const oldest = await list(`tags=${tag}&q=volcano&sort_by=created_at&sort_order=asc`);
    expect(oldest.claims.map((c) => c.id)).toEqual([weak.id, strong.id]);
  });

  it("understands web-search syntax: quoted phrases, OR, and exclusion", async () => {
    expect((await list(`tags=${tag}&q=${encodeURIComponent('"volcano erupted"')}`)).claims.map((c) => c.id)).toEqual([weak.id]);
    expect((await list(`tags=${tag}&q=${encodeURIComponent("tides or volcano")}`)).total).toBe(3);
    expect((await list(`tags=${tag}&q=${encodeURIComponent("volcano -coast")}`)).claims.map((c) => c.id)).toEqual([strong.id]);
  });

  it("treats operators and SQL as plain text, never as an error", async () => {
    for (const q of ["' OR 1=1 --", "a & b | !c", "():*<->", "%%", "the and of"]) {
      const res = await api.get(`/claims?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    expect((await list(`q=${encodeURIComponent("the and of")}`)).total).toBe(0);
    expect(unrelated.id).toBeTruthy();
  });

  it("accepts q of 2 and 200 characters", async () => {
    expect((await api.get(`/claims?q=ab`)).status).toBe(200);
    expect((await api.get(`/claims?q=${"a".repeat(200)}`)).status).toBe(200);
  });
});

describe("caller fields in lists", () => {
  it("are null anonymously and the caller's own with a token", async () => {
    const tag = freshTag();
    const voted = await newClaim(api, author.token, { tags: [tag] });
    const bookmarked = await newClaim(api, author.token, { tags: [tag] });
    const followed = await newClaim(api, author.token, { tags: [tag] });
    await api.post(`/claims/${voted.id}/vote`, { value: 0.7 }, { token: voter.token });
    await api.post(`/claims/${bookmarked.id}/bookmark`, undefined, { token: voter.token });
    await api.post(`/claims/${followed.id}/follow`, undefined, { token: voter.token });

    const anonymous = await list(`tags=${tag}`);
    for (const c of anonymous.claims) expect(c).toMatchObject({ user_vote: null, is_bookmarked: null, is_following: null });

    const mine = new Map((await list(`tags=${tag}`, voter.token)).claims.map((c) => [c.id, c]));
    expect(mine.get(voted.id)).toMatchObject({ user_vote: 0.7, is_bookmarked: false, is_following: false });
    expect(mine.get(bookmarked.id)).toMatchObject({ user_vote: null, is_bookmarked: true, is_following: false });
    expect(mine.get(followed.id)).toMatchObject({ user_vote: null, is_bookmarked: false, is_following: true });

    const authors = await list(`tags=${tag}`, author.token);
    // Authors follow their own claims from the start.
    for (const c of authors.claims) expect(c).toMatchObject({ user_vote: null, is_bookmarked: false, is_following: true });
  });

  it("cost the same number of queries for 2 claims as for 20 (no query per claim)", async () => {
    const tag = freshTag();
    for (let i = 0; i < 20; i++) await newClaim(api, author.token, { tags: [tag] });
    const prisma = db();
    const spy = vi.spyOn(prisma, "$queryRaw");
    try {
      await list(`tags=${tag}&limit=2`, voter.token);
      const small = spy.mock.calls.length;
      spy.mockClear();
      await list(`tags=${tag}&limit=20`, voter.token);
      expect(spy.mock.calls.length).toBe(small);
      // The caller's identity, the page, the count, and the claim views.
      expect(small).toBeLessThanOrEqual(4);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("bad query parameters", () => {
  it.each([
    ["q=a", "q"],
    ["q=%20%20a%20%20", "q"],
    [`q=${"a".repeat(201)}`, "q"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["offset=-1", "offset"],
    ["offset=x", "offset"],
    ["min_gradient=1.5", "min_gradient"],
    ["min_gradient=-0.1", "min_gradient"],
    ["max_gradient=abc", "max_gradient"],
    ["min_gradient=0.9&max_gradient=0.1", "min_gradient"],
    ["sort_by=statement", "sort_by"],
    ["sort_order=sideways", "sort_order"],
    ["complexity=hard", "complexity"],
    [`tags=${Array.from({ length: 51 }, (_, i) => `t${i}`).join(",")}`, "tags"],
  ])("%s → 400 naming %s", async (query, field) => {
    const res = await api.get(`/claims?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
  });

  it("min_gradient > max_gradient says so", async () => {
    const res = await api.get("/claims?min_gradient=0.9&max_gradient=0.1");
    expect(res.body.detail).toBe("min_gradient: must not be greater than max_gradient");
  });
});
