// Dates in words without a date library in the pages' scripts (server/domain/dates.ts): the same words
// date-fns wrote before, for any moment, pattern and distance.
import { format, formatDistanceStrict, parseISO } from "date-fns";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, relativeTime } from "~/server/domain/dates.ts";

const PATTERNS = ["d MMM yyyy, HH:mm", "d MMM yyyy", "d MMM", "yyyy", "EEE d MMM yyyy", "d MMM HH:mm", "d MMM yyyy HH:mm:ss", "d MMM HH:mm:ss"];
const moment = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });

describe("formatDate", () => {
  it("writes every pattern the pages use as date-fns did", () => {
    fc.assert(
      fc.property(moment, fc.constantFrom(...PATTERNS), (t, pattern) => {
        expect(formatDate(t, pattern)).toBe(format(t, pattern));
        expect(formatDate(new Date(t).toISOString(), pattern)).toBe(format(t, pattern));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a calendar day as that day, like parseISO", () => {
    for (const day of ["2026-01-01", "2026-11-05", "2024-02-29", "2026-12-31"]) {
      expect(formatDate(day, "EEE d MMM yyyy")).toBe(format(parseISO(day), "EEE d MMM yyyy"));
    }
  });
});

describe("relativeTime", () => {
  it("says the distance from now as formatDistanceToNowStrict did", () => {
    const now = Date.UTC(2026, 10, 28, 12);
    fc.assert(
      fc.property(fc.integer({ min: -5 * 365 * 86_400_000, max: 5 * 365 * 86_400_000 }), (offset) => {
        expect(relativeTime(now + offset, now)).toBe(formatDistanceStrict(now + offset, now, { addSuffix: true }));
      }),
      { numRuns: 5000 },
    );
    expect(relativeTime(now - 5 * 60_000, now)).toBe("5 minutes ago");
    expect(relativeTime(now + 3 * 86_400_000, now)).toBe("in 3 days");
  });
});
