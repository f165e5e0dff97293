import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { REDIS_URL, redisAvailable, startBlackHole, startFakeUpstash } from "../ratelimit/helpers.ts";
import { db } from "../../server/db/client.ts";
import { closeCache, createCache, type Cache } from "../../server/cache/index.ts";
import { computePlatformStats, platformStats, refreshPlatformStats } from "../../server/services/stats.ts";

// This file's own namespace in a shared store (REDIS_URL may be set for the whole run).
process.env.CACHE_PREFIX = `test-cache:${randomUUID()}`;

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  await closeCache();
});

const DAY_MS = 24 * 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newClaim(author: TestAgent, tags: string[] = []): Promise<string> {
  const res = await api.post("/claims", { statement: `A statistics claim ${Math.random()}`, tags }, { token: author.token });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function vote(agent: TestAgent, claimId: string, value: number) {
  expect((await api.post(`/claims/${claimId}/vote`, { value }, { token: agent.token })).status).toBe(200);
}

describe("platform statistics", () => {
  it("counts claims, agents, claim votes, claims at consensus and agents active in the last 7 days", async () => {
    const author = await createAgent(api);
    const voter = await createAgent(api);
    const commenter = await createAgent(api);
    const evidenceAuthor = await createAgent(api);
    const idle = await createAgent(api);
    const longAgo = await createAgent(api);

    const claims = [];
    for (let i = 0; i < 5; i++) claims.push(await newClaim(author));
    await vote(voter, claims[0], 0.9);
    await vote(voter, claims[1], 0.1);
    await vote(voter, claims[2], 0.5);
    await vote(commenter, claims[0], 0.8);
    // a removed vote no longer counts
    await vote(idle, claims[3], 0.4);
    expect((await api.del(`/claims/${claims[3]}/vote`, { token: idle.token })).status).toBe(204);
    await api.post(`/claims/${claims[0]}/comments`, { content: "A comment." }, { token: commenter.token });
    await api.post(`/claims/${claims[1]}/evidence`, { position: "neutral", content_type: "text", content: "Facts." }, { token: evidenceAuthor.token });
    // long ago: a vote 8 days old makes nobody active now
    await vote(longAgo, claims[4], 0.6);
    await db().claimVote.updateMany({ where: { agentId: longAgo.id }, data: { createdAt: new Date(Date.now() - 8 * DAY_MS) } });

    // One or two votes are too few to call, however far from 0.5 (claims[0] stands at 0.85).
    expect((await api.get(`/claims/${claims[0]}`)).body.gradient).toBeGreaterThan(0.8);

    const stats = await computePlatformStats();
    expect(stats).toEqual({
      total_claims: 5,
      total_agents: await db().agent.count(),
      total_votes: 5,
      claims_at_consensus: 0,
      active_agents_7d: 4, // author (claims), voter, commenter, evidenceAuthor
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(stats.total_votes).toBe(await db().claimVote.count());
    expect(stats.total_agents).toBeGreaterThanOrEqual(6);
  });

  it("claims at consensus are those whose consensus status is consensus_true or consensus_false", async () => {
    const before = (await computePlatformStats()).claims_at_consensus;
    const author = await createAgent(api);
    const voters = [];
    for (let i = 0; i < 5; i++) voters.push(await createAgent(api));
    for (const value of [0.9, 0.1, 0.5]) {
      const claim = await newClaim(author);
      for (const v of voters) await vote(v, claim, value);
    }
    // Five voters at 0.9 and at 0.1 (the votes alone decide: no bridging data), and an open one.
    expect((await computePlatformStats()).claims_at_consensus).toBe(before + 2);
  });

  it("GET /stats/platform serves the cached numbers for 5 minutes: updated_at unchanged on the second call", async () => {
    const first = await api.get("/stats/platform");
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(
      ["active_agents_7d", "claims_at_consensus", "total_agents", "total_claims", "total_votes", "updated_at"].sort(),
    );
    // Something changes; the cached answer does not (yet).
    const someone = await createAgent(api);
    await newClaim(someone);
    await sleep(5);
    const second = await api.get("/stats/platform");
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const fresh = await computePlatformStats();
    expect(fresh.total_claims).toBe(first.body.total_claims + 1);
    expect(fresh.updated_at).not.toBe(first.body.updated_at);
  });
});

describe("GET /stats/platform from the adapter's kept answer", () => {
  /** The headers a client sees, without those that differ from one request to the next. */
  const steadyHeaders = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !["date", "x-ratelimit-remaining", "x-ratelimit-reset", "keep-alive", "connection"].includes(k)));

  it("answers as the procedure does: same body and headers as a request the procedure serves, and the rate limit charges", async () => {
    const kept = await api.get("/stats/platform");
    // A query string (stripped by the procedure's input) is the procedure's to answer.
    const procedure = await api.get("/stats/platform?unused=1");
    expect(kept.status).toBe(200);
    expect(kept.text).toBe(procedure.text);
    expect(steadyHeaders(kept.headers)).toEqual(steadyHeaders(procedure.headers));
    const again = await api.get("/stats/platform");
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBeLessThan(Number(kept.headers.get("x-ratelimit-remaining")));
    const head = await api.request("HEAD", "/stats/platform");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("serves the shared cache's new value as soon as it changes", async () => {
    const before = await api.get("/stats/platform");
    await newClaim(await createAgent(api));
    await sleep(5);
    await refreshPlatformStats();
    const after = await api.get("/stats/platform");
    expect(after.body.updated_at).not.toBe(before.body.updated_at);
    expect(after.body).toEqual(await platformStats());
    expect(after.body.total_claims).toBeGreaterThan(before.body.total_claims);
  });

  it("refuses whom the procedure refuses: an invalid token (401), an API key without the read scope (403); a NUL in the query is a 400", async () => {
    await api.get("/stats/platform");
    expect((await api.get("/stats/platform", { token: "not-a-token" })).status).toBe(401);
    const owner = await createAgent(api);
    const key = await api.post("/auth/api-keys", { name: "votes only", scopes: ["vote"] }, { token: owner.token });
    expect(key.status).toBe(201);
    const refused = await api.get("/stats/platform", { token: key.body.key });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toEqual(expect.any(String));
    expect((await api.get("/stats/platform", { token: owner.token })).status).toBe(200);
    expect((await api.get("/stats/platform?x=%00")).status).toBe(400);
  });
});

describe("cache (process memory)", () => {
  it("stores JSON values until their TTL passes", async () => {
    const c = createCache();
    expect(c.backend).toBe("memory");
    await c.set("k", { a: [1, "two"] }, 1);
    expect(await c.get("k")).toEqual({ a: [1, "two"] });
    expect(await c.get("missing")).toBeUndefined();
    await sleep(1100);
    expect(await c.get("k")).toBeUndefined();
    await c.close();
  });

  it("computes once for concurrent misses and serves the stored value afterwards", async () => {
    const c = createCache();
    let calls = 0;
    const compute = async () => {
      calls += 1;
      await sleep(20);
      return { n: calls };
    };
    const results = await Promise.all([1, 2, 3].map(() => c.getOrCompute("once", 60, compute)));
    expect(results).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(await c.getOrCompute("once", 60, compute)).toEqual({ n: 1 });
    expect(calls).toBe(1);
    await c.close();
  });

  it("fails soft: an unreachable store is answered from memory within the timeout, logged once", async () => {
    const hole = await startBlackHole();
    const logs: string[] = [];
    const c = createCache({ redisUrl: `redis://127.0.0.1:${hole.port}`, timeoutMs: 100, logger: (m) => logs.push(m) });
    const started = performance.now();
    await c.set("k", 42, 60);
    expect(await c.get("k")).toBe(42);
    expect(await c.getOrCompute("stats", 60, async () => "computed")).toBe("computed");
    expect(performance.now() - started).toBeLessThan(1500);
    expect(logs.filter((l) => /store failed/.test(l))).toHaveLength(1);
    await c.close();
    await hole.close();
  });
});

describe.skipIf(!redisAvailable)(`cache shared through Redis (${REDIS_URL})`, () => {
  const open: Cache[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });
  const twoInstances = (opts: Parameters<typeof createCache>[0]) => {
    const prefix = `test-cache:${randomUUID()}`;
    const logger = (m: string, e?: unknown) => {
      throw new Error(`unexpected cache failure: ${m} ${String(e)}`);
    };
    const a = createCache({ ...opts, prefix, logger, timeoutMs: 1000 });
    const b = createCache({ ...opts, prefix, logger, timeoutMs: 1000 });
    open.push(a, b);
    return [a, b] as const;
  };

  it("two instances see the same value", async () => {
    const [a, b] = twoInstances({ redisUrl: REDIS_URL });
    expect(a.backend).toBe("redis");
    await a.set("shared", { hello: "world" }, 60);
    expect(await b.get("shared")).toEqual({ hello: "world" });
  });

  it("two instances serve the same platform statistics and updated_at", async () => {
    const [a, b] = twoInstances({ redisUrl: REDIS_URL });
    const first = await platformStats(a);
    await sleep(5);
    const second = await platformStats(b);
    expect(second).toEqual(first);
  });

  it("when two instances miss at once, both answer the value stored first", async () => {
    const [a, b] = twoInstances({ redisUrl: REDIS_URL });
    const [x, y] = await Promise.all([
      a.getOrCompute("race", 60, async () => "from a"),
      b.getOrCompute("race", 60, async () => "from b"),
    ]);
    expect(x).toBe(y);
  });

  it("works the same through the Upstash REST protocol", async () => {
    const upstash = await startFakeUpstash(REDIS_URL);
    try {
      const [a, b] = twoInstances({ upstash: { url: upstash.url, token: upstash.token } });
      expect(a.backend).toBe("upstash");
      await a.set("shared", { n: 1, s: "x" }, 60);
      expect(await b.get("shared")).toEqual({ n: 1, s: "x" });
      const first = await platformStats(a);
      expect(await platformStats(b)).toEqual(first);
      expect(upstash.commands).toBeGreaterThan(0);
    } finally {
      await upstash.close();
    }
  });
});
