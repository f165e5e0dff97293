import { describe, expect, it } from "vitest";
import { thinStepPoints, timeAxis } from "../../server/domain/chart-points.ts";

const at = (minute: number, gradient: number) => ({ recorded_at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(), gradient });

describe("thinStepPoints", () => {
  it("leaves a short line as it is", () => {
    const line = [at(0, 0.5), at(1, 0.6), at(2, 0.7)];
    expect(thinStepPoints(line, 10)).toEqual(line);
  });

  it("keeps the first point, the last point, and the step at the end of each bucket", () => {
    const line = Array.from({ length: 1000 }, (_, i) => at(i, (i % 10) / 10));
    const thin = thinStepPoints(line, 101);
    expect(thin.length).toBeLessThanOrEqual(101);
    expect(thin[0]).toEqual(line[0]);
    expect(thin[thin.length - 1]).toEqual(line[999]);
    // Oldest first, and every kept point is one of the originals.
    for (let i = 1; i < thin.length; i++) expect(Date.parse(thin[i].recorded_at)).toBeGreaterThan(Date.parse(thin[i - 1].recorded_at));
    expect(thin.every((p) => line.includes(p))).toBe(true);
  });

  it("keeps the latest value when every point shares one instant", () => {
    const line = Array.from({ length: 50 }, (_, i) => at(0, i / 50));
    expect(thinStepPoints(line, 10)).toEqual([line[0], line[49]]);
  });
});

describe("timeAxis", () => {
  const t = (iso: string) => Date.parse(iso);
  const labels = (axis: { ticks: number[]; label: (t: number) => string }) => axis.ticks.map(axis.label);

  it("writes the date on every tick of a short span, with the time where the day repeats", () => {
    // Four votes within a minute of each other: "19:18" four times said nothing about the day.
    const axis = timeAxis(t("2026-11-25T19:18:00"), t("2026-11-25T19:18:40"), 5);
    const out = labels(axis);
    expect(new Set(out).size).toBe(out.length);
    for (const l of out) expect(l).toMatch(/^25 Nov 19:18(:\d\d)?$/);
  });

  it("writes days alone when ticks are a day or more apart, and times when they are not", () => {
    expect(labels(timeAxis(t("2026-11-01T12:00:00"), t("2026-11-21T12:00:00"), 5))).toEqual(["1 Nov", "6 Nov", "11 Nov", "16 Nov", "21 Nov"]);
    // Six events on one day: not "25 Nov" six times.
    const sameDay = labels(timeAxis(t("2026-11-25T08:00:00"), t("2026-11-25T20:00:00"), 5));
    expect(sameDay).toEqual(["25 Nov 08:00", "25 Nov 11:00", "25 Nov 14:00", "25 Nov 17:00", "25 Nov 20:00"]);
  });

  it("names the year when the span crosses one, and gives a single point its full date", () => {
    expect(labels(timeAxis(t("2025-12-01T00:00:00"), t("2026-02-01T00:00:00"), 3))[0]).toBe("1 Dec 2025");
    expect(labels(timeAxis(t("2026-11-25T19:18:00"), t("2026-11-25T19:18:00")))).toEqual(["25 Nov 2026, 19:18"]);
  });
});
