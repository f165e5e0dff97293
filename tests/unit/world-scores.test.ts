// The world scores' formulas (docs/features/checks.md#scores), exact on known values and as properties:
// Brier and log agree on who is better, peer is zero against oneself, reliability bins count every vote.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { binOf, brierOf, logOf, peerOf, reliability, withOthersMean, worldRecord } from "../../server/domain/world-scores.ts";

describe("world scores", () => {
  it("score known votes exactly", () => {
    expect(brierOf(0.9, 1)).toBeCloseTo(0.01, 15);
    expect(brierOf(0.9, 0)).toBeCloseTo(0.81, 15);
    expect(logOf(0.9, 1)).toBeCloseTo(Math.log(0.9), 15);
    expect(logOf(0.9, 0)).toBeCloseTo(Math.log(0.1), 15);
    // A certain vote that is wrong is clipped, not −∞.
    expect(logOf(1, 0)).toBeCloseTo(Math.log(0.001), 15);
    expect(peerOf(0.9, 0.4, 1)).toBeCloseTo(0.35, 15);
    expect(binOf(0)).toBe(0);
    expect(binOf(0.95)).toBe(9);
    expect(binOf(1)).toBe(9);
  });

  it("the others' mean leaves the vote itself out, and a lone vote has none", () => {
    const votes = withOthersMean([
      { claimId: "a", value: 0.9 },
      { claimId: "a", value: 0.6 },
      { claimId: "a", value: 0.2 },
      { claimId: "b", value: 0.5 },
    ]);
    expect(votes[0].othersMean).toBeCloseTo(0.4, 15);
    expect(votes[3].othersMean).toBeNull();
  });

  const vote = fc.record({ value: fc.double({ min: 0, max: 1, noNaN: true }), outcome: fc.constantFrom<0 | 1>(0, 1) });

  it("a record is the mean of its votes' scores, and its bins count every vote", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ value: vote, othersMean: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }) }), { minLength: 1, maxLength: 30 }), (rows) => {
        const votes = rows.map((r) => ({ value: r.value.value, outcome: r.value.outcome, othersMean: r.othersMean }));
        const record = worldRecord(votes);
        expect(record.scored).toBe(votes.length);
        expect(record.brier!).toBeCloseTo(votes.reduce((s, v) => s + (v.value - v.outcome) ** 2, 0) / votes.length, 9);
        const peers = votes.filter((v) => v.othersMean !== null);
        if (peers.length === 0) expect(record.peer).toBeNull();
        else expect(record.peer!).toBeCloseTo(peers.reduce((s, v) => s + ((v.othersMean! - v.outcome) ** 2 - (v.value - v.outcome) ** 2), 0) / peers.length, 9);
        expect(record.calibration.reduce((s, b) => s + b.n, 0)).toBe(votes.length);
      }),
    );
  });

  it("peer is zero against a crowd that voted the same, and the reliability of one bin is its mean", () => {
    fc.assert(
      fc.property(vote, ({ value, outcome }) => {
        expect(peerOf(value, value, outcome)).toBe(0);
        const [bin] = reliability([{ p: value, outcome }]).filter((b) => b.n > 0);
        expect(bin).toEqual({ bin: binOf(value), predicted: value, observed: outcome, n: 1 });
      }),
    );
  });
});
