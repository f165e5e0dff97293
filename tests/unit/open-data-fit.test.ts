// The bridging fit is a function of the votes alone (docs/features/open-data.md#rescoring): the order they
// are read in and the names their voters go by do not change it. The service fits agents by id, the open
// data's rescore fits the same votes under pseudonyms, in the votes file's order; both must come out the
// same, or no one could confirm a published status.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimsBridging, fitBridging, seededRandom, VoteMatrixBuilder } from "~/server/domain/bridging";
import { simulateCamps } from "~/server/cli/bridging-simulation";

const sim = simulateCamps({ agents: 150, campShare: 0.6, claims: { both_true: 6, both_false: 6, carried: 6, partisan: 30 }, voteProbability: 0.35, noise: 0.15, seed: 21 });
const claimId = (c: number) => `c${String(c).padStart(4, "0")}`;
const agentId = (a: number) => `a${String(a).padStart(4, "0")}`;
/** Another name for each agent, sorting in another order (as HMAC pseudonyms do). */
const pseudonym = (a: number) => createHmac("sha256", "k").update(agentId(a)).digest("hex").slice(0, 32);

function fitOf(order: number[], name: (a: number) => string) {
  const b = new VoteMatrixBuilder(8);
  for (const k of order) b.add(claimId(sim.claimIdx[k]), name(sim.agentIdx[k]), sim.value[k]);
  const { matrix, claimIds } = b.build();
  const fit = fitBridging(matrix);
  const results = claimsBridging(fit);
  return { fit, byClaim: new Map(claimIds.map((id, c) => [id, { intercept: fit.claimIntercept[c], factor: fit.claimFactor[c], ...results[c] }])) };
}

function shuffled(seed: number): number[] {
  const order = Array.from({ length: sim.length }, (_, k) => k);
  const random = seededRandom(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

describe("the bridging fit depends on the votes alone", () => {
  it("read in any order, the same votes fit to the same bits", () => {
    const a = fitOf(shuffled(1), agentId);
    const b = fitOf(shuffled(2), agentId);
    expect(Object.is(a.fit.mu, b.fit.mu)).toBe(true);
    for (const [id, r] of a.byClaim) {
      const other = b.byClaim.get(id)!;
      expect([Object.is(other.intercept, r.intercept), Object.is(other.factor, r.factor)], id).toEqual([true, true]);
    }
  });

  it("under other names for the voters (pseudonyms), the same fit: every status, and every number within 1e-9", () => {
    const byId = fitOf(shuffled(1), agentId);
    const byPseudonym = fitOf(shuffled(3), pseudonym);
    expect(byPseudonym.fit.iterations).toBe(byId.fit.iterations);
    expect(Math.abs(byPseudonym.fit.mu - byId.fit.mu)).toBeLessThan(1e-9);
    let decided = 0;
    for (const [id, r] of byId.byClaim) {
      const other = byPseudonym.byClaim.get(id)!;
      expect(other.status, id).toBe(r.status);
      expect(Math.abs(other.intercept - r.intercept), id).toBeLessThan(1e-9);
      expect(Math.abs(other.factor - r.factor), id).toBeLessThan(1e-9);
      if (r.status !== "insufficient_data") decided++;
    }
    expect(decided).toBeGreaterThan(30);
  });
});
