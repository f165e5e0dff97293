import { describe, expect, it } from "vitest";
import { isResolvedVote, outcomeRecord } from "~/server/domain/outcomes";

describe("outcomeRecord", () => {
  it("true consensus: a high vote is aligned, a low one opposed, 0.5 neutral; the crowd at cast is kept", () => {
    expect(outcomeRecord({ value: 0.9, crowdAtCast: 0.6, resolutionGradient: 0.85, consensusTrue: true })).toEqual({
      value: 0.9,
      crowdGradient: 0.6,
      crowdBasis: "cast",
      resolutionGradient: 0.85,
      consensusTrue: true,
      outcome: "aligned",
    });
    expect(outcomeRecord({ value: 0.1, crowdAtCast: 0.5, resolutionGradient: 0.85, consensusTrue: true })).toMatchObject({ consensusTrue: true, outcome: "opposed" });
    expect(outcomeRecord({ value: 0.5, crowdAtCast: 0.5, resolutionGradient: 0.85, consensusTrue: true })).toMatchObject({ outcome: "neutral" });
  });

  it("false consensus: low votes are aligned", () => {
    expect(outcomeRecord({ value: 0.05, crowdAtCast: 0.3, resolutionGradient: 0.1, consensusTrue: false })).toMatchObject({ consensusTrue: false, outcome: "aligned" });
    expect(outcomeRecord({ value: 0.7, crowdAtCast: 0.3, resolutionGradient: 0.1, consensusTrue: false })).toMatchObject({ consensusTrue: false, outcome: "opposed" });
  });

  it("a vote without a crowd at cast is compared with the crowd at resolution, and says so", () => {
    expect(outcomeRecord({ value: 0.9, crowdAtCast: null, resolutionGradient: 0.85, consensusTrue: true })).toMatchObject({ crowdGradient: 0.85, crowdBasis: "resolution" });
  });

  it("takes the direction from the consensus status, not the gradient (a consensus by viewpoints may stand at 0.7)", () => {
    expect(outcomeRecord({ value: 0.9, crowdAtCast: 0.5, resolutionGradient: 0.7, consensusTrue: true })).toMatchObject({ resolutionGradient: 0.7, consensusTrue: true, outcome: "aligned" });
    expect(outcomeRecord({ value: 0.9, crowdAtCast: 0.5, resolutionGradient: 0.3, consensusTrue: false })).toMatchObject({ resolutionGradient: 0.3, consensusTrue: false, outcome: "opposed" });
  });
});

describe("isResolvedVote", () => {
  it("aligned and opposed are resolved votes, neutral is not", () => {
    expect([isResolvedVote("aligned"), isResolvedVote("opposed"), isResolvedVote("neutral")]).toEqual([true, true, false]);
  });
});
