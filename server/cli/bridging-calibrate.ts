// `npm run bridging:calibrate`: how the bridging thresholds were chosen (docs/features/bridging.md#how-the-thresholds-were-calibrated).
// Fits the model on simulated electorates — two camps of several sizes, sparse and dense voting,
// quiet and noisy voters, several seeds — and, for a grid of thresholds, reports how often each kind
// of planted claim gets each status. The chosen thresholds are the ones that never call a carried,
// partisan or random claim bridged while recognising the most claims that both camps agree on.
import { claimBridging, fitBridging, DEFAULT_BRIDGING_OPTIONS, type BridgingThresholds } from "../domain/bridging.ts";
import { simulateCamps, type PlantedKind } from "./bridging-simulation.ts";

interface Observation {
  scenario: string;
  kind: PlantedKind;
  score: number | null;
  polarity: number | null;
}

const observations: Observation[] = [];
const scenarios: string[] = [];
for (const campShare of [0.5, 0.65, 0.8]) {
  for (const voteProbability of [0.05, 0.1, 0.15, 0.4]) {
    for (const noise of [0.1, 0.2]) {
      for (const seed of [1, 2, 3]) {
        const sim = simulateCamps({
          agents: 300,
          campShare,
          claims: { both_true: 15, both_false: 15, carried: 15, partisan: 40, random: 15 },
          voteProbability,
          noise,
          seed: seed * 1000 + Math.round(campShare * 100) + Math.round(voteProbability * 10) + noise * 10,
        });
        const fit = fitBridging(sim, { minAgentVotes: Number(process.env.MIN_AGENT_VOTES ?? DEFAULT_BRIDGING_OPTIONS.minAgentVotes) });
        const scenario = `${campShare}/${voteProbability}/${noise}`;
        sim.kinds.forEach((kind, c) => {
          const claim = { mu: fit.mu, intercept: fit.claimIntercept[c], factor: fit.claimFactor[c], votes: fit.claimVotes[c] };
          const b = claimBridging(claim, { thresholds: { trueScore: 2, falseScore: -1, polarityCap: Infinity } });
          observations.push({ scenario, kind, score: b.score, polarity: b.polarity });
        });
        scenarios.push(scenario);
      }
    }
  }
}
// An electorate without camps: everyone votes at random.
for (const seed of [11, 12, 13]) {
  const sim = simulateCamps({ agents: 300, campShare: 0.5, claims: { random: 100 }, voteProbability: 0.15, noise: 0.1, seed });
  const fit = fitBridging(sim, { minAgentVotes: Number(process.env.MIN_AGENT_VOTES ?? DEFAULT_BRIDGING_OPTIONS.minAgentVotes) });
  sim.kinds.forEach((kind, c) => {
    observations.push({ scenario: "random", kind, score: fit.claimVotes[c] >= 5 ? fit.mu + fit.claimIntercept[c] : null, polarity: fit.claimFactor[c] });
  });
}

function status(o: Observation, t: BridgingThresholds): string {
  if (o.score === null || o.polarity === null) return "insufficient_data";
  if (Math.abs(o.polarity) >= t.polarityCap) return "divided";
  if (o.score >= t.trueScore) return "bridged_true";
  if (o.score <= t.falseScore) return "bridged_false";
  return "undecided";
}

const kinds: PlantedKind[] = ["both_true", "both_false", "carried", "partisan", "random"];
const rate = (t: BridgingThresholds, kind: PlantedKind, wanted: (s: string) => boolean) => {
  const of = observations.filter((o) => o.kind === kind && o.score !== null);
  return of.filter((o) => wanted(status(o, t))).length / of.length;
};
const bridged = (s: string) => s === "bridged_true" || s === "bridged_false";

console.log(`${scenarios.length} camp scenarios + 3 random electorates, ${observations.length} claims`);
console.log("| true ≥ | false ≤ | polarity cap | both_true → bridged_true | both_false → bridged_false | carried → divided | partisan/carried/random bridged |");
console.log("|---|---|---|---|---|---|---|");
const candidates: { t: BridgingThresholds; recall: number; falseBridged: number }[] = [];
for (const polarityCap of [0.1, 0.15, 0.2, 0.25]) {
  for (const margin of [0.15, 0.2, 0.25]) {
    const t = { trueScore: 0.5 + margin, falseScore: 0.5 - margin, polarityCap };
    const recallTrue = rate(t, "both_true", (s) => s === "bridged_true");
    const recallFalse = rate(t, "both_false", (s) => s === "bridged_false");
    const carriedDivided = rate(t, "carried", (s) => s === "divided");
    const falseBridged = Math.max(rate(t, "carried", bridged), rate(t, "partisan", bridged), rate(t, "random", bridged));
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    console.log(`| ${t.trueScore} | ${t.falseScore} | ${polarityCap} | ${pct(recallTrue)} | ${pct(recallFalse)} | ${pct(carriedDivided)} | ${pct(falseBridged)} |`);
    const recall = recallTrue + recallFalse + carriedDivided;
    candidates.push({ t, recall, falseBridged });
  }
}
// Among the thresholds that bridge nothing falsely and recall the most, the middle of that region
// (nearest its centroid): the choice furthest from both kinds of mistake.
const safe = candidates.filter((c) => c.falseBridged === 0);
const top = Math.max(...safe.map((c) => c.recall));
const tied = safe.filter((c) => c.recall >= top - 1e-9);
const centre = (f: (t: BridgingThresholds) => number) => tied.reduce((s, c) => s + f(c.t), 0) / tied.length;
const [ct, cp] = [centre((t) => t.trueScore), centre((t) => t.polarityCap)];
const best = tied.sort((a, b) => Math.hypot(a.t.trueScore - ct, a.t.polarityCap - cp) - Math.hypot(b.t.trueScore - ct, b.t.polarityCap - cp))[0];
console.log("chosen (no false bridging, most recall, middle of the tied region):", best?.t, "kinds:", kinds.join(", "));

if (best) {
  console.log("\nPer scenario (camp share / vote probability / noise) with the chosen thresholds:");
  console.log("| scenario | claims scored | both_true → bridged_true | both_false → bridged_false | carried → divided | falsely bridged |");
  console.log("|---|---|---|---|---|---|");
  for (const scenario of [...new Set(observations.map((o) => o.scenario))]) {
    const of = observations.filter((o) => o.scenario === scenario);
    const scored = of.filter((o) => o.score !== null);
    const share = (kind: PlantedKind, wanted: (s: string) => boolean) => {
      const k = scored.filter((o) => o.kind === kind);
      const hits = k.filter((o) => wanted(status(o, best.t))).length;
      return k.length ? `${((100 * hits) / k.length).toFixed(0)} %` : "–";
    };
    const falseBridged = scored.filter((o) => (o.kind === "carried" || o.kind === "partisan" || o.kind === "random") && bridged(status(o, best.t))).length;
    console.log(`| ${scenario} | ${scored.length}/${of.length} | ${share("both_true", (s) => s === "bridged_true")} | ${share("both_false", (s) => s === "bridged_false")} | ${share("carried", (s) => s === "divided")} | ${falseBridged} |`);
  }
}
