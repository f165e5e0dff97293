import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { learningScore, resolvedVotesFrom, type ResolvedVote } from "~/server/domain/learning";

const now = new Date("2026-11-20T12:00:00.000Z");
const DAY = 86_400_000;
const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
/** `correct` right and `wrong` wrong votes resolved `daysAgo` days ago. */
function votes(daysAgo: number, correct: number, wrong: number): ResolvedVote[] {
  return [
    ...Array.from({ length: correct }, () => ({ resolvedAt: at(daysAgo), correct: true })),
    ...Array.from({ length: wrong }, () => ({ resolvedAt: at(daysAgo), correct: false })),
  ];
}

describe("learningScore", () => {
  it("is 0.5 with no resolved votes, accuracy null", () => {
    const r = learningScore([], now);
    expect(r).toMatchObject({ score: 0.5, accuracy_rate: null, total_resolved_votes: 0, correct_resolved_votes: 0 });
    expect(r.insight).toMatch(/^No resolved votes yet/);
  });

  it("one window of data: consistency and trajectory are 0.5", () => {
    const r = learningScore(votes(5, 3, 1), now);
    expect(r.accuracy_rate).toBe(0.75);
    expect(r.total_resolved_votes).toBe(4);
    expect(r.correct_resolved_votes).toBe(3);
    expect(r.score).toBeCloseTo(0.5 * 0.75 + 0.25 * 0.5 + 0.25 * 0.5, 12);
    expect(r.insight).toMatch(/^Accurate: 75%/);
  });

  it("two windows: improving from 50% to 100%", () => {
    const r = learningScore([...votes(45, 1, 1), ...votes(10, 2, 0)], now);
    expect(r.accuracy_rate).toBe(0.75);
    // variance 0.0625 → consistency 0.75; slope 0.5 → trajectory 1
    expect(r.score).toBeCloseTo(0.375 + 0.25 * 0.75 + 0.25 * 1, 12);
    expect(r.insight).toBe("Improving: accuracy rose from 50% to 100% over recent 30-day windows.");
  });

  it("three windows: declining from 100% through 50% to 0%", () => {
    const r = learningScore([...votes(75, 1, 0), ...votes(45, 1, 1), ...votes(1, 0, 1)], now);
    expect(r.accuracy_rate).toBe(0.5);
    // variance 1/6 → consistency 1/3; slope −0.5 → trajectory 0
    expect(r.score).toBeCloseTo(0.25 + 0.25 / 3 + 0, 12);
    expect(r.insight).toMatch(/^Declining: accuracy fell from 100% to 0%/);
  });

  it("windows 0 and 2 without the middle are two steps apart", () => {
    const r = learningScore([...votes(80, 0, 1), ...votes(3, 1, 0)], now);
    // slope (1 − 0) / 2 = 0.5; variance 0.25 → consistency 0
    expect(r.score).toBeCloseTo(0.25 + 0 + 0.25 * 1, 12);
  });

  it("accuracy covers all resolved votes, windows only the last 90 days", () => {
    const r = learningScore([...votes(200, 0, 3), ...votes(5, 1, 0)], now);
    expect(r.accuracy_rate).toBe(0.25);
    expect(r.total_resolved_votes).toBe(4);
    // only one window has data → consistency and trajectory 0.5
    expect(r.score).toBeCloseTo(0.125 + 0.125 + 0.125, 12);
  });

  it("votes older than 90 days alone give neutral consistency and trajectory", () => {
    const r = learningScore([...votes(100, 1, 0), ...votes(150, 0, 1)], now);
    expect(r.score).toBeCloseTo(0.25 + 0.125 + 0.125, 12);
    expect(r.insight).toMatch(/^Mixed: 50%/);
  });

  it("exactly 30 days ago belongs to the older window", () => {
    const split = learningScore([{ resolvedAt: at(30), correct: false }, { resolvedAt: new Date(at(30).getTime() + 1), correct: true }], now);
    const same = learningScore([{ resolvedAt: new Date(at(30).getTime() + 2), correct: false }, { resolvedAt: new Date(at(30).getTime() + 1), correct: true }], now);
    expect(split.score).not.toBe(same.score);
    expect(same.score).toBeCloseTo(0.25 + 0.125 + 0.125, 12);
  });

  it("a resolution time slightly in the future counts in the newest window", () => {
    const r = learningScore([{ resolvedAt: new Date(now.getTime() + 5000), correct: true }, ...votes(40, 0, 1)], now);
    expect(r.insight).toMatch(/^Improving/);
  });

  it("accurate and consistent across three windows", () => {
    const r = learningScore([...votes(70, 4, 1), ...votes(40, 4, 1), ...votes(10, 4, 1)], now);
    expect(r.accuracy_rate).toBe(0.8);
    expect(r.score).toBeCloseTo(0.4 + 0.25 + 0.125, 12);
    expect(r.insight).toBe("Accurate and consistent: 80% of resolved votes matched the consensus.");
  });

  it("inconsistent when accuracy swings without a trend", () => {
    const r = learningScore([...votes(70, 0, 1), ...votes(40, 3, 0), ...votes(10, 0, 1)], now);
    expect(r.accuracy_rate).toBe(0.6);
    expect(r.insight).toMatch(/^Inconsistent/);
  });

  it("often against the consensus", () => {
    const r = learningScore(votes(3, 1, 3), now);
    expect(r.insight).toMatch(/^Often against the consensus: 25%/);
  });

  it("is clamped at 0", () => {
    const r = learningScore([...votes(40, 1, 0), ...votes(5, 0, 100)], now);
    expect(r.score).toBe(0);
  });

  it("a flat perfect record scores 0.875: a steady trajectory counts 0.5", () => {
    const perfect = learningScore([...votes(70, 2, 0), ...votes(40, 2, 0), ...votes(10, 2, 0)], now);
    expect(perfect.score).toBe(0.875);
    expect(perfect.insight).toBe("Accurate and consistent: 100% of resolved votes matched the consensus.");
  });

  it("property: the score is always within [0, 1] and the counts add up", () => {
    const vote = fc.record({
      daysAgo: fc.double({ min: -1, max: 200, noNaN: true }),
      correct: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(vote, { maxLength: 60 }), (vs) => {
        const r = learningScore(vs.map((v) => ({ resolvedAt: at(v.daysAgo), correct: v.correct })), now);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(1);
        expect(r.total_resolved_votes).toBe(vs.length);
        expect(r.correct_resolved_votes).toBe(vs.filter((v) => v.correct).length);
        expect(r.insight.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("resolvedVotesFrom (outcome records → resolved votes)", () => {
  it("keeps aligned (correct) and opposed (incorrect) records, drops neutral ones", () => {
    const records = [
      { outcome: "aligned" as const, resolvedAt: at(1), tags: ["a"] },
      { outcome: "opposed" as const, resolvedAt: at(40), tags: [] },
      { outcome: "neutral" as const, resolvedAt: at(2), tags: ["a"] },
    ];
    expect(resolvedVotesFrom(records)).toEqual([
      { resolvedAt: at(1), correct: true },
      { resolvedAt: at(40), correct: false },
    ]);
    expect(learningScore(resolvedVotesFrom(records), now)).toMatchObject({ total_resolved_votes: 2, correct_resolved_votes: 1, accuracy_rate: 0.5 });
    expect(learningScore(resolvedVotesFrom([records[2]]), now)).toMatchObject({ score: 0.5, total_resolved_votes: 0 });
  });
});
