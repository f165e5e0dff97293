import { afterAll, describe, expect, it, vi } from "vitest";
import { log } from "~/server/log/logger";
import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from "~/server/ratelimit";
import { clearOfBoundary, startBlackHole, uniquePrefix } from "./helpers";

// A shared store that is down or hangs must not take the API down: each call answers quickly from
// the in-process limiter (honest numbers, not the library's zeroed timeout result) and the failure
// is logged, throttled.
describe("store failure", () => {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const c of open) await c.close();
  });

  async function expectFailsOpen(opts: Partial<RateLimiterOptions>, backend: RateLimiter["backend"], maxFirstMs = 1000) {
    const logs: { msg: string; err: unknown }[] = [];
    const rl = createRateLimiter({
      prefix: uniquePrefix(`fail-${backend}`),
      timeoutMs: 300,
      logger: (msg, err) => logs.push({ msg, err }),
      ...opts,
    });
    open.push(rl);
    expect(rl.backend).toBe(backend);
    await clearOfBoundary(60_000, 5_000);
    const durations: number[] = [];
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now();
      const r = await rl.limitRequest({ agentId: "agent-x", tier: "new" });
      durations.push(performance.now() - t0);
      expect(r).toMatchObject({ success: true, limit: 120, remaining: 119 - i, retryAfter: 0 });
      expect(r.reset).toBeGreaterThan(Date.now() / 1000);
    }
    const auth = await rl.limitAuthAttempt("192.0.2.1");
    expect(auth).toMatchObject({ success: true, limit: 10, remaining: 9 });
    expect(Math.max(...durations)).toBeLessThan(maxFirstMs);
    // after the first failure the store is left alone for a while: the rest are answered locally
    // (microseconds; the margin is for loaded CI machines)
    expect(Math.max(...durations.slice(1))).toBeLessThan(250);
    // logged, once (throttled to one line per 10 s)
    expect(logs.length).toBe(1);
    expect(logs[0].msg).toMatch(/^\[ratelimit\] /);
    return logs;
  }

  it("redis on a closed port", async () => {
    const logs = await expectFailsOpen({ redisUrl: "redis://127.0.0.1:1" }, "redis", 1000);
    expect(String(logs[0].err)).toMatch(/ECONNREFUSED|not connected|closed/);
  });

  it("upstash on a closed port", async () => {
    const logs = await expectFailsOpen({ upstash: { url: "http://127.0.0.1:1", token: "t" } }, "upstash", 1000);
    expect(logs[0].msg).toMatch(/upstash store failed/);
  });

  it("redis that accepts connections and never answers (bounded by timeoutMs)", async () => {
    const hole = await startBlackHole();
    open.push(hole);
    await expectFailsOpen({ redisUrl: `redis://127.0.0.1:${hole.port}` }, "redis", 1000);
  });

  it("upstash that accepts connections and never answers: the library's timeout result is not used", async () => {
    const hole = await startBlackHole();
    open.push(hole);
    const logs = await expectFailsOpen({ upstash: { url: `http://127.0.0.1:${hole.port}`, token: "t" } }, "upstash", 1000);
    expect(String(logs[0].err)).toMatch(/did not answer within 300 ms/);
  });

  it("the in-process fallback still limits (honest 429s, not a free pass)", async () => {
    const rl = createRateLimiter({
      redisUrl: "redis://127.0.0.1:1",
      prefix: uniquePrefix("fail-limit"),
      scale: 0.05,
      logger: () => {},
    });
    open.push(rl);
    await clearOfBoundary(60_000, 3_000);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await rl.limitRequest({ ip: "203.0.113.1" }));
    expect(results.map((r) => [r.success, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(results[3].retryAfter).toBeGreaterThanOrEqual(1);
  });

  it("the process's logger is used when none is given (no crash, no unhandled 'error' event)", async () => {
    const seen: unknown[][] = [];
    const warn = vi.spyOn(log(), "warn").mockImplementation((...args: unknown[]) => void seen.push(args));
    try {
      const rl = createRateLimiter({ redisUrl: "redis://127.0.0.1:1", prefix: uniquePrefix("fail-default") });
      open.push(rl);
      expect((await rl.limitRequest({ ip: "1.2.3.4" })).success).toBe(true);
      await new Promise((r) => setTimeout(r, 300)); // let ioredis retry and emit more 'error' events
    } finally {
      warn.mockRestore();
    }
    expect(seen.length).toBe(1);
    expect(String(seen[0][1])).toMatch(/\[ratelimit\]/);
  });
});
