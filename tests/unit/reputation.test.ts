import { describe, expect, it } from "vitest";
import {
  applyEvents,
  evidenceTallyDelta,
  evidenceVoteDelta,
  resolutionChange,
  tierFor,
} from "~/server/domain/reputation";

describe("tierFor", () => {
  it.each([
    [0, "new"],
    [99.99, "new"],
    [100, "established"],
    [999.99, "established"],
    [1000, "trusted"],
    [123456, "trusted"],
  ] as const)("%s → %s", (score, tier) => {
    expect(tierFor(score)).toBe(tier);
  });

  it("follows the score back down", () => {
    const down = applyEvents(100, [{ reason: "vote_opposed", delta: -0.5 }]);
    expect(tierFor(down.score)).toBe("new");
    const down2 = applyEvents(1000, [{ reason: "evidence_downvoted", delta: -3 }]);
    expect(tierFor(down2.score)).toBe("established");
  });
});

describe("evidenceVoteDelta", () => {
  it("new votes: up +5, down −3", () => {
    expect(evidenceVoteDelta(null, "up")).toEqual([{ reason: "evidence_upvoted", delta: 5 }]);
    expect(evidenceVoteDelta(null, "down")).toEqual([{ reason: "evidence_downvoted", delta: -3 }]);
  });
  it("removal reverses the old effect", () => {
    expect(evidenceVoteDelta("up", null)).toEqual([{ reason: "evidence_vote_removed", delta: -5 }]);
    expect(evidenceVoteDelta("down", null)).toEqual([{ reason: "evidence_vote_removed", delta: 3 }]);
  });
  it("a change reverses the old effect, then applies the new one", () => {
    expect(evidenceVoteDelta("up", "down")).toEqual([
      { reason: "evidence_vote_removed", delta: -5 },
      { reason: "evidence_downvoted", delta: -3 },
    ]);
    expect(evidenceVoteDelta("down", "up")).toEqual([
      { reason: "evidence_vote_removed", delta: 3 },
      { reason: "evidence_upvoted", delta: 5 },
    ]);
  });
  it("the same direction again, or nothing to nothing, changes nothing", () => {
    expect(evidenceVoteDelta("up", "up")).toEqual([]);
    expect(evidenceVoteDelta("down", "down")).toEqual([]);
    expect(evidenceVoteDelta(null, null)).toEqual([]);
  });
  it("reverses the amount actually applied when given", () => {
    // the downvote hit an author at 1 and only took 1 away
    expect(evidenceVoteDelta("down", null, -1)).toEqual([{ reason: "evidence_vote_removed", delta: 1 }]);
    expect(evidenceVoteDelta("down", "up", 0)).toEqual([
      { reason: "evidence_vote_removed", delta: 0 },
      { reason: "evidence_upvoted", delta: 5 },
    ]);
  });
});

describe("applyEvents: one change", () => {
  const one = (score: number, delta: number) => {
    const r = applyEvents(score, [{ reason: "evidence_downvoted", delta }]);
    return { score: r.score, appliedDelta: r.events[0].delta };
  };
  it("adds within range", () => {
    expect(one(10, 5)).toEqual({ score: 15, appliedDelta: 5 });
    expect(one(10, -3)).toEqual({ score: 7, appliedDelta: -3 });
    expect(one(1, -0.5)).toEqual({ score: 0.5, appliedDelta: -0.5 });
  });
  it("never goes below 0 and reports what was really applied", () => {
    expect(one(2, -3)).toEqual({ score: 0, appliedDelta: -2 });
    expect(one(0, -3)).toEqual({ score: 0, appliedDelta: 0 });
    expect(one(0.5, -0.5)).toEqual({ score: 0, appliedDelta: -0.5 });
  });
});

describe("evidenceTallyDelta", () => {
  it.each([
    [null, "up", { upvotes: 1, downvotes: 0, voteScore: 1 }],
    [null, "down", { upvotes: 0, downvotes: 1, voteScore: -1 }],
    ["up", "down", { upvotes: -1, downvotes: 1, voteScore: -2 }],
    ["down", "up", { upvotes: 1, downvotes: -1, voteScore: 2 }],
    ["up", null, { upvotes: -1, downvotes: 0, voteScore: -1 }],
    ["down", null, { upvotes: 0, downvotes: -1, voteScore: 1 }],
    ["up", "up", { upvotes: 0, downvotes: 0, voteScore: 0 }],
  ] as const)("%s → %s", (previous, next, expected) => {
    expect(evidenceTallyDelta(previous, next)).toEqual(expected);
  });
});

describe("applyEvents", () => {
  it("clamps each step and records the applied delta and resulting score", () => {
    // author at 4 with an upvote (9) whose voter switches to down
    const r = applyEvents(9, evidenceVoteDelta("up", "down"));
    expect(r.score).toBe(1);
    expect(r.events).toEqual([
      { reason: "evidence_vote_removed", delta: -5, reputation_score: 4 },
      { reason: "evidence_downvoted", delta: -3, reputation_score: 1 },
    ]);
  });
  it("clamping at 0 mid-way", () => {
    const r = applyEvents(3, evidenceVoteDelta("up", "down"));
    expect(r.score).toBe(0);
    expect(r.events).toEqual([
      { reason: "evidence_vote_removed", delta: -3, reputation_score: 0 },
      { reason: "evidence_downvoted", delta: 0, reputation_score: 0 },
    ]);
  });
  it("down then remove with the applied delta leaves an author at 0 at 0", () => {
    const down = applyEvents(0, evidenceVoteDelta(null, "down"));
    expect(down.events[0].delta).toBe(0);
    const removed = applyEvents(down.score, evidenceVoteDelta("down", null, down.events[0].delta));
    expect(removed.score).toBe(0);
  });
  it("up then remove returns to the start", () => {
    const up = applyEvents(12, evidenceVoteDelta(null, "up"));
    const removed = applyEvents(up.score, evidenceVoteDelta("up", null));
    expect(removed.score).toBe(12);
  });
  it("no changes, no events", () => {
    expect(applyEvents(7, [])).toEqual({ score: 7, events: [] });
  });
});

describe("resolutionChange", () => {
  it("aligned +1, opposed −0.5, neutral nothing", () => {
    expect(resolutionChange("aligned")).toEqual({ reason: "vote_aligned", delta: 1 });
    expect(resolutionChange("opposed")).toEqual({ reason: "vote_opposed", delta: -0.5 });
    expect(resolutionChange("neutral")).toBeNull();
  });
  it("an opposed vote cannot push reputation below 0", () => {
    const r = applyEvents(0.25, [resolutionChange("opposed")!]);
    expect(r).toEqual({ score: 0, events: [{ reason: "vote_opposed", delta: -0.25, reputation_score: 0 }] });
  });
});
