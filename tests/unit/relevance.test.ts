import { describe, expect, it } from "vitest";
import { matchingTags, recommendationScore, relatedRelevance } from "~/server/domain/relevance";

const now = new Date("2026-11-20T12:00:00.000Z");
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

describe("relatedRelevance", () => {
  it("is 10 per shared tag plus 5 per shared voter", () => {
    expect(relatedRelevance({ sharedTags: 0, sharedVoters: 0 })).toBe(0);
    expect(relatedRelevance({ sharedTags: 1, sharedVoters: 0 })).toBe(10);
    expect(relatedRelevance({ sharedTags: 0, sharedVoters: 1 })).toBe(5);
    expect(relatedRelevance({ sharedTags: 2, sharedVoters: 3 })).toBe(35);
  });
});

describe("matchingTags", () => {
  it("keeps the claim's tags that are expertise tags, in the claim's order, once", () => {
    expect(matchingTags(["b", "a", "c", "a"], ["a", "b", "z"])).toEqual(["b", "a"]);
  });
  it("is empty without expertise or without overlap", () => {
    expect(matchingTags(["a"], [])).toEqual([]);
    expect(matchingTags([], ["a"])).toEqual([]);
    expect(matchingTags(["x"], ["y"])).toEqual([]);
  });
});

describe("recommendationScore", () => {
  const base = { matchingTagCount: 0, evidenceCount: 0, now };

  it("a brand-new claim without tags or evidence scores the full recency bonus", () => {
    expect(recommendationScore({ ...base, createdAt: now })).toBe(10);
  });
  it("recency halves every 7 days", () => {
    expect(recommendationScore({ ...base, createdAt: daysAgo(7) })).toBe(5);
    expect(recommendationScore({ ...base, createdAt: daysAgo(14) })).toBe(2.5);
    expect(recommendationScore({ ...base, createdAt: daysAgo(365) })).toBe(0);
  });
  it("a creation time in the future counts as new", () => {
    expect(recommendationScore({ ...base, createdAt: daysAgo(-3) })).toBe(10);
  });
  it("each matching tag adds 10", () => {
    expect(recommendationScore({ ...base, createdAt: now, matchingTagCount: 2 })).toBe(30);
  });
  it("evidence helps with diminishing returns", () => {
    const e = (n: number) => recommendationScore({ ...base, createdAt: daysAgo(365), evidenceCount: n });
    expect(e(1)).toBeCloseTo(3 * Math.LN2, 4);
    expect(e(2)).toBeGreaterThan(e(1));
    expect(e(2) - e(1)).toBeLessThan(e(1) - e(0));
  });
  it("interest outranks age and evidence", () => {
    const fresh = recommendationScore({ ...base, createdAt: now, matchingTagCount: 1 });
    const heavy = recommendationScore({ ...base, createdAt: daysAgo(7), evidenceCount: 20 });
    expect(fresh).toBeGreaterThan(heavy);
  });
  it("is monotonic: newer beats older, more evidence beats less", () => {
    expect(recommendationScore({ ...base, createdAt: daysAgo(1) })).toBeGreaterThan(
      recommendationScore({ ...base, createdAt: daysAgo(2) }),
    );
    expect(recommendationScore({ ...base, createdAt: now, evidenceCount: 5 })).toBeGreaterThan(
      recommendationScore({ ...base, createdAt: now, evidenceCount: 4 }),
    );
  });
});
