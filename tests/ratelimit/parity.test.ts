import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRateLimiter, type RateLimitResult, type RateLimiter, type RateLimiterOptions } from "~/server/ratelimit";
import { REDIS_URL, redisAvailable, startFakeUpstash, uniquePrefix, type FakeUpstash } from "./helpers";

/**
 * The same sliding-window scenario, on a controlled clock (only `Date` is faked: the library reads
 * Date.now() and passes it to the store), must give identical answers on every backend — and the
 * ones @upstash/ratelimit's slidingWindow defines: used = floor(previous × (1 − elapsed fraction)) +
 * current; allowed while used < limit; remaining = limit − used after counting; reset = end of the
 * current 60 s bucket.
 */
const W = 60_000;
const base = (Math.floor(Date.now() / W) + 10) * W; // a bucket start in the near future
type Step = { at: number; calls: number };
// limit 6 (new tier at scale 0.05)
const scenario: Step[] = [
  { at: base + 0.1 * W, calls: 7 }, // fresh: 6 pass (5..0), the 7th fails
  { at: base + W + 0.25 * W, calls: 3 }, // previous 6 weighs floor(0.75 × 6) = 4: 2 pass
  { at: base + W + 0.5 * W, calls: 2 }, // weighs 3, current 2: 1 passes
  { at: base + W + 0.9 * W, calls: 4 }, // weighs 0, current 3: 3 pass
  { at: base + 3 * W + 0.5 * W, calls: 1 }, // the bucket before is empty: full budget
];
const expected: [boolean, number, number, number][] = [
  // success, remaining, reset (s), retryAfter
  ...[5, 4, 3, 2, 1, 0].map((rem) => [true, rem, (base + W) / 1000, 0] as [boolean, number, number, number]),
  [false, 0, (base + W) / 1000, 54],
  [true, 1, (base + 2 * W) / 1000, 0],
  [true, 0, (base + 2 * W) / 1000, 0],
  [false, 0, (base + 2 * W) / 1000, 45],
  [true, 0, (base + 2 * W) / 1000, 0],
  [false, 0, (base + 2 * W) / 1000, 30],
  [true, 2, (base + 2 * W) / 1000, 0],
  [true, 1, (base + 2 * W) / 1000, 0],
  [true, 0, (base + 2 * W) / 1000, 0],
  [false, 0, (base + 2 * W) / 1000, 6],
  [true, 5, (base + 4 * W) / 1000, 0],
];

async function play(rl: RateLimiter): Promise<[boolean, number, number, number][]> {
  const out: RateLimitResult[] = [];
  for (const step of scenario) {
    vi.setSystemTime(step.at);
    for (let i = 0; i < step.calls; i++) out.push(await rl.limitRequest({ agentId: "p", tier: "new" }));
  }
  for (const r of out) expect(r.limit).toBe(6);
  return out.map((r) => [r.success, r.remaining, r.reset, r.retryAfter]);
}

describe("same sliding-window algorithm on every backend", () => {
  let upstash: FakeUpstash | undefined;
  const open: RateLimiter[] = [];
  const logs: string[] = [];
  beforeAll(async () => {
    if (redisAvailable) upstash = await startFakeUpstash(REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(open.map((rl) => rl.close()));
    await upstash?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
    expect(logs).toEqual([]);
  });

  const run = async (opts: Partial<RateLimiterOptions>, backend: RateLimiter["backend"]) => {
    const rl = createRateLimiter({ scale: 0.05, timeoutMs: 5_000, prefix: uniquePrefix(`parity-${backend}`), logger: (m) => logs.push(m), ...opts });
    open.push(rl);
    expect(rl.backend).toBe(backend);
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await play(rl)).toEqual(expected);
  };

  it("memory", () => run({}, "memory"));
  it.skipIf(!redisAvailable)("redis", () => run({ redisUrl: REDIS_URL }, "redis"));
  it.skipIf(!redisAvailable)("upstash (REST)", () => run({ upstash: { url: upstash!.url, token: upstash!.token } }, "upstash"));
});
