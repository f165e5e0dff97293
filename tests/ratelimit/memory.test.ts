import { afterEach, describe, expect, it, vi } from "vitest";
import { createRateLimiter, mostRestrictive, scaleLimit } from "~/server/ratelimit";
import { MemoryStore } from "~/server/ratelimit/memory-store";
import { limitSuite } from "./limits-suite";

describe("memory backend", () => {
  limitSuite("memory", () => ({}));

  it("is chosen when neither a redis URL nor Upstash credentials are given", () => {
    expect(createRateLimiter({}).backend).toBe("memory");
    expect(createRateLimiter({ upstash: { url: "", token: "" } }).backend).toBe("memory");
  });

  it("rejects a non-positive scale", () => {
    expect(() => createRateLimiter({ scale: 0 })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => createRateLimiter({ scale: -1 })).toThrow(/RATE_LIMIT_SCALE/);
    expect(() => createRateLimiter({ scale: Number.NaN })).toThrow(/RATE_LIMIT_SCALE/);
  });

  it("scales limits by rounding down, never below 1", () => {
    expect(scaleLimit(120, 0.05)).toBe(6);
    expect(scaleLimit(100, 0.29)).toBe(29); // 28.999999999999996 in floating point
    expect(scaleLimit(10, 0.05)).toBe(1);
    expect(scaleLimit(60, 1000)).toBe(60000);
  });

  it("mostRestrictive: a failure wins (the longest wait), else the fewest remaining", () => {
    const ok = (remaining: number, reset = 100) => ({ success: true, limit: 10, remaining, reset, retryAfter: 0 });
    const ko = (retryAfter: number) => ({ success: false, limit: 10, remaining: 0, reset: 100 + retryAfter, retryAfter });
    expect(mostRestrictive([ok(5), ok(3)])).toEqual(ok(3));
    expect(mostRestrictive([ok(0), ko(5)])).toEqual(ko(5));
    expect(mostRestrictive([ko(5), ko(9)])).toEqual(ko(9));
  });

  describe("expired buckets", () => {
    afterEach(() => vi.useRealTimers());
    it("are dropped from memory", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Math.ceil(Date.now() / 60_000) * 60_000 + 1_000;
      vi.setSystemTime(start);
      const store = new MemoryStore();
      // drive the store through the library itself
      const { Ratelimit } = await import("@upstash/ratelimit");
      const lib = new Ratelimit({
        redis: store as never,
        limiter: Ratelimit.slidingWindow(5, "60 s"),
        ephemeralCache: false,
        enableTelemetry: false,
      });
      for (let i = 0; i < 50; i++) await lib.limit(`id-${i}`);
      expect(store.size()).toBe(50);
      expect((await lib.getRemaining("id-1")).remaining).toBe(4);
      vi.setSystemTime(start + 2 * 60_000 + 1_001); // window*2 + 1 s after the first write
      expect(store.size()).toBe(0);
    });
  });
});
