import { describe, expect, it } from "vitest";
import {
  bridgingStatus,
  claimsBridging,
  fitBridging,
  qualifyingVotes,
  rescoreFromSums,
  seededRandom,
  VoteMatrixBuilder,
  DEFAULT_BRIDGING_THRESHOLDS,
  type VoteMatrix,
} from "~/server/domain/bridging";
import { correlation, simulateCamps, simulateModel } from "~/server/cli/bridging-simulation";

const statusesByKind = (sim: ReturnType<typeof simulateCamps>) => {
  const fit = fitBridging(sim);
  const out: Record<string, Set<string>> = {};
  claimsBridging(fit).forEach((b, c) => (out[sim.kinds[c]] ??= new Set()).add(b.status));
  return { fit, out };
};

describe("bridged consensus on planted camps", () => {
  // A claim both camps accept, one both reject, one the larger camp carries over the other's
  // objection (its plain mean is high), and partisan claims that reveal the camps.
  for (const campShare of [0.5, 0.7]) {
    it(`camp A holds ${campShare * 100} %: bridged_true, bridged_false, divided`, () => {
      const sim = simulateCamps({
        agents: 200,
        campShare,
        claims: { both_true: 5, both_false: 5, carried: 5, partisan: 40 },
        voteProbability: 0.3,
        noise: 0.1,
        seed: 42,
      });
      const { out } = statusesByKind(sim);
      expect(out.both_true).toEqual(new Set(["bridged_true"]));
      expect(out.both_false).toEqual(new Set(["bridged_false"]));
      expect(out.carried).toEqual(new Set(["divided"]));
      expect(out.partisan).toEqual(new Set(["divided"]));
    });
  }

  it("the carried claim has a high plain mean but a middling score and a large polarity", () => {
    const sim = simulateCamps({ agents: 200, campShare: 0.75, claims: { carried: 3, partisan: 30, both_true: 3 }, voteProbability: 0.4, noise: 0.05, seed: 5 });
    const fit = fitBridging(sim);
    const results = claimsBridging(fit);
    const carried = sim.kinds.findIndex((k) => k === "carried");
    let sum = 0;
    let n = 0;
    for (let k = 0; k < sim.length; k++) if (sim.claimIdx[k] === carried) (sum += sim.value[k]), n++;
    expect(sum / n).toBeGreaterThan(0.7); // the plain mean would call it true
    expect(results[carried].status).toBe("divided");
    expect(Math.abs(results[carried].polarity!)).toBeGreaterThan(DEFAULT_BRIDGING_THRESHOLDS.polarityCap);
    expect(results[carried].score!).toBeLessThan(DEFAULT_BRIDGING_THRESHOLDS.trueScore);
  });

  it("random votes bridge nothing", () => {
    for (const seed of [1, 2, 3]) {
      const sim = simulateCamps({ agents: 300, campShare: 0.5, claims: { random: 100 }, voteProbability: 0.2, noise: 0, seed });
      const { out } = statusesByKind(sim);
      expect(out.random.has("bridged_true")).toBe(false);
      expect(out.random.has("bridged_false")).toBe(false);
    }
  });

  it("recovers planted claim intercepts (correlation ≥ 0.95 on 50k votes)", () => {
    const sim = simulateModel({ agents: 1000, claims: 1000, votes: 50_000, noise: 0.1, seed: 3 });
    const fit = fitBridging(sim);
    expect(correlation(fit.claimIntercept, sim.claimIntercept)).toBeGreaterThanOrEqual(0.95);
    expect(Math.abs(correlation(fit.claimFactor, sim.claimFactor))).toBeGreaterThanOrEqual(0.9);
  });

  it("is deterministic", () => {
    const sim = simulateCamps({ agents: 100, campShare: 0.6, claims: { both_true: 3, partisan: 20 }, voteProbability: 0.5, noise: 0.1, seed: 9 });
    expect(Array.from(fitBridging(sim).claimIntercept)).toEqual(Array.from(fitBridging(sim).claimIntercept));
  });
});

describe("guardrails", () => {
  it("too few votes, or voters with too little history: insufficient_data", () => {
    // Ten agents with one vote each on one claim: no agent qualifies, nothing is scored.
    const m: VoteMatrix = {
      claimIdx: Int32Array.from({ length: 10 }, () => 0),
      agentIdx: Int32Array.from({ length: 10 }, (_, i) => i),
      value: Float64Array.from({ length: 10 }, () => 1),
      length: 10,
      claimCount: 1,
      agentCount: 10,
    };
    const fit = fitBridging(m);
    expect(fit.fittedVotes).toBe(0);
    expect(claimsBridging(fit)[0]).toEqual({ score: null, polarity: null, status: "insufficient_data" });
  });

  it("minimums apply until stable: dropping agents can drop claims and the other way round", () => {
    // Claim 0: 5 agents with 10 votes each; claim 1: 4 of them only → claim 1 is out.
    const sim = simulateCamps({ agents: 60, campShare: 0.5, claims: { both_true: 12 }, voteProbability: 1, noise: 0.05, seed: 1 });
    const keep = qualifyingVotes(sim, { minAgentVotes: 10, minClaimVotes: 5 });
    expect(keep.every((k) => k === 1)).toBe(true);
    const strict = qualifyingVotes(sim, { minAgentVotes: 13, minClaimVotes: 5 });
    expect(strict.every((k) => k === 0)).toBe(true);
  });

  it("the status: divided beats any score, then the score thresholds", () => {
    const t = DEFAULT_BRIDGING_THRESHOLDS;
    expect(bridgingStatus({ score: 0.95, polarity: t.polarityCap }, t)).toBe("divided");
    expect(bridgingStatus({ score: 0.95, polarity: -t.polarityCap }, t)).toBe("divided");
    expect(bridgingStatus({ score: t.trueScore, polarity: 0 }, t)).toBe("bridged_true");
    expect(bridgingStatus({ score: t.falseScore, polarity: 0 }, t)).toBe("bridged_false");
    expect(bridgingStatus({ score: 0.5, polarity: 0 }, t)).toBe("undecided");
  });
});

describe("re-scoring one claim against frozen agents", () => {
  it("gives the full fit's answer for a claim the fit knows", () => {
    const sim = simulateCamps({ agents: 200, campShare: 0.6, claims: { both_true: 5, both_false: 5, carried: 5, partisan: 40 }, voteProbability: 0.3, noise: 0.1, seed: 4 });
    const fit = fitBridging(sim);
    const full = claimsBridging(fit);
    for (let c = 0; c < sim.claimCount; c++) {
      // The sums the service has PostgreSQL add up over the claim's votes by fitted agents.
      const sums = { n: 0, sx: 0, sxx: 0, sy: 0, sxy: 0 };
      for (let k = 0; k < sim.length; k++) {
        const a = sim.agentIdx[k];
        if (sim.claimIdx[k] === c && fit.agentVotes[a] > 0) {
          const x = fit.agentFactor[a];
          const y = sim.value[k] - fit.mu - fit.agentIntercept[a];
          sums.n++;
          sums.sx += x;
          sums.sxx += x * x;
          sums.sy += y;
          sums.sxy += x * y;
        }
      }
      const again = rescoreFromSums({ mu: fit.mu, factorScale: fit.factorScale, sums });
      expect(again.status).toBe(full[c].status);
      expect(again.score!).toBeCloseTo(full[c].score!, 2);
      expect(again.polarity!).toBeCloseTo(full[c].polarity!, 2);
    }
  });
});

describe("reading the votes in any order", () => {
  it("the builder numbers claims and agents by id, so a shuffled read fits the same", () => {
    const sim = simulateCamps({ agents: 120, campShare: 0.6, claims: { both_true: 4, both_false: 4, carried: 4, partisan: 30 }, voteProbability: 0.4, noise: 0.1, seed: 11 });
    const claimId = (c: number) => `c${String(c).padStart(4, "0")}`;
    const agentId = (a: number) => `a${String((a * 7919) % 1000).padStart(4, "0")}`; // ids not in index order
    const fitOf = (order: number[]) => {
      const b = new VoteMatrixBuilder(4); // starts small: grows while reading
      for (const k of order) b.add(claimId(sim.claimIdx[k]), agentId(sim.agentIdx[k]), sim.value[k]);
      const { matrix, claimIds } = b.build();
      expect(matrix.length).toBe(sim.length);
      const results = claimsBridging(fitBridging(matrix));
      return new Map(claimIds.map((id, c) => [id, results[c]]));
    };
    const inOrder = Array.from({ length: sim.length }, (_, k) => k);
    const random = seededRandom(5);
    const shuffled = [...inOrder];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const a = fitOf(inOrder);
    const b = fitOf(shuffled);
    expect(a.size).toBe(sim.claimCount);
    for (const [id, r] of a) {
      expect(b.get(id)!.status).toBe(r.status);
      expect(b.get(id)!.score).toBeCloseTo(r.score ?? 0, 3);
    }
    // And the planted kinds still come out as they should through the builder.
    const kindOf = new Map(Array.from({ length: sim.claimCount }, (_, c) => [claimId(c), sim.kinds[c]]));
    for (const [id, r] of a) {
      const kind = kindOf.get(id);
      if (kind === "both_true") expect(r.status).toBe("bridged_true");
      if (kind === "both_false") expect(r.status).toBe("bridged_false");
      if (kind === "carried") expect(r.status).toBe("divided");
    }
  });
});
