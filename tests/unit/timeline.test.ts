import { describe, expect, it } from "vitest";
import { fillTimeline, timelineDays, timelineStart } from "~/server/domain/timeline";

const now = new Date("2026-03-02T00:30:00.000Z");

describe("timelineDays", () => {
  it("has days + 1 points, oldest first, ending today (UTC)", () => {
    const d7 = timelineDays("7d", now);
    expect(d7).toHaveLength(8);
    expect(d7[0]).toBe("2026-02-23");
    expect(d7[7]).toBe("2026-03-02");
    expect(timelineDays("30d", now)).toHaveLength(31);
    expect(timelineDays("90d", now)).toHaveLength(91);
  });

  it("crosses month ends correctly (2026 is not a leap year)", () => {
    expect(timelineDays("7d", now)).toEqual([
      "2026-02-23",
      "2026-02-24",
      "2026-02-25",
      "2026-02-26",
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
  });

  it("uses the UTC day, not the local one", () => {
    const lateUtc = new Date("2026-03-01T23:59:59.999Z");
    expect(timelineDays("7d", lateUtc).at(-1)).toBe("2026-03-01");
  });

  it("has distinct, increasing days", () => {
    const d = timelineDays("90d", now);
    expect(new Set(d).size).toBe(d.length);
    expect([...d].sort()).toEqual(d);
  });

  it("starts at midnight UTC of the first day", () => {
    expect(timelineStart("7d", now).toISOString()).toBe("2026-02-23T00:00:00.000Z");
    expect(timelineStart("30d", now).toISOString()).toBe("2026-01-31T00:00:00.000Z");
  });
});

describe("fillTimeline", () => {
  const days = timelineDays("7d", now);

  it("fills missing days with zeros", () => {
    const points = fillTimeline(days, []);
    expect(points).toHaveLength(8);
    expect(points[0]).toEqual({ date: "2026-02-23", claims: 0, evidence: 0, votes: 0, comments: 0 });
  });

  it("places rows on their day and adds rows of the same day", () => {
    const points = fillTimeline(days, [
      { date: "2026-02-25", claims: 2 },
      { date: "2026-02-25", votes: 3n },
      { date: new Date("2026-03-02T00:10:00.000Z"), comments: 1, evidence: 4 },
    ]);
    expect(points[2]).toEqual({ date: "2026-02-25", claims: 2, evidence: 0, votes: 3, comments: 0 });
    expect(points[7]).toEqual({ date: "2026-03-02", claims: 0, evidence: 4, votes: 0, comments: 1 });
    expect(points.reduce((s, p) => s + p.claims + p.evidence + p.votes + p.comments, 0)).toBe(10);
  });

  it("ignores rows outside the period", () => {
    const points = fillTimeline(days, [{ date: "2026-02-22", claims: 9 }, { date: "2026-03-03", votes: 9 }]);
    expect(points.every((p) => p.claims === 0 && p.votes === 0)).toBe(true);
  });

  it("accepts a full timestamp string as the date", () => {
    const points = fillTimeline(days, [{ date: "2026-02-24T00:00:00.000Z", claims: 1 }]);
    expect(points[1].claims).toBe(1);
  });

  it("days are UTC dates formatted YYYY-MM-DD", () => {
    const points = fillTimeline(["2026-11-05"], [{ date: new Date("2026-11-05T23:00:00.000Z"), claims: 2 }]);
    expect(points[0]).toMatchObject({ date: "2026-11-05", claims: 2 });
  });
});
