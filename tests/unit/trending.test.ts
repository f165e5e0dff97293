import { describe, expect, it } from "vitest";
import { TRENDING_WINDOW_MS, rankTrending, trendingScore, trendingWindowStart } from "~/server/domain/trending";

describe("trending", () => {
  it("weights votes 3, evidence 5, comments 2", () => {
    expect(trendingScore({ votes24h: 1, evidence24h: 0, comments24h: 0 })).toBe(3);
    expect(trendingScore({ votes24h: 0, evidence24h: 1, comments24h: 0 })).toBe(5);
    expect(trendingScore({ votes24h: 0, evidence24h: 0, comments24h: 1 })).toBe(2);
    expect(trendingScore({ votes24h: 4, evidence24h: 2, comments24h: 3 })).toBe(12 + 10 + 6);
  });
  it("one piece of evidence outranks one vote, two comments outrank one vote", () => {
    expect(trendingScore({ votes24h: 0, evidence24h: 1, comments24h: 0 })).toBeGreaterThan(
      trendingScore({ votes24h: 1, evidence24h: 0, comments24h: 0 }),
    );
    expect(trendingScore({ votes24h: 0, evidence24h: 0, comments24h: 2 })).toBeGreaterThan(
      trendingScore({ votes24h: 1, evidence24h: 0, comments24h: 0 }),
    );
  });
  it("a claim without activity is not trending", () => {
    const quiet = { id: "a", votes24h: 0, evidence24h: 0, comments24h: 0 };
    const talked = { id: "b", votes24h: 0, evidence24h: 0, comments24h: 1 };
    expect(rankTrending([quiet, talked])).toEqual([talked]);
  });
  it("ranks by score, highest first, ties by claim id", () => {
    const c = (id: string, votes24h: number, evidence24h: number, comments24h: number) => ({ id, votes24h, evidence24h, comments24h });
    const ranked = rankTrending([c("d", 1, 0, 0), c("b", 0, 1, 0), c("c", 0, 0, 1), c("a", 1, 0, 0), c("e", 0, 0, 3)]);
    // scores: d 3, b 5, c 2, a 3, e 6
    expect(ranked.map((r) => r.id)).toEqual(["e", "b", "a", "d", "c"]);
  });
  it("the window is 24 hours", () => {
    expect(TRENDING_WINDOW_MS).toBe(86_400_000);
    expect(trendingWindowStart(new Date("2026-11-20T12:00:00.000Z")).toISOString()).toBe("2026-11-19T12:00:00.000Z");
  });
});
