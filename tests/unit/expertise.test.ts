import { describe, expect, it } from "vitest";
import { outcomeEngagement, rankExpertise, type TagEngagement } from "~/server/domain/expertise";

const row = (tag: string, engagement_count: number, resolved = 0, correct = 0): TagEngagement => ({
  tag,
  engagement_count,
  resolved,
  correct,
});

describe("rankExpertise", () => {
  it("needs at least 3 engagements", () => {
    expect(rankExpertise([row("a", 2), row("b", 3)])).toEqual([{ tag: "b", engagement_count: 3, accuracy: null }]);
  });

  it("keeps the top 5 by engagement", () => {
    const r = rankExpertise([row("a", 3), row("b", 9), row("c", 4), row("d", 8), row("e", 5), row("f", 7), row("g", 6)]);
    expect(r.map((x) => x.tag)).toEqual(["b", "d", "f", "g", "e"]);
  });

  it("breaks engagement ties by accuracy, with no accuracy last", () => {
    const r = rankExpertise([row("none", 5), row("zero", 5, 2, 0), row("half", 5, 2, 1), row("full", 5, 1, 1)]);
    expect(r).toEqual([
      { tag: "full", engagement_count: 5, accuracy: 1 },
      { tag: "half", engagement_count: 5, accuracy: 0.5 },
      { tag: "zero", engagement_count: 5, accuracy: 0 },
      { tag: "none", engagement_count: 5, accuracy: null },
    ]);
  });

  it("then by tag ascending", () => {
    const r = rankExpertise([row("beta", 4, 1, 1), row("alpha", 4, 2, 2), row("Zeta", 4, 1, 1), row("gamma", 4)]);
    expect(r.map((x) => x.tag)).toEqual(["Zeta", "alpha", "beta", "gamma"]);
  });

  it("sums rows that repeat a tag", () => {
    const r = rankExpertise([row("a", 1, 1, 1), row("a", 1), row("a", 1, 1, 0)]);
    expect(r).toEqual([{ tag: "a", engagement_count: 3, accuracy: 0.5 }]);
  });

  it("is empty for no engagement and does not mutate its input", () => {
    expect(rankExpertise([])).toEqual([]);
    const input = [row("a", 3, 1, 1), row("a", 3)];
    rankExpertise(input);
    expect(input[0]).toEqual(row("a", 3, 1, 1));
  });
});

describe("outcomeEngagement (outcome records → engagement and accuracy per tag)", () => {
  const record = (outcome: "aligned" | "opposed" | "neutral", tags: string[]) => ({ outcome, resolvedAt: new Date(0), tags });

  it("counts each record once per tag, as a resolved vote unless neutral, correct when aligned", () => {
    expect(outcomeEngagement([record("aligned", ["a", "b", "a"]), record("opposed", ["a"]), record("neutral", ["b"])])).toEqual([
      row("a", 1, 1, 1),
      row("b", 1, 1, 1),
      row("a", 1, 1, 0),
      row("b", 1, 0, 0),
    ]);
  });

  it("feeds rankExpertise: records and the other engagement add up per tag", () => {
    const ranked = rankExpertise([row("a", 1), ...outcomeEngagement([record("aligned", ["a"]), record("opposed", ["a"]), record("neutral", ["a"])])]);
    expect(ranked).toEqual([{ tag: "a", engagement_count: 4, accuracy: 0.5 }]);
  });
});
