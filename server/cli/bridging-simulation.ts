// Simulated electorates for the bridging model: planted camps and claim kinds, or votes drawn from
// the model itself with known parameters. Used by the unit tests, the threshold calibration
// (`npm run bridging:calibrate`) and the benchmark. Seeded, so every run draws the same votes.
import { seededRandom, type VoteMatrix } from "../domain/bridging.ts";

export type PlantedKind = "both_true" | "both_false" | "carried" | "partisan" | "random";

export interface CampsScenario {
  agents: number;
  /** Share of agents in camp A (the larger camp when > 0.5). */
  campShare: number;
  claims: Partial<Record<PlantedKind, number>>;
  /** Probability that an agent votes on a given claim. */
  voteProbability: number;
  /** Standard deviation of a vote around its camp's mean. */
  noise: number;
  seed: number;
}

export interface SimulatedVotes extends VoteMatrix {
  kinds: PlantedKind[];
  /** camp[a] = +1 (A) or −1 (B). */
  camp: Int8Array;
}

export interface ModelScenario {
  agents: number;
  claims: number;
  votes: number;
  noise: number;
  seed: number;
}

export interface ModelVotes extends VoteMatrix {
  claimIntercept: Float64Array;
  claimFactor: Float64Array;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

function gaussian(random: () => number): () => number {
  return () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

/** The mean vote of camp A and camp B on a claim of this kind. */
function campMeans(kind: PlantedKind, random: () => number): [number, number] | null {
  switch (kind) {
    case "both_true":
      return [0.9, 0.85];
    case "both_false":
      return [0.1, 0.15];
    case "carried":
      return [0.95, 0.1];
    case "partisan":
      return random() < 0.5 ? [0.9, 0.1] : [0.1, 0.9];
    case "random":
      return null;
  }
}

/** Two camps voting on planted kinds of claim. "random" claims get uniform votes from everyone. */
export function simulateCamps(s: CampsScenario): SimulatedVotes {
  const random = seededRandom(s.seed);
  const normal = gaussian(random);
  const camp = new Int8Array(s.agents);
  for (let a = 0; a < s.agents; a++) camp[a] = random() < s.campShare ? 1 : -1;
  const kinds: PlantedKind[] = [];
  for (const [kind, count] of Object.entries(s.claims) as [PlantedKind, number][]) {
    for (let i = 0; i < count; i++) kinds.push(kind);
  }
  const claimIdx: number[] = [];
  const agentIdx: number[] = [];
  const value: number[] = [];
  kinds.forEach((kind, c) => {
    const means = campMeans(kind, random);
    for (let a = 0; a < s.agents; a++) {
      if (random() >= s.voteProbability) continue;
      claimIdx.push(c);
      agentIdx.push(a);
      value.push(means ? clamp01(means[camp[a] > 0 ? 0 : 1] + s.noise * normal()) : random());
    }
  });
  return {
    claimIdx: Int32Array.from(claimIdx),
    agentIdx: Int32Array.from(agentIdx),
    value: Float64Array.from(value),
    length: value.length,
    claimCount: kinds.length,
    agentCount: s.agents,
    kinds,
    camp,
  };
}

/** Votes drawn from the model itself (μ = 0.5) with planted intercepts and factors. */
export function simulateModel(s: ModelScenario): ModelVotes {
  const random = seededRandom(s.seed);
  const normal = gaussian(random);
  const agentIntercept = Float64Array.from({ length: s.agents }, () => 0.05 * normal());
  const agentFactor = Float64Array.from({ length: s.agents }, () => (random() < 0.5 ? 1 : -1) + 0.2 * normal());
  const claimIntercept = Float64Array.from({ length: s.claims }, () => 0.15 * normal());
  const claimFactor = Float64Array.from({ length: s.claims }, () => 0.15 * normal());
  const claimIdx = new Int32Array(s.votes);
  const agentIdx = new Int32Array(s.votes);
  const value = new Float64Array(s.votes);
  const seen = new Set<number>();
  let k = 0;
  while (k < s.votes) {
    const c = Math.floor(random() * s.claims);
    const a = Math.floor(random() * s.agents);
    const key = c * s.agents + a;
    if (seen.has(key)) continue; // one vote per agent and claim, as in the service
    seen.add(key);
    claimIdx[k] = c;
    agentIdx[k] = a;
    value[k] = clamp01(0.5 + agentIntercept[a] + claimIntercept[c] + agentFactor[a] * claimFactor[c] + s.noise * normal());
    k++;
  }
  return { claimIdx, agentIdx, value, length: s.votes, claimCount: s.claims, agentCount: s.agents, claimIntercept, claimFactor };
}

/** Pearson correlation of two equally long series. */
export function correlation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
