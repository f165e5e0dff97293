import { describe, expect, it } from "vitest";
import { calibrationBin, trackRecord } from "~/server/domain/track-record";

describe("trackRecord", () => {
  it("no records: nothing scored, empty bins", () => {
    const t = trackRecord([]);
    expect(t.scored_votes).toBe(0);
    expect(t.brier_score).toBeNull();
    expect(t.peer_score).toBeNull();
    expect(t.calibration).toHaveLength(10);
    expect(t.calibration[0]).toEqual({ bin_lower: 0, bin_upper: 0.1, votes: 0, mean_value: null, outcome_rate: null });
  });

  it("Brier and peer scores by hand", () => {
    // value 0.9 on a true claim, crowd 0.6: own (0.1)² = 0.01, crowd (0.4)² = 0.16 → peer 0.15
    // value 0.2 on a false claim, crowd 0.5: own 0.04, crowd 0.25 → peer 0.21
    // value 0.7 on a false claim, crowd 0.1: own 0.49, crowd 0.01 → peer −0.48
    const t = trackRecord([
      { value: 0.9, crowdGradient: 0.6, consensusTrue: true },
      { value: 0.2, crowdGradient: 0.5, consensusTrue: false },
      { value: 0.7, crowdGradient: 0.1, consensusTrue: false },
    ]);
    expect(t.scored_votes).toBe(3);
    expect(t.brier_score).toBeCloseTo((0.01 + 0.04 + 0.49) / 3, 6);
    expect(t.peer_score).toBeCloseTo((0.15 + 0.21 - 0.48) / 3, 6);
  });

  it("records without a value are not scored", () => {
    const t = trackRecord([
      { value: null, crowdGradient: null, consensusTrue: true },
      { value: 1, crowdGradient: 0.5, consensusTrue: true },
    ]);
    expect(t.scored_votes).toBe(1);
    expect(t.brier_score).toBe(0);
    expect(t.peer_score).toBe(0.25);
  });

  it("calibration: ten bins of the vote value, 1.0 in the last", () => {
    expect(calibrationBin(0)).toBe(0);
    expect(calibrationBin(0.1)).toBe(1);
    expect(calibrationBin(0.3)).toBe(3);
    expect(calibrationBin(0.99)).toBe(9);
    expect(calibrationBin(1)).toBe(9);
    const t = trackRecord([
      { value: 0.95, crowdGradient: 0.5, consensusTrue: true },
      { value: 1, crowdGradient: 0.5, consensusTrue: false },
      { value: 0.05, crowdGradient: 0.5, consensusTrue: false },
    ]);
    expect(t.calibration[9]).toEqual({ bin_lower: 0.9, bin_upper: 1, votes: 2, mean_value: 0.975, outcome_rate: 0.5 });
    expect(t.calibration[0]).toMatchObject({ votes: 1, mean_value: 0.05, outcome_rate: 0 });
  });
});
