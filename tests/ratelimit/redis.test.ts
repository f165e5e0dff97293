import IORedis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimiter } from "~/server/ratelimit";
import { IORedisStore } from "~/server/ratelimit/ioredis-store";
import { sha1 } from "~/server/ratelimit/lua";
import { sleep } from "../helpers/time.ts";
import { clearOfBoundary, REDIS_URL, redisAvailable, startProxy, uniquePrefix } from "./helpers";
import { limitSuite } from "./limits-suite";

describe.skipIf(!redisAvailable)(`redis backend (${REDIS_URL})`, () => {
  limitSuite("redis", () => ({ redisUrl: REDIS_URL }));

  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });

  it("two app instances (two createRateLimiter calls) share one limit", async () => {
    const prefix = uniquePrefix("redis-shared");
    const logs: unknown[] = [];
    const mk = () => createRateLimiter({ redisUrl: REDIS_URL, prefix, timeoutMs: 5_000, logger: (m) => logs.push(m) });
    const a = mk();
    const b = mk();
    open.push(a, b);
    await clearOfBoundary(60_000, 5_000);
    const seen: number[] = [];
    for (let i = 0; i < 120; i++) {
      const rl: RateLimiter = i % 2 ? b : a;
      const r = await rl.limitRequest({ agentId: "shared-agent", tier: "new" });
      expect(r.success).toBe(true);
      seen.push(r.remaining);
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    expect((await a.limitRequest({ agentId: "shared-agent", tier: "new" })).success).toBe(false);
    expect((await b.limitRequest({ agentId: "shared-agent", tier: "new" })).success).toBe(false);
    // auth budget is shared too
    for (let i = 0; i < 10; i++) await (i % 2 ? a : b).limitAuthAttempt("192.0.2.9");
    expect((await a.limitAuthAttempt("192.0.2.9")).success).toBe(false);
    expect((await b.limitAuthAttempt("192.0.2.9")).success).toBe(false);
    // and so are the password-guess budgets
    for (let i = 0; i < 5; i++) await (i % 2 ? a : b).recordPasswordFailure("x@example.com", "192.0.2.11");
    expect((await a.passwordTryAllowed("X@example.com", "192.0.2.11")).success).toBe(false);
    expect(logs).toEqual([]);
  });

  it("writes its keys under the prefix, with an expiry", async () => {
    const prefix = uniquePrefix("redis-keys");
    const rl = createRateLimiter({ redisUrl: REDIS_URL, prefix, timeoutMs: 5_000 });
    open.push(rl);
    await rl.limitRequest({ ip: "203.0.113.99" });
    await rl.limitAuthAttempt("203.0.113.99");
    await rl.recordPasswordFailure("K@Example.com", "2001:db8:1:2::99");
    const probe = new IORedis(REDIS_URL);
    open.push({ close: async () => void (await probe.quit()) });
    const keys = (await probe.keys(`${prefix}:*`)).sort();
    expect(keys).toEqual([
      expect.stringMatching(new RegExp(`^${prefix}:api:ip:203\\.0\\.113\\.99:\\d+$`)),
      expect.stringMatching(new RegExp(`^${prefix}:auth:ip:203\\.0\\.113\\.99:\\d+$`)),
      // an IPv6 client by its /64
      expect.stringMatching(new RegExp(`^${prefix}:pw-account:k@example\\.com:\\d+$`)),
      expect.stringMatching(new RegExp(`^${prefix}:pw-client:2001:db8:1:2::/64 k@example\\.com:\\d+$`)),
    ]);
    for (const k of keys) {
      const ttl = await probe.pttl(k);
      expect(ttl).toBeGreaterThan(0);
    }
  });

  it("fails over to the in-process limiter while Redis is unreachable, and comes back to it", async () => {
    const proxy = await startProxy(new URL(REDIS_URL));
    open.push(proxy);
    const logs: string[] = [];
    const rl = createRateLimiter({
      redisUrl: proxy.url,
      prefix: uniquePrefix("redis-outage"),
      failureCooldownMs: 100,
      timeoutMs: 300,
      logger: (m) => logs.push(m),
    });
    open.push(rl);
    await clearOfBoundary(60_000, 8_000);
    const call = () => rl.limitRequest({ ip: "203.0.113.50" });
    expect((await call()).remaining).toBe(59); // Redis: 1 used
    expect((await call()).remaining).toBe(58); // Redis: 2 used
    await proxy.cut();
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = await call();
      expect(performance.now() - t0).toBeLessThan(1000);
      expect(r).toMatchObject({ success: true, limit: 60, remaining: 59 - i }); // in-process count
    }
    expect(logs.length).toBeGreaterThanOrEqual(1);
    await proxy.restore();
    // ioredis reconnects in the background (retry every <= 2 s); Redis' count resumes where it was
    // (57 next), distinct from the in-process count (54 and below by now)
    let r = await call();
    for (let i = 0; i < 40 && r.remaining !== 57; i++) {
      await sleep(100);
      r = await call();
    }
    expect(r).toMatchObject({ success: true, remaining: 57 });
    expect((await call()).remaining).toBe(56);
  });

  describe("ioredis adapter", () => {
    const store = new IORedisStore(REDIS_URL, { timeoutMs: 500, onError: () => {} });
    open.push(store);
    // a script nobody has loaded: a unique comment changes its hash
    const script = `#!lua flags=allow-key-locking\n-- ${uniquePrefix("noscript")}\nreturn {tonumber(ARGV[1]) + 1, KEYS[1]}`;

    it("maps evalsha(sha, keys, args), strips the shebang and falls back to EVAL on NOSCRIPT", async () => {
      const prepared = store.register(script);
      expect(prepared.script.startsWith("#!")).toBe(false);
      // the stripped script is not in Redis' cache yet: EVALSHA answers NOSCRIPT, the adapter EVALs
      expect(await store.evalsha(prepared.originalSha, ["k1"], [41])).toEqual([42, "k1"]);
      // now cached: plain EVALSHA works
      const direct = new IORedis(REDIS_URL);
      open.push({ close: async () => void (await direct.quit()) });
      expect(await direct.evalsha(prepared.sha, 1, "k2", 1)).toEqual([2, "k2"]);
      expect(await store.evalsha(prepared.originalSha, ["k3"], [9])).toEqual([10, "k3"]);
    });

    it("answers NOSCRIPT for an unknown hash (the library then calls eval), and eval registers it", async () => {
      const other = script.replace("+ 1", "+ 2");
      const originalSha = sha1(other);
      await expect(store.evalsha(originalSha, ["k"], [1])).rejects.toThrow(/NOSCRIPT/);
      expect(await store.eval(other, ["k"], [1])).toEqual([3, "k"]);
      expect(await store.evalsha(originalSha, ["k"], [2])).toEqual([4, "k"]);
    });
  });
});
