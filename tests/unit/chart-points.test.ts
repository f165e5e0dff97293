import { describe, expect, it } from "vitest";
import { thinStepPoints } from "../../server/domain/chart-points.ts";

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
