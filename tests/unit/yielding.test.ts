import { describe, expect, it } from "vitest";
import { IDLE_BELOW, MAX_YIELD_MS, yieldPauseMs } from "~/server/domain/yielding";

describe("a background job yields to the API", () => {
  it("does not pause on an idle server, whose loop still shows a few per cent of timers and bookkeeping", () => {
    expect(yieldPauseMs(200, 0)).toBe(0);
    expect(yieldPauseMs(200, 0.05)).toBe(0);
    expect(yieldPauseMs(200, IDLE_BELOW)).toBe(0);
  });

  it("pauses 19× its step on a saturated one: the job takes ≈5 % of the time", () => {
    const step = 200;
    const pause = yieldPauseMs(step, 1);
    expect(pause).toBe(3_800);
    expect(step / (step + pause)).toBeCloseTo(0.05, 5);
  });

  it("pauses in proportion in between", () => {
    expect(yieldPauseMs(90, 0.55)).toBeCloseTo(855, 6); // half-way between idle and saturated: 9.5×
    expect(yieldPauseMs(100, 0.25)).toBeGreaterThan(0);
    expect(yieldPauseMs(100, 0.25)).toBeLessThan(yieldPauseMs(100, 0.5));
  });

  it("never pauses longer than MAX_YIELD_MS, and reads nonsense as idle or saturated, never as a negative pause", () => {
    expect(yieldPauseMs(60_000, 1)).toBe(MAX_YIELD_MS);
    expect(yieldPauseMs(100, Number.NaN)).toBe(0);
    expect(yieldPauseMs(100, 7)).toBe(1_900);
    expect(yieldPauseMs(-5, 1)).toBe(0);
  });
});
