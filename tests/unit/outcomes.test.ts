import { describe, expect, it } from "vitest";
import { isResolvedVote, outcomeRecord } from "~/server/domain/outcomes";

describe("outcomeRecord", () => {
  it("true consensus: a high vote is aligned, a low one opposed, 0.5 neutral; the crowd at cast is kept", () => {
    expect(outcomeRecord({ value: 0.9 }, 0.6, 0.85)).toEqual({
      value: 0.9,
      crowdGradient: 0.6,
      crowdBasis: "cast",
      resolutionGradient: 0.85,
      consensusTrue: true,
      outcome: "aligned",
    });
    expect(outcomeRecord({ value: 0.1 }, 0.5, 0.85)).toMatchObject({ consensusTrue: true, outcome: "opposed" });
    expect(outcomeRecord({ value: 0.5 }, 0.5, 0.85)).toMatchObject({ outcome: "neutral" });
  });

  it("false consensus: low votes are aligned", () => {
    expect(outcomeRecord({ value: 0.05 }, 0.3, 0.1)).toMatchObject({ consensusTrue: false, outcome: "aligned" });
    expect(outcomeRecord({ value: 0.7 }, 0.3, 0.1)).toMatchObject({ consensusTrue: false, outcome: "opposed" });
  });

  it("a vote without a crowd at cast is compared with the crowd at resolution, and says so", () => {
    expect(outcomeRecord({ value: 0.9 }, null, 0.85)).toMatchObject({ crowdGradient: 0.85, crowdBasis: "resolution" });
  });

  it("refuses a gradient that is not at consensus (nothing resolves there)", () => {
    expect(() => outcomeRecord({ value: 0.9 }, 0.5, 0.8)).toThrow(/not at consensus/);
  });
});

describe("isResolvedVote", () => {
  it("aligned and opposed are resolved votes, neutral is not", () => {
    expect([isResolvedVote("aligned"), isResolvedVote("opposed"), isResolvedVote("neutral")]).toEqual([true, true, false]);
  });
});
