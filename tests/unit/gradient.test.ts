import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  applyVote,
  consensusDirection,
  crowdGradient,
  gradientFromSums,
  resolutionOutcome,
  voteWeight,
  type GradientSums,
  type WeightedVote,
} from "~/server/domain/gradient";

const EMPTY_SUMS: GradientSums = { weightedSum: 0, weightTotal: 0, voteCount: 0 };
const castVote = (sums: GradientSums, vote: WeightedVote) => applyVote(sums, null, vote);
const changeVote = (sums: GradientSums, previous: WeightedVote, next: WeightedVote) => applyVote(sums, previous, next);
const removeVote = (sums: GradientSums, previous: WeightedVote) => applyVote(sums, previous, null);
/** The oracle: the weighted mean recomputed from scratch. */
function recomputeGradient(votes: readonly WeightedVote[]): number {
  const weightTotal = votes.reduce((t, v) => t + v.weight, 0);
  if (votes.length === 0 || weightTotal <= 0) return 0.5;
  return Math.min(1, Math.max(0, votes.reduce((t, v) => t + v.weight * v.value, 0) / weightTotal));
}
/** At consensus, as the votes-alone rule sees it. */
const isAtConsensus = (gradient: number) => consensusDirection(gradient) !== null;

describe("voteWeight", () => {
  it("is at least 0.1, so a new agent's vote still counts", () => {
    expect(voteWeight(0)).toBe(0.1);
    expect(voteWeight(0.05)).toBe(0.1); // ln(1.05) ≈ 0.049
  });
  it("is ln(1 + reputation) above the floor", () => {
    expect(voteWeight(1)).toBeCloseTo(Math.LN2, 12);
    expect(voteWeight(99)).toBeCloseTo(Math.log(100), 12);
    expect(voteWeight(1000)).toBeCloseTo(Math.log(1001), 12);
  });
  it("treats negative or non-finite reputation as 0", () => {
    expect(voteWeight(-5)).toBe(0.1);
    expect(voteWeight(Number.NaN)).toBe(0.1);
  });
});

describe("running sums", () => {
  it("a new claim has gradient 0.5", () => {
    expect(gradientFromSums(EMPTY_SUMS)).toBe(0.5);
  });

  it("cast adds the vote and counts it", () => {
    const r = castVote(EMPTY_SUMS, { value: 0.9, weight: 2 });
    expect(r).toEqual({ weightedSum: 1.8, weightTotal: 2, voteCount: 1 });
    expect(gradientFromSums(r)).toBe(0.9);
  });

  it("change replaces the vote without changing the count", () => {
    const a = castVote(EMPTY_SUMS, { value: 1, weight: 1 });
    const b = castVote(a, { value: 0, weight: 1 });
    expect(gradientFromSums(b)).toBe(0.5);
    const r = changeVote(b, { value: 0, weight: 1 }, { value: 1, weight: 3 });
    expect(r.voteCount).toBe(2);
    expect(gradientFromSums(r)).toBe(1);
  });

  it("a changed vote uses the voter's new weight", () => {
    const a = castVote(EMPTY_SUMS, { value: 0, weight: 1 });
    const b = castVote(a, { value: 1, weight: 1 });
    const r = changeVote(b, { value: 1, weight: 1 }, { value: 1, weight: 3 });
    expect(gradientFromSums(r)).toBe(0.75);
  });

  it("removal takes the vote out and decrements the count", () => {
    const a = castVote(EMPTY_SUMS, { value: 0.2, weight: 1 });
    const b = castVote(a, { value: 1, weight: 1 });
    const r = removeVote(b, { value: 1, weight: 1 });
    expect(r.voteCount).toBe(1);
    expect(gradientFromSums(r)).toBe(0.2);
  });

  it("removing the last vote resets the sums to exactly 0 and the gradient to 0.5", () => {
    const a = castVote(EMPTY_SUMS, { value: 0.3, weight: 0.7 });
    const r = removeVote(a, { value: 0.3, weight: 0.7 });
    expect(r).toEqual({ weightedSum: 0, weightTotal: 0, voteCount: 0 });
    expect(gradientFromSums(r)).toBe(0.5);
  });

  it("applyVote: cast, change, removal and no-op", () => {
    const start = { weightedSum: 1, weightTotal: 2, voteCount: 1 };
    expect(applyVote(start, null, { value: 0.5, weight: 2 })).toEqual({ weightedSum: 2, weightTotal: 4, voteCount: 2 });
    expect(applyVote(start, { value: 0.5, weight: 2 }, { value: 1, weight: 1 })).toEqual({
      weightedSum: 1,
      weightTotal: 1,
      voteCount: 1,
    });
    expect(applyVote(start, null, null)).toEqual(start);
  });

  it("vote count never goes below 0", () => {
    expect(applyVote(EMPTY_SUMS, { value: 1, weight: 1 }, null)).toEqual(EMPTY_SUMS);
  });

  it("crowdGradient is the gradient of the other votes", () => {
    const mine = { value: 1, weight: 3 };
    const sums = castVote(castVote(EMPTY_SUMS, { value: 0.2, weight: 1 }), mine);
    expect(crowdGradient(sums, mine)).toBe(0.2);
    expect(crowdGradient(sums, null)).toBe(gradientFromSums(sums));
    expect(crowdGradient(castVote(EMPTY_SUMS, mine), mine)).toBe(0.5);
  });

  it("survives thousands of add/remove cycles: exactly 0.5 once every vote is gone", () => {
    const weights = [0.1, Math.log(2), Math.log(1.5), Math.log(101), Math.log(1234.5)];
    const values = [0.1, 0.7, 0.33, 0.9999, 0.123456789];
    let sums: GradientSums = EMPTY_SUMS;
    for (let cycle = 0; cycle < 2000; cycle++) {
      const votes = weights.map((w, i) => ({ weight: w, value: values[(i + cycle) % values.length] }));
      for (const v of votes) sums = castVote(sums, v);
      for (const v of votes.reverse()) sums = removeVote(sums, v);
    }
    expect(sums).toEqual({ weightedSum: 0, weightTotal: 0, voteCount: 0 });
    expect(gradientFromSums(sums)).toBe(0.5);
  });

  it("after thousands of cycles around one remaining vote, the gradient is exactly that vote's value", () => {
    let sums = castVote(EMPTY_SUMS, { value: 0.3, weight: Math.log(5) });
    for (let cycle = 0; cycle < 5000; cycle++) {
      const v = { value: (cycle % 97) / 96, weight: voteWeight(cycle * 1.37) };
      sums = castVote(sums, v);
      sums = removeVote(sums, v);
    }
    expect(sums.voteCount).toBe(1);
    expect(gradientFromSums(sums)).toBe(0.3);
  });

  it("property: running sums agree with a recomputation after any sequence of operations", () => {
    const op = fc.record({
      voter: fc.integer({ min: 0, max: 7 }),
      remove: fc.boolean(),
      value: fc.double({ min: 0, max: 1, noNaN: true }),
      reputation: fc.double({ min: 0, max: 5000, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const votes = new Map<number, WeightedVote>();
        let sums: GradientSums = EMPTY_SUMS;
        for (const o of ops) {
          const previous = votes.get(o.voter) ?? null;
          if (o.remove) {
            if (previous) sums = removeVote(sums, previous);
            votes.delete(o.voter);
          } else {
            const next = { value: o.value, weight: voteWeight(o.reputation) };
            sums = previous ? changeVote(sums, previous, next) : castVote(sums, next);
            votes.set(o.voter, next);
          }
        }
        expect(sums.voteCount).toBe(votes.size);
        const g = gradientFromSums(sums);
        expect(g).toBeGreaterThanOrEqual(0);
        expect(g).toBeLessThanOrEqual(1);
        expect(Math.abs(g - recomputeGradient([...votes.values()]))).toBeLessThan(1e-6);
        if (votes.size === 0) expect(g).toBe(0.5);
      }),
    );
  });
});

describe("gradientFromSums", () => {
  it("is 0.5 when the total weight is ~0", () => {
    expect(gradientFromSums({ weightedSum: 1e-15, weightTotal: 1e-15 })).toBe(0.5);
    expect(gradientFromSums({ weightedSum: 0, weightTotal: -1e-12, voteCount: 3 })).toBe(0.5);
  });
  it("clamps drift outside [0, 1]", () => {
    expect(gradientFromSums({ weightedSum: 2.0000001, weightTotal: 2, voteCount: 1 })).toBe(1);
    expect(gradientFromSums({ weightedSum: -1e-12, weightTotal: 2, voteCount: 1 })).toBe(0);
  });
  it("does not let float error make a mean of exactly 0.8 look like consensus", () => {
    const votes = [0.1, Math.log(2), Math.log(3.7), Math.log(11), 0.3].map((weight) => ({ weight, value: 0.8 }));
    let sums: GradientSums = EMPTY_SUMS;
    for (const v of votes) sums = castVote(sums, v);
    expect(gradientFromSums(sums)).toBe(0.8);
    expect(isAtConsensus(gradientFromSums(sums))).toBe(false);
  });
});

describe("consensus", () => {
  it("needs strictly more than 0.8 or strictly less than 0.2", () => {
    expect(isAtConsensus(0.8)).toBe(false);
    expect(isAtConsensus(0.2)).toBe(false);
    expect(isAtConsensus(0.5)).toBe(false);
    expect(isAtConsensus(0.800001)).toBe(true);
    expect(isAtConsensus(0.199999)).toBe(true);
    expect(isAtConsensus(1)).toBe(true);
    expect(isAtConsensus(0)).toBe(true);
  });
  it("has a direction only at consensus", () => {
    expect(consensusDirection(0.9)).toBe(true);
    expect(consensusDirection(0.1)).toBe(false);
    expect(consensusDirection(0.8)).toBeNull();
    expect(consensusDirection(0.2)).toBeNull();
  });
});

describe("resolutionOutcome", () => {
  it("true consensus: above 0.5 aligned, below opposed", () => {
    expect(resolutionOutcome(true, 0.51)).toBe("aligned");
    expect(resolutionOutcome(true, 1)).toBe("aligned");
    expect(resolutionOutcome(true, 0.49)).toBe("opposed");
    expect(resolutionOutcome(true, 0)).toBe("opposed");
  });
  it("false consensus: below 0.5 aligned, above opposed", () => {
    expect(resolutionOutcome(false, 0.49)).toBe("aligned");
    expect(resolutionOutcome(false, 0)).toBe("aligned");
    expect(resolutionOutcome(false, 0.51)).toBe("opposed");
    expect(resolutionOutcome(false, 1)).toBe("opposed");
  });
  it("a vote of exactly 0.5 is neutral either way", () => {
    expect(resolutionOutcome(true, 0.5)).toBe("neutral");
    expect(resolutionOutcome(false, 0.5)).toBe("neutral");
  });
});
