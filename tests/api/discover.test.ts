import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { createCache } from "../../server/cache/index.ts";
import { recommended, trending } from "../../server/services/discovery.ts";

let api: TestApi;
let author: TestAgent;
beforeAll(async () => {
  api = await startApi();
  author = await createAgent(api);
});
afterAll(() => api.close());

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
let seq = 0;

async function newClaim(tags: string[] = [], by: TestAgent = author): Promise<string> {
  seq += 1;
  const res = await api.post("/claims", { statement: `Discovery claim number ${seq}`, tags }, { token: by.token });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function vote(agent: TestAgent, claimId: string, value = 0.7) {
  expect((await api.post(`/claims/${claimId}/vote`, { value }, { token: agent.token })).status).toBe(200);
}

async function evidence(agent: TestAgent, claimId: string) {
  const res = await api.post(`/claims/${claimId}/evidence`, { position: "supports", content_type: "text", content: "Evidence." }, { token: agent.token });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function comment(agent: TestAgent, claimId: string) {
  const res = await api.post(`/claims/${claimId}/comments`, { content: "A comment." }, { token: agent.token });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const backdate = async (claimId: string, ms: number) =>
  db().claim.update({ where: { id: claimId }, data: { createdAt: new Date(Date.now() - ms) } });

const ids = (claims: { id: string }[]) => claims.map((c) => c.id);

const boundsCases = (path: string, cases: string[]) =>
  it.each(cases)(`${path}: refuses %s with 400 naming the parameter`, async (query) => {
    const res = await api.get(`${path}?${query}`, { token: author.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${query.split("=")[0]}: `));
  });

describe("GET /discover/trending", () => {
  it("ranks claims by 3·votes + 5·evidence + 2·comments of the last 24 hours and leaves idle ones out", async () => {
    const [a, b, c, idle, old] = [await newClaim(), await newClaim(), await newClaim(), await newClaim(), await newClaim()];
    const voters = await Promise.all([1, 2, 3].map(() => createAgent(api)));
    for (const v of voters) await vote(v, a); // 9
    await comment(voters[0], a); // +2 = 11
    await evidence(voters[0], b); // 5
    await vote(voters[1], b); // +3 = 8
    const gone = await comment(voters[2], b); // deleted: does not count
    await api.del(`/comments/${gone}`, { token: voters[2].token });
    await comment(voters[0], c); // 2
    // Activity older than 24 hours counts for nothing.
    await vote(voters[0], old);
    await db().claimVote.updateMany({ where: { claimId: old }, data: { createdAt: new Date(Date.now() - 25 * HOUR_MS) } });

    const res = await api.get("/discover/trending?limit=50");
    expect(res.status).toBe(200);
    expect(res.body.updated_at).toMatch(/Z$/);
    const mine = res.body.claims.filter((x: any) => [a, b, c, idle, old].includes(x.id));
    expect(ids(mine)).toEqual([a, b, c]);
    expect(mine[0]).toMatchObject({ id: a, trending_score: 11, votes_24h: 3, evidence_24h: 0, comments_24h: 1, vote_count: 3, user_vote: null, is_bookmarked: null });
    expect(mine[1]).toMatchObject({ id: b, trending_score: 8, votes_24h: 1, evidence_24h: 1, comments_24h: 0 });
    expect(mine[2]).toMatchObject({ id: c, trending_score: 2, votes_24h: 0, evidence_24h: 0, comments_24h: 1 });
    expect(mine[0].author).toMatchObject({ id: author.id, username: author.username });
    const scores = res.body.claims.map((x: any) => x.trending_score);
    expect(scores).toEqual([...scores].sort((p: number, q: number) => q - p));

    // The caller's own vote shows up with a token.
    const withToken = await api.get("/discover/trending?limit=50", { token: voters[0].token });
    expect(withToken.body.claims.find((x: any) => x.id === a)).toMatchObject({ user_vote: 0.7, is_bookmarked: false });

    // limit and offset page through the same ranking.
    const all = ids(res.body.claims);
    expect(all.length).toBeLessThanOrEqual(50);
    const first = await api.get("/discover/trending?limit=1");
    const second = await api.get("/discover/trending?limit=1&offset=1");
    expect(ids(first.body.claims)).toEqual(all.slice(0, 1));
    expect(ids(second.body.claims)).toEqual(all.slice(1, 2));
    expect((await api.get("/discover/trending")).body.claims.length).toBe(Math.min(10, all.length));
  });

  it("shares one ranking for TRENDING_CACHE_SECONDS (30): new activity shows when it is recomputed, the caller's fields at once", async () => {
    await comment(author, await newClaim());
    const before = await api.get("/discover/trending?limit=7");
    expect(before.status).toBe(200);
    expect(before.body.claims.length).toBeGreaterThan(0);
    const hot = await newClaim();
    const voters = await Promise.all([1, 2].map(() => createAgent(api)));
    for (const v of voters) await evidence(v, hot);
    const cached = await api.get("/discover/trending?limit=7", { token: voters[0].token });
    expect(cached.body.updated_at).toBe(before.body.updated_at);
    expect(ids(cached.body.claims)).toEqual(ids(before.body.claims));
    expect(ids(cached.body.claims)).not.toContain(hot);
    // The claims themselves are read fresh: the caller's own vote shows on a cached ranking.
    const listed = cached.body.claims[0].id;
    await vote(voters[0], listed, 0.9);
    const mine = await api.get("/discover/trending?limit=7", { token: voters[0].token });
    expect(mine.body.claims[0]).toMatchObject({ id: listed, user_vote: 0.9 });
    // Recomputed (here: on an empty cache), the new activity ranks.
    const empty = createCache({ prefix: `fresh-${seq}` });
    const fresh = await trending({ limit: 7, offset: 0 }, null, { store: empty });
    await empty.close();
    expect(ids(fresh.claims)).toContain(hot);
    expect(fresh.updated_at > before.body.updated_at).toBe(true);
  });

  boundsCases("/discover/trending", ["limit=0", "limit=51", "limit=two", "offset=-1"]);
});

describe("GET /discover/related/{claim_id}", () => {
  it("scores 10 per shared tag and 5 per agent who voted on both, keeps only positive scores", async () => {
    const source = await newClaim(["rel-x", "rel-y"]);
    const twoTags = await newClaim(["rel-y", "rel-x", "rel-z"]); // 20
    const tagAndVoter = await newClaim(["rel-x"]); // 10 + 5
    const twoVoters = await newClaim([]); // 10
    const oneTag = await newClaim(["rel-y"]); // 10, newer than twoVoters
    const voterOnly = await newClaim(["rel-other"]); // 5: one voter in common
    const unrelated = await newClaim(["rel-other"]);
    const [v1, v2] = [await createAgent(api), await createAgent(api)];
    for (const v of [v1, v2]) {
      await vote(v, source);
      await vote(v, twoVoters);
    }
    await vote(v1, tagAndVoter);
    await vote(v2, voterOnly, 0.5);
    await db().claim.update({ where: { id: twoVoters }, data: { createdAt: new Date(Date.now() - HOUR_MS) } });

    const res = await api.get(`/discover/related/${source}?limit=20`);
    expect(res.status).toBe(200);
    expect(res.body.source_claim_id).toBe(source);
    const byId = Object.fromEntries(res.body.related.map((r: any) => [r.id, r]));
    expect(byId[twoTags]).toMatchObject({ relevance_score: 20, shared_tags: ["rel-y", "rel-x"] });
    expect(byId[tagAndVoter]).toMatchObject({ relevance_score: 15, shared_tags: ["rel-x"] });
    expect(byId[twoVoters]).toMatchObject({ relevance_score: 10, shared_tags: [] });
    expect(byId[oneTag]).toMatchObject({ relevance_score: 10, shared_tags: ["rel-y"] });
    expect(byId[voterOnly]).toMatchObject({ relevance_score: 5, shared_tags: [] });
    expect(byId[unrelated]).toBeUndefined();
    expect(byId[source]).toBeUndefined();
    expect(ids(res.body.related)).toEqual([twoTags, tagAndVoter, oneTag, twoVoters, voterOnly]);
    expect(res.body.related[0]).toMatchObject({ statement: expect.any(String), author: { id: author.id }, user_vote: null });

    const top2 = await api.get(`/discover/related/${source}?limit=2`);
    expect(ids(top2.body.related)).toEqual([twoTags, tagAndVoter]);
    expect((await api.get(`/discover/related/${source}`)).body.related).toHaveLength(5);
  });

  it("returns nothing for a claim without tags or voters in common", async () => {
    const lonely = await newClaim(["rel-lonely-tag"]);
    const res = await api.get(`/discover/related/${lonely}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ source_claim_id: lonely, related: [] });
  });

  it("answers 404 Claim not found for unknown and malformed ids", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const res = await api.get(`/discover/related/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });

  it.each(["limit=0", "limit=21", "limit=x"])("refuses %s with 400 naming limit", async (q) => {
    const claim = await newClaim(["rel-bounds"]);
    const res = await api.get(`/discover/related/${claim}?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^limit: /);
  });
});

describe("GET /discover/recommended", () => {
  it("needs a token", async () => {
    const res = await api.get("/discover/recommended");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
  });

  it("scores unvoted claims of others by the caller's expertise tags, recency and evidence", async () => {
    const me = await createAgent(api);
    const helper = await createAgent(api);
    // Expertise in "rec-bio": three claims of my own (never recommended to me).
    const own = [await newClaim(["rec-bio"], me), await newClaim(["rec-bio"], me), await newClaim(["rec-bio"], me)];
    const inMyTag = await newClaim(["rec-bio", "rec-chem"]); // ≈ 10 + 10
    const evidenced = await newClaim([]); // ≈ 10 + 3·ln 3
    await evidence(helper, evidenced);
    await evidence(helper, evidenced);
    const plain = await newClaim([]); // ≈ 10
    const old = await newClaim([]); // 14 days: 10·0.25
    await backdate(old, 14 * DAY_MS);
    const voted = await newClaim(["rec-bio"]);
    await vote(me, voted);

    const res = await api.get("/discover/recommended?limit=50", { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.based_on_tags).toEqual(["rec-bio"]);
    const got = ids(res.body.claims);
    for (const excluded of [...own, voted]) expect(got).not.toContain(excluded);
    const mine = res.body.claims.filter((c: any) => [inMyTag, evidenced, plain, old].includes(c.id));
    expect(ids(mine)).toEqual([inMyTag, evidenced, plain, old]);
    expect(mine[0].matching_tags).toEqual(["rec-bio"]);
    expect(mine[0].recommendation_score).toBeCloseTo(20, 1);
    expect(mine[1].recommendation_score).toBeCloseTo(10 + 3 * Math.log(3), 1);
    expect(mine[2]).toMatchObject({ matching_tags: [] });
    expect(mine[2].recommendation_score).toBeCloseTo(10, 1);
    expect(mine[3].recommendation_score).toBeCloseTo(2.5, 1);
    expect(mine[0]).toMatchObject({ user_vote: null, is_bookmarked: false, is_following: false });
    const scores = res.body.claims.map((c: any) => c.recommendation_score);
    expect(scores).toEqual([...scores].sort((p: number, q: number) => q - p));
    expect(res.body.claims.every((c: any) => c.author.id !== me.id && c.user_vote === null)).toBe(true);

    const two = await api.get("/discover/recommended?limit=2", { token: me.token });
    expect(ids(two.body.claims)).toEqual(got.slice(0, 2));
  });

  it("gives a newcomer fresh claims without expertise tags", async () => {
    const newcomer = await createAgent(api);
    const fresh = await newClaim([]);
    const res = await api.get("/discover/recommended", { token: newcomer.token });
    expect(res.status).toBe(200);
    expect(res.body.based_on_tags).toEqual([]);
    expect(res.body.claims.length).toBeGreaterThan(0);
    expect(res.body.claims.length).toBeLessThanOrEqual(10);
    expect(ids(res.body.claims)).toContain(fresh);
  });

  it("keeps the caller's shortlist for RECOMMENDED_CACHE_SECONDS (30), with every returned score exact at once", async () => {
    const me = await createAgent(api);
    const helper = await createAgent(api);
    for (let i = 0; i < 3; i++) await newClaim(["rec-geo"], me); // expertise: rec-geo
    const a = await newClaim(["rec-geo"]);
    const b = await newClaim(["rec-geo"]);
    const first = await api.get("/discover/recommended?limit=50", { token: me.token });
    expect(first.body.based_on_tags).toEqual(["rec-geo"]);
    expect(ids(first.body.claims).slice(0, 2)).toEqual([b, a]);

    // Evidence on a shortlisted claim: its score moves on the next call, and the order with it.
    await evidence(helper, a);
    await evidence(helper, a);
    // A claim voted on since drops out at once.
    await vote(me, b);
    // A claim newer than the shortlist waits for the next ranking.
    const later = await newClaim(["rec-geo"]);
    const cached = await api.get("/discover/recommended?limit=50", { token: me.token });
    expect(cached.status).toBe(200);
    const got = ids(cached.body.claims);
    expect(got).not.toContain(b);
    expect(got).not.toContain(later);
    expect(got[0]).toBe(a);
    const scoreA = cached.body.claims[0].recommendation_score;
    expect(scoreA).toBeGreaterThan(20 + 3 * Math.log(3) - 0.01);
    expect(scoreA).toBeLessThanOrEqual(20 + 3 * Math.log(3) + 0.0001);

    // Ranked again (here: on an empty cache), the new claim is in.
    const empty = createCache({ prefix: `fresh-rec-${seq}` });
    const fresh = await recommended(me.id, { limit: 50 }, { store: empty });
    await empty.close();
    expect(ids(fresh.claims)).toContain(later);
    expect(ids(fresh.claims)).not.toContain(b);
  });

  it("reads further down a kept shortlist when the caller has voted on more of it than the slack covers", async () => {
    const me = await createAgent(api);
    for (let i = 0; i < 3; i++) await newClaim(["rec-hist"], me); // expertise: rec-hist
    const mine: string[] = [];
    for (let i = 0; i < 14; i++) mine.push(await newClaim(["rec-hist"]));
    const first = await api.get("/discover/recommended?limit=2", { token: me.token });
    expect(ids(first.body.claims)).toEqual([mine[13], mine[12]]);
    // The page (2) and the slack (10) are all voted on since: the shortlist's 13th and 14th come next.
    for (const id of mine.slice(2).reverse()) await vote(me, id);
    const cached = await api.get("/discover/recommended?limit=2", { token: me.token });
    expect(ids(cached.body.claims)).toEqual([mine[1], mine[0]]);
  });

  boundsCases("/discover/recommended", ["limit=0", "limit=51", "limit=1.5"]);
});

describe("GET /discover/topics", () => {
  /** Ground truth by brute force (fine in a test): claims per tag, and those of the last 7 days. */
  async function expectedTopics() {
    return db().$queryRaw<{ tag: string; claim_count: number; recent_activity: number }[]>`
      SELECT tag, count(*)::int AS claim_count,
             count(*) FILTER (WHERE created_at >= now() - interval '7 days')::int AS recent_activity
      FROM (SELECT DISTINCT id, created_at, unnest(tags) AS tag FROM claims) t
      GROUP BY tag ORDER BY claim_count DESC, tag ASC`;
  }

  it("lists tags by claim count with the claims of the last 7 days, exactly", async () => {
    await newClaim(["top-alpha", "top-beta"]);
    await newClaim(["top-alpha"]);
    const a3 = await newClaim(["top-alpha"]);
    const justInside = await newClaim(["top-gamma"]);
    const justOutside = await newClaim(["top-gamma"]);
    await backdate(a3, 10 * DAY_MS);
    await backdate(justInside, 7 * DAY_MS - HOUR_MS);
    await backdate(justOutside, 7 * DAY_MS + HOUR_MS);

    const res = await api.get("/discover/topics?limit=100");
    expect(res.status).toBe(200);
    const expected = await expectedTopics();
    expect(res.body.total).toBe(expected.length);
    expect(res.body.topics).toEqual(expected.slice(0, 100));
    const byTag = Object.fromEntries(res.body.topics.map((t: any) => [t.tag, t]));
    expect(byTag["top-alpha"]).toEqual({ tag: "top-alpha", claim_count: 3, recent_activity: 2 });
    expect(byTag["top-beta"]).toEqual({ tag: "top-beta", claim_count: 1, recent_activity: 1 });
    expect(byTag["top-gamma"]).toEqual({ tag: "top-gamma", claim_count: 2, recent_activity: 1 });
  });

  it("stays exact when tags change or claims disappear, and pages with limit/offset", async () => {
    const c = await newClaim(["top-delta", "top-epsilon"]);
    await db().claim.update({ where: { id: c }, data: { tags: ["top-epsilon", "top-zeta"] } });
    const gone = await newClaim(["top-eta"]);
    await db().claim.delete({ where: { id: gone } });
    const expected = await expectedTopics();
    const all = (await api.get("/discover/topics?limit=100")).body;
    expect(all.topics).toEqual(expected.slice(0, 100));
    expect(all.topics.map((t: any) => t.tag)).not.toContain("top-delta");
    expect(all.topics.map((t: any) => t.tag)).not.toContain("top-eta");

    const page = await api.get("/discover/topics?limit=2&offset=1");
    expect(page.body.total).toBe(expected.length);
    expect(page.body.topics).toEqual(expected.slice(1, 3));
    expect((await api.get("/discover/topics")).body.topics).toEqual(expected.slice(0, 50));
  });

  boundsCases("/discover/topics", ["limit=0", "limit=101", "offset=-1", "offset=x"]);
});

describe("GET /discover/topics/{tag}", () => {
  it("lists the claims with a tag, sorted by recent, gradient or votes, with the total", async () => {
    const [first, second, third] = [await newClaim(["tc-kappa"]), await newClaim(["tc-kappa", "tc-other"]), await newClaim(["tc-kappa"])];
    await newClaim(["tc-other"]);
    const voters = await Promise.all([1, 2].map(() => createAgent(api)));
    await vote(voters[0], first, 0.9);
    await vote(voters[1], first, 0.9);
    await vote(voters[0], second, 0.1);

    const recent = await api.get("/discover/topics/tc-kappa");
    expect(recent.status).toBe(200);
    expect(recent.body.tag).toBe("tc-kappa");
    expect(recent.body.total).toBe(3);
    expect(ids(recent.body.claims)).toEqual([third, second, first]);
    expect(recent.body.claims[0]).toMatchObject({ tags: ["tc-kappa"], author: { id: author.id }, user_vote: null });

    expect(ids((await api.get("/discover/topics/tc-kappa?sort=votes")).body.claims)).toEqual([first, second, third]);
    const byGradient = (await api.get("/discover/topics/tc-kappa?sort=gradient")).body.claims;
    expect(ids(byGradient)[0]).toBe(first);
    expect(ids(byGradient).at(-1)).toBe(second);

    const page = await api.get("/discover/topics/TC-Kappa?limit=1&offset=1");
    expect(page.body).toMatchObject({ tag: "tc-kappa", total: 3 });
    expect(ids(page.body.claims)).toEqual([second]);

    const withToken = await api.get("/discover/topics/tc-kappa?sort=votes", { token: voters[0].token });
    expect(withToken.body.claims[0]).toMatchObject({ id: first, user_vote: 0.9 });
  });

  it("answers an empty list for a tag no claim has", async () => {
    const res = await api.get("/discover/topics/no-such-tag-anywhere");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tag: "no-such-tag-anywhere", claims: [], total: 0 });
  });

  boundsCases("/discover/topics/tc-kappa", ["sort=popular", "sort=", "limit=0", "limit=101", "offset=-1"]);
});
