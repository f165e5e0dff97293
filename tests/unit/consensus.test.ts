import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  applyToHistogram,
  consensusVerdict,
  decidedBy,
  EMPTY_HISTOGRAM,
  histogramBin,
  resolutionDue,
  statusSince,
  type BridgingStatusName,
} from "~/server/domain/consensus";

const BRIDGING: BridgingStatusName[] = ["insufficient_data", "bridged_true", "bridged_false", "divided", "undecided"];

describe("consensusVerdict, in the rule's order", () => {
  it("no votes, whatever else", () => {
    for (const b of BRIDGING) expect(consensusVerdict({ voters: 0, bridgingStatus: b, gradient: 0.95 })).toEqual({ status: "no_votes", decidedBy: null });
  });
  it("1–4 voters are too few, even unanimous and even bridged", () => {
    for (const voters of [1, 4]) {
      for (const b of BRIDGING) {
        expect(consensusVerdict({ voters, bridgingStatus: b, gradient: 0.95 })).toEqual({ status: "too_few_votes", decidedBy: null });
      }
    }
  });
  it("from 5 voters the bridging model decides when it has enough data, whatever the gradient", () => {
    expect(consensusVerdict({ voters: 5, bridgingStatus: "bridged_true", gradient: 0.7 })).toEqual({ status: "consensus_true", decidedBy: "viewpoints" });
    expect(consensusVerdict({ voters: 5, bridgingStatus: "bridged_false", gradient: 0.3 })).toEqual({ status: "consensus_false", decidedBy: "viewpoints" });
    // One camp carried the plain mean to 0.85 over the other's objection: divided, not true.
    expect(consensusVerdict({ voters: 20, bridgingStatus: "divided", gradient: 0.85 })).toEqual({ status: "divided", decidedBy: null });
    expect(consensusVerdict({ voters: 20, bridgingStatus: "undecided", gradient: 0.95 })).toEqual({ status: "open", decidedBy: null });
  });
  it("without bridging data the gradient alone decides, strictly beyond 0.8 and 0.2", () => {
    const votes = (gradient: number) => consensusVerdict({ voters: 5, bridgingStatus: "insufficient_data", gradient });
    expect(votes(0.81)).toEqual({ status: "consensus_true", decidedBy: "votes" });
    expect(votes(0.19)).toEqual({ status: "consensus_false", decidedBy: "votes" });
    expect(votes(0.8)).toEqual({ status: "open", decidedBy: null });
    expect(votes(0.2)).toEqual({ status: "open", decidedBy: null });
    expect(votes(0.5)).toEqual({ status: "open", decidedBy: null });
  });
  it("decidedBy of a stored status agrees with the verdict", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.constantFrom(...BRIDGING), fc.double({ min: 0, max: 1, noNaN: true }), (voters, b, gradient) => {
        const v = consensusVerdict({ voters, bridgingStatus: b, gradient });
        expect(decidedBy(v.status, b)).toBe(v.decidedBy);
      }),
    );
  });
});

describe("histogram", () => {
  it("bins [0,0.1) … [0.9,1.0], lower edges inclusive, 1.0 in the last bin", () => {
    expect([0, 0.0999, 0.1, 0.3, 0.1 * 3, 0.7, 0.5, 0.8999, 0.9, 1].map(histogramBin)).toEqual([0, 0, 1, 3, 3, 7, 5, 8, 9, 9]);
  });
  it("cast, change and removal keep it equal to the votes' bins (sums to the vote count)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.option(fc.double({ min: 0, max: 1, noNaN: true }))), { maxLength: 60 }), (ops) => {
        const votes = new Map<number, number>();
        let h: number[] = [...EMPTY_HISTOGRAM];
        for (const [agent, value] of ops) {
          h = applyToHistogram(h, votes.get(agent) ?? null, value);
          if (value === null) votes.delete(agent);
          else votes.set(agent, value);
        }
        const expected = [...EMPTY_HISTOGRAM];
        for (const v of votes.values()) expected[histogramBin(v)]++;
        expect(h).toEqual(expected);
        expect(h.reduce((a, b) => a + b, 0)).toBe(votes.size);
      }),
    );
  });
});

describe("statusSince", () => {
  const t0 = new Date("2026-01-01T00:00:00Z");
  const t1 = new Date("2026-01-01T01:00:00Z");
  it("keeps the start while the status holds, starts anew when it changes, and is null without votes", () => {
    expect(statusSince({ status: "open", since: t0 }, "open", t1)).toBe(t0);
    expect(statusSince({ status: "open", since: t0 }, "consensus_true", t1)).toBe(t1);
    expect(statusSince({ status: "open", since: t0 }, "no_votes", t1)).toBeNull();
    expect(statusSince({ status: "no_votes", since: null }, "too_few_votes", t1)).toBe(t1);
  });
});

describe("resolutionDue", () => {
  const since = new Date("2026-01-01T00:00:00Z");
  const at = (seconds: number) => new Date(since.getTime() + seconds * 1000);
  const claim = { status: "consensus_true" as const, since, voters: 10, resolved: false };
  it("after the stable time, not before", () => {
    expect(resolutionDue(claim, at(1799), 1800)).toBe(false);
    expect(resolutionDue(claim, at(1800), 1800)).toBe(true);
    expect(resolutionDue({ ...claim, status: "consensus_false" }, at(1800), 1800)).toBe(true);
  });
  it("at once with 0", () => {
    expect(resolutionDue(claim, since, 0)).toBe(true);
  });
  it("needs 10 voters, a consensus, and no earlier resolution", () => {
    expect(resolutionDue({ ...claim, voters: 9 }, at(5000), 1800)).toBe(false);
    expect(resolutionDue({ ...claim, status: "divided" }, at(5000), 1800)).toBe(false);
    expect(resolutionDue({ ...claim, status: "open" }, at(5000), 1800)).toBe(false);
    expect(resolutionDue({ ...claim, resolved: true }, at(5000), 1800)).toBe(false);
  });
});
