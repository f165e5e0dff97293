import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateLimiter, type RateLimiter } from "~/server/ratelimit";
import { sleep } from "../helpers/time.ts";
import { clearOfBoundary, REDIS_URL, redisAvailable, startFakeUpstash, uniquePrefix, type FakeUpstash } from "./helpers";
import { limitSuite } from "./limits-suite";

// The Upstash REST path, end to end over HTTP: @upstash/redis → a local server speaking Upstash's
// REST protocol (tests/ratelimit/helpers.ts) → the real Redis.
describe.skipIf(!redisAvailable)("upstash backend over REST (local Upstash-protocol server)", () => {
  let upstash: FakeUpstash;
  beforeAll(async () => {
    upstash = await startFakeUpstash(REDIS_URL);
  });
  const open: RateLimiter[] = [];
  afterAll(async () => {
    await Promise.all(open.map((rl) => rl.close()));
    await upstash?.close();
  });

  limitSuite("upstash", () => ({ upstash: { url: upstash.url, token: upstash.token } }), 120_000);

  it("really went through the REST API (auto-pipelined EVALSHA)", () => {
    expect(upstash.commands).toBeGreaterThan(1000);
    expect((upstash.requests["/pipeline"] ?? 0) + (upstash.requests["/"] ?? 0)).toBeGreaterThan(1000);
  });

  it("two app instances share one limit", async () => {
    const prefix = uniquePrefix("upstash-shared");
    const mk = () => createRateLimiter({ upstash: { url: upstash.url, token: upstash.token }, prefix, scale: 0.5, timeoutMs: 5_000 });
    const a = mk();
    const b = mk();
    open.push(a, b);
    await clearOfBoundary(60_000, 5_000);
    for (let i = 0; i < 30; i++) {
      const r = await (i % 2 ? b : a).limitRequest({ ip: "198.51.100.77" });
      expect(r).toMatchObject({ success: true, limit: 30, remaining: 29 - i });
    }
    expect((await b.limitRequest({ ip: "198.51.100.77" })).success).toBe(false);
  });

  it("a wrong token is a store failure: logged, answered by the in-process limiter", async () => {
    const logs: string[] = [];
    const rl = createRateLimiter({
      upstash: { url: upstash.url, token: "wrong" },
      prefix: uniquePrefix("upstash-badtoken"),
      logger: (m, e) => logs.push(`${m}: ${String(e)}`),
    });
    open.push(rl);
    const r1 = await rl.limitRequest({ ip: "198.51.100.5" });
    const r2 = await rl.limitRequest({ ip: "198.51.100.5" });
    expect(r1).toMatchObject({ success: true, limit: 60, remaining: 59 });
    expect(r2).toMatchObject({ success: true, limit: 60, remaining: 58 });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/upstash store failed.*Unauthorized/);
  });

  it("goes back to the shared store once it answers again", async () => {
    const logs: string[] = [];
    const rl = createRateLimiter({
      upstash: { url: upstash.url, token: upstash.token },
      prefix: uniquePrefix("upstash-recover"),
      failureCooldownMs: 100,
      timeoutMs: 5_000,
      logger: (m) => logs.push(m),
    });
    open.push(rl);
    await clearOfBoundary(60_000, 5_000);
    expect((await rl.limitRequest({ ip: "1.1.1.1" })).remaining).toBe(59); // shared store: 1 used
    upstash.failing = true;
    try {
      // fallback: its own count, starting fresh
      expect((await rl.limitRequest({ ip: "1.1.1.1" })).remaining).toBe(59);
      expect((await rl.limitRequest({ ip: "1.1.1.1" })).remaining).toBe(58);
    } finally {
      upstash.failing = false;
    }
    await sleep(150);
    const before = upstash.commands;
    expect((await rl.limitRequest({ ip: "1.1.1.1" })).remaining).toBe(58); // shared store: 2 used
    expect(upstash.commands).toBe(before + 1);
    expect(logs).toHaveLength(1);
  });
});
