// The standing rule and the claim's counts as votes move between them (server/domain/standing.ts,
// server/domain/consensus.ts applyToTally; docs/features/consensus.md#standing).
import { describe, expect, it } from "vitest";
import { OPEN_RULE, sameVerdict, standingOf, voteClass, type StandingFacts, type StandingRule } from "../../server/domain/standing.ts";
import { applyToTally, EMPTY_HISTOGRAM, tallyVerdict, type ClaimTally, type SortedVote } from "../../server/domain/consensus.ts";

const DEFAULTS: StandingRule = { minAgeSeconds: 86_400, minVotes: 5, requireVerified: true };
const NOW = new Date("2026-11-28T12:00:00.000Z");
const DAY = 86_400_000;
const facts = (over: Partial<StandingFacts> = {}): StandingFacts => ({
  automated: false,
  suspendedAt: null,
  suspendedUntil: null,
  verified: true,
  createdAt: new Date(NOW.getTime() - 2 * DAY),
  votes: 5,
  ...over,
});

describe("standingOf", () => {
  it("gives standing to a verified person two days old with five votes, and to nobody missing one of them", () => {
    expect(standingOf(facts(), DEFAULTS, NOW)).toEqual({ standing: true, shortfalls: [], gainsAt: null });
    expect(standingOf(facts({ automated: true }), DEFAULTS, NOW).shortfalls).toEqual(["automated"]);
    expect(standingOf(facts({ verified: false }), DEFAULTS, NOW).shortfalls).toEqual(["unverified"]);
    expect(standingOf(facts({ votes: 4 }), DEFAULTS, NOW).shortfalls).toEqual(["too_few_votes"]);
    expect(standingOf(facts({ suspendedAt: NOW }), DEFAULTS, NOW).shortfalls).toEqual(["suspended"]);
    // A suspension that has ended is none.
    expect(standingOf(facts({ suspendedAt: new Date(NOW.getTime() - DAY), suspendedUntil: new Date(NOW.getTime() - 1) }), DEFAULTS, NOW).standing).toBe(true);
  });

  it("says when time alone gives it standing: the age reached, a timed suspension over — never when anything else is missing", () => {
    const young = facts({ createdAt: new Date(NOW.getTime() - 3_600_000) });
    expect(standingOf(young, DEFAULTS, NOW)).toEqual({ standing: false, shortfalls: ["too_new"], gainsAt: new Date(NOW.getTime() - 3_600_000 + DAY) });
    const until = new Date(NOW.getTime() + 2 * DAY);
    expect(standingOf(facts({ suspendedAt: NOW, suspendedUntil: until }), DEFAULTS, NOW).gainsAt).toEqual(until);
    // Both: the later of the two.
    expect(standingOf({ ...young, suspendedAt: NOW, suspendedUntil: new Date(NOW.getTime() + 60_000) }, DEFAULTS, NOW).gainsAt).toEqual(
      new Date(NOW.getTime() - 3_600_000 + DAY),
    );
    expect(standingOf({ ...young, votes: 4 }, DEFAULTS, NOW).gainsAt).toBeNull();
    expect(standingOf({ ...young, verified: false }, DEFAULTS, NOW).gainsAt).toBeNull();
    expect(standingOf(facts({ suspendedAt: NOW }), DEFAULTS, NOW).gainsAt).toBeNull();
  });

  it("under the open rule, gives every account that is neither automated nor suspended standing", () => {
    const newborn = facts({ verified: false, createdAt: NOW, votes: 0 });
    expect(standingOf(newborn, OPEN_RULE, NOW).standing).toBe(true);
    expect(standingOf({ ...newborn, automated: true }, OPEN_RULE, NOW).standing).toBe(false);
    expect(standingOf({ ...newborn, suspendedAt: NOW }, OPEN_RULE, NOW).standing).toBe(false);
  });

  it("compares a stored verdict with a fresh one, its time included", () => {
    const fresh = standingOf(facts({ createdAt: NOW }), DEFAULTS, NOW);
    expect(sameVerdict({ standing: false, gainsAt: fresh.gainsAt }, fresh)).toBe(true);
    expect(sameVerdict({ standing: false, gainsAt: null }, fresh)).toBe(false);
    expect(sameVerdict({ standing: true, gainsAt: null }, standingOf(facts(), DEFAULTS, NOW))).toBe(true);
  });

  it("never sorts an automated account's vote as counted", () => {
    expect(voteClass({ automated: true, standing: true })).toEqual({ automated: true, counted: false });
    expect(voteClass({ automated: false, standing: true })).toEqual({ automated: false, counted: true });
  });
});

describe("applyToTally", () => {
  const empty: ClaimTally = {
    all: { weightedSum: 0, weightTotal: 0, voteCount: 0 },
    people: { weightedSum: 0, weightTotal: 0, voteCount: 0 },
    counted: { weightedSum: 0, weightTotal: 0, voteCount: 0 },
    countedHistogram: [...EMPTY_HISTOGRAM],
    agentsHistogram: [...EMPTY_HISTOGRAM],
  };
  const vote = (value: number, cls: Partial<SortedVote> = {}): SortedVote => ({ value, weight: 0.1, automated: false, counted: true, ...cls });

  it("puts each vote in every count it belongs to, and a re-sort moves it between them only", () => {
    let t = applyToTally(empty, null, vote(0.05));
    t = applyToTally(t, null, vote(0.95, { counted: false }));
    t = applyToTally(t, null, vote(1, { automated: true, counted: false }));
    expect(t.all.voteCount).toBe(3);
    expect(t.people.voteCount).toBe(2);
    expect(t.counted).toEqual({ weightedSum: 0.1 * 0.05, weightTotal: 0.1, voteCount: 1 });
    expect(t.countedHistogram).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(t.agentsHistogram).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    // The uncounted person gains standing: the vote moves into the counted votes, nothing else moves.
    const moved = applyToTally(t, vote(0.95, { counted: false }), vote(0.95));
    expect(moved.all).toEqual(t.all);
    expect(moved.people).toEqual(t.people);
    expect(moved.counted.voteCount).toBe(2);
    expect(moved.countedHistogram).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it("decides the status from the counted votes alone", () => {
    let t = empty;
    for (let i = 0; i < 6; i++) t = applyToTally(t, null, vote(0.05));
    for (let i = 0; i < 30; i++) t = applyToTally(t, null, vote(1, { counted: false, automated: i % 2 === 0 }));
    expect(tallyVerdict(t, "insufficient_data")).toEqual({ status: "consensus_false", decidedBy: "votes" });
  });
});
