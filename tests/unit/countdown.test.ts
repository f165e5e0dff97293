// The live countdown's words and ticks (app/_lib/countdown.ts): to the second in the last hour, to the
// minute before, nothing once reached; the next tick is when the words would change (each minute a day
// or more ahead).
import { describe, expect, it } from "vitest";
import { countdownWords, nextChangeMs } from "../../app/_lib/countdown.ts";

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe("countdown words", () => {
  it("seconds in the last hour, rounded up (never 'in 0 s' before the date)", () => {
    expect(countdownWords(1)).toBe("in 1 s");
    expect(countdownWords(5 * S)).toBe("in 5 s");
    expect(countdownWords(59 * S + 1)).toBe("in 1 min 00 s");
    expect(countdownWords(12 * MIN + 5 * S)).toBe("in 12 min 05 s");
    expect(countdownWords(H)).toBe("in 60 min 00 s");
  });
  it("minutes before, then days and hours", () => {
    expect(countdownWords(H + 1)).toBe("in 1 h 01 min");
    expect(countdownWords(4 * H + 5 * MIN)).toBe("in 4 h 05 min");
    expect(countdownWords(24 * H)).toBe("in 1 day 0 h");
    expect(countdownWords(2 * 24 * H + 3 * H)).toBe("in 2 days 3 h");
  });
  it("nothing once reached", () => {
    expect(countdownWords(0)).toBeNull();
    expect(countdownWords(-5 * S)).toBeNull();
  });
  it("ticks when the words change: each second in the last hour, each minute before", () => {
    for (const left of [1, 999, 1000, 1500, 59_999, 60_000, H, H + 1, H + 30 * S, 3 * H + 1, 26 * H + 7 * S]) {
      const wait = nextChangeMs(left);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(left <= H ? S : MIN);
      // The words hold until then, and change then (a day or more ahead they say hours only: a tick
      // each minute changes them on the hour).
      expect(countdownWords(left - wait + 1)).toBe(countdownWords(left));
      if (left < 24 * H) expect(countdownWords(left - wait)).not.toBe(countdownWords(left));
    }
  });
});
