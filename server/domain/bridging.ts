// Bridged consensus (docs/features/bridging.md): does a claim win agreement from voters who usually disagree?
// The model of X's Community Notes: each vote value is explained as
//     value ≈ μ + i_agent + i_claim + f_agent · f_claim
// with one-dimensional viewpoint factors f. Whatever the viewpoint factor can explain (one camp
// voting high, the other low) goes into f_claim; i_claim is the agreement left over, the part no
// viewpoint explains. The intercepts are regularised 5× harder than the factors (Community Notes'
// ratio), so a claim earns a high intercept only when the factor cannot account for its votes.
//
// Fitted by alternating least squares: with the claim parameters fixed, each agent's (i, f) is a 2×2
// ridge regression with a closed-form solution, and the other way round. ALS has no learning rate to
// tune, decreases the loss monotonically, is deterministic from a seeded start, and one sweep is two
// passes over flat typed arrays grouped by claim and by agent (CSR: no per-vote objects). Pure: no I/O here.

export type BridgingStatus = "insufficient_data" | "bridged_true" | "bridged_false" | "divided" | "undecided";
export const BRIDGING_STATUSES: readonly BridgingStatus[] = [
  "insufficient_data",
  "bridged_true",
  "bridged_false",
  "divided",
  "undecided",
];

export interface BridgingOptions {
  /** Ridge penalty on the intercepts (i_agent, i_claim), in units of squared vote error. */
  lambdaIntercept: number;
  /** Ridge penalty on the factors; Community Notes regularises intercepts ≈5× harder. */
  lambdaFactor: number;
  /** A claim is scored only with at least this many votes from agents who qualify. */
  minClaimVotes: number;
  /** An agent's votes count only when it has at least this many votes on claims that qualify. */
  minAgentVotes: number;
  maxIterations: number;
  /** Stop when the loss improves by less than this fraction in one sweep. */
  tolerance: number;
  seed: number;
}

/** The service's thresholds; calibrated by `npm run bridging:calibrate` (docs/features/bridging.md#how-the-thresholds-were-calibrated). */
export interface BridgingThresholds {
  /** score ≥ this (and |polarity| below the cap) → bridged_true. */
  trueScore: number;
  /** score ≤ this (and |polarity| below the cap) → bridged_false. */
  falseScore: number;
  /** |polarity| ≥ this → divided: the claim splits voters along the viewpoint factor. */
  polarityCap: number;
}

export const DEFAULT_BRIDGING_OPTIONS: BridgingOptions = {
  lambdaIntercept: 5,
  lambdaFactor: 1,
  minClaimVotes: 5,
  minAgentVotes: 10,
  maxIterations: 50,
  tolerance: 1e-6,
  seed: 1,
};

export const DEFAULT_BRIDGING_THRESHOLDS: BridgingThresholds = {
  trueScore: 0.75,
  falseScore: 0.25,
  polarityCap: 0.15,
};

/** The votes as flat arrays: vote k is agent agentIdx[k] giving claim claimIdx[k] the value value[k]. */
export interface VoteMatrix {
  claimIdx: Int32Array;
  agentIdx: Int32Array;
  value: Float64Array;
  length: number;
  claimCount: number;
  agentCount: number;
}

export interface BridgingFit {
  mu: number;
  agentIntercept: Float64Array;
  /** Normalised so the qualifying agents' factors have root mean square 1 (see normaliseFactors). */
  agentFactor: Float64Array;
  claimIntercept: Float64Array;
  claimFactor: Float64Array;
  /** Votes that entered the fit, per agent and per claim (0 = left out by the minimums). */
  agentVotes: Int32Array;
  claimVotes: Int32Array;
  iterations: number;
  /** Votes that entered the fit. */
  fittedVotes: number;
  rmse: number;
  /** The root mean square of the agents' factors before normalisation (re-scoring needs it). */
  factorScale: number;
}

export interface ClaimBridging {
  score: number | null;
  polarity: number | null;
  status: BridgingStatus;
}

/** mulberry32: a small seeded generator, so fits and simulations are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Which votes enter the fit: Community Notes' minimums, applied until stable — an agent needs
 * minAgentVotes on qualifying claims, a claim minClaimVotes from qualifying agents.
 */
export function qualifyingVotes(m: VoteMatrix, opts: Pick<BridgingOptions, "minAgentVotes" | "minClaimVotes">): Uint8Array {
  const keep = new Uint8Array(m.length).fill(1);
  const agentCount = new Int32Array(m.agentCount);
  const claimCount = new Int32Array(m.claimCount);
  for (let round = 0; round < 20; round++) {
    agentCount.fill(0);
    claimCount.fill(0);
    for (let k = 0; k < m.length; k++) {
      if (!keep[k]) continue;
      agentCount[m.agentIdx[k]]++;
      claimCount[m.claimIdx[k]]++;
    }
    let dropped = 0;
    for (let k = 0; k < m.length; k++) {
      if (keep[k] && (agentCount[m.agentIdx[k]] < opts.minAgentVotes || claimCount[m.claimIdx[k]] < opts.minClaimVotes)) {
        keep[k] = 0;
        dropped++;
      }
    }
    if (dropped === 0) break;
  }
  return keep;
}

/**
 * Solves the 2×2 ridge regression min Σ (y − i − f·x)² + λi·i² + λf·f² from its sums
 * (n, Σx, Σx², Σy, Σxy); returns [i, f].
 */
function ridge2({ n, sx, sxx, sy, sxy }: FrozenSums, { lambdaIntercept, lambdaFactor }: Penalties): [number, number] {
  const a = n + lambdaIntercept;
  const b = sx;
  const d = sxx + lambdaFactor;
  const det = a * d - b * b;
  if (det <= 1e-12) return [0, 0];
  return [(d * sy - b * sxy) / det, (a * sxy - b * sy) / det];
}

/**
 * The qualifying votes twice over, CSR-style: grouped by claim (row c is start[c] … start[c+1]) with
 * the voter of each, and grouped by agent with the claim of each. A counting sort that keeps the
 * votes' order inside a row, so every row's sums add up in the same order as a pass over the input.
 */
interface Rows {
  start: Int32Array;
  other: Int32Array;
  value: Float64Array;
}

function groupRows(m: VoteMatrix, { keep, fitted, by }: { keep: Uint8Array; fitted: number; by: "claim" | "agent" }): Rows {
  const byClaim = by === "claim";
  const rowOf = byClaim ? m.claimIdx : m.agentIdx;
  const otherOf = byClaim ? m.agentIdx : m.claimIdx;
  const start = new Int32Array((byClaim ? m.claimCount : m.agentCount) + 1);
  for (let k = 0; k < m.length; k++) if (keep[k]) start[rowOf[k] + 1]++;
  for (let r = 1; r < start.length; r++) start[r] += start[r - 1];
  const next = start.slice(0, start.length - 1);
  const other = new Int32Array(fitted);
  const value = new Float64Array(fitted);
  for (let k = 0; k < m.length; k++) {
    if (!keep[k]) continue;
    const at = next[rowOf[k]]++;
    other[at] = otherOf[k];
    value[at] = m.value[k];
  }
  return { start, other, value };
}

/** The ridge penalties λi and λf of the intercepts and factors. */
type Penalties = Pick<BridgingOptions, "lambdaIntercept" | "lambdaFactor">;

/** One side's intercepts and factors (claims' or agents'). */
interface RowParameters {
  intercept: Float64Array;
  factor: Float64Array;
}

/**
 * One half-sweep: every row's (i, f) by its 2×2 ridge regression on y = value − μ − i_other,
 * x = f_other (closed form, sums in registers). Returns the squared error and the residual sum of the
 * rows it solved (Σ(y − i − f·x)² and Σ(y − i − f·x), from the same sums: no further pass).
 */
function solveRows(
  rows: Rows,
  {
    mu,
    given: { intercept: otherIntercept, factor: otherFactor },
    into: { intercept, factor },
    lambdaIntercept: li,
    lambdaFactor: lf,
  }: Penalties & {
    mu: number;
    /** The other side's parameters, held fixed (indexed by `rows.other`). */
    given: RowParameters;
    /** Where the rows' own parameters are written (indexed by row). */
    into: RowParameters;
  },
): { sse: number; residual: number } {
  const { start, other, value } = rows;
  let sse = 0;
  let residual = 0;
  for (let r = 0; r + 1 < start.length; r++) {
    const from = start[r];
    const to = start[r + 1];
    if (from === to) continue;
    let sx = 0;
    let sxx = 0;
    let sy = 0;
    let syy = 0;
    let sxy = 0;
    for (let j = from; j < to; j++) {
      const o = other[j];
      const x = otherFactor[o];
      const y = value[j] - mu - otherIntercept[o];
      sx += x;
      sxx += x * x;
      sy += y;
      syy += y * y;
      sxy += x * y;
    }
    const n = to - from;
    const a = n + li;
    const d = sxx + lf;
    const det = a * d - sx * sx;
    let i = 0;
    let f = 0;
    if (det > 1e-12) {
      i = (d * sy - sx * sxy) / det;
      f = (a * sxy - sx * sy) / det;
    }
    intercept[r] = i;
    factor[r] = f;
    // Σ(y − i − f·x)² expanded over the row's sums.
    sse += syy - 2 * i * sy - 2 * f * sxy + i * i * n + 2 * i * f * sx + f * f * sxx;
    residual += sy - i * n - f * sx;
  }
  return { sse, residual };
}

/**
 * Fits the model on every qualifying vote. Each sweep is two passes over the votes grouped by row
 * (claims with the agents fixed, then agents with the claims fixed); the loss comes out of the second.
 */
export function fitBridging(m: VoteMatrix, options: Partial<BridgingOptions> = {}): BridgingFit {
  const opts = { ...DEFAULT_BRIDGING_OPTIONS, ...options };
  const keep = qualifyingVotes(m, opts);
  let fitted = 0;
  let sum = 0;
  for (let k = 0; k < m.length; k++) {
    if (!keep[k]) continue;
    fitted++;
    sum += m.value[k];
  }
  const claims = groupRows(m, { keep, fitted, by: "claim" });
  const agents = groupRows(m, { keep, fitted, by: "agent" });
  const agentVotes = new Int32Array(m.agentCount);
  const claimVotes = new Int32Array(m.claimCount);
  for (let a = 0; a < m.agentCount; a++) agentVotes[a] = agents.start[a + 1] - agents.start[a];
  for (let c = 0; c < m.claimCount; c++) claimVotes[c] = claims.start[c + 1] - claims.start[c];

  const ai = new Float64Array(m.agentCount);
  const af = startingFactors(m, { keep, agentVotes, seed: opts.seed });
  const ci = new Float64Array(m.claimCount);
  const cf = new Float64Array(m.claimCount);
  let mu = fitted > 0 ? sum / fitted : 0.5;
  const agentSide = { intercept: ai, factor: af };
  const claimSide = { intercept: ci, factor: cf };
  const penalties = { lambdaIntercept: opts.lambdaIntercept, lambdaFactor: opts.lambdaFactor };

  let previousLoss = Infinity;
  let iterations = 0;
  let sse = 0;
  for (; iterations < opts.maxIterations && fitted > 0; ) {
    iterations++;
    solveRows(claims, { mu, given: agentSide, into: claimSide, ...penalties });
    const last = solveRows(agents, { mu, given: claimSide, into: agentSide, ...penalties });
    // μ (unregularised): with residuals e, moving μ by δ = Σe/N leaves Σ(e − δ)² = Σe² − (Σe)²/N.
    mu += last.residual / fitted;
    sse = last.sse - (last.residual * last.residual) / fitted;
    let penalty = 0;
    for (let a = 0; a < m.agentCount; a++) penalty += opts.lambdaIntercept * ai[a] * ai[a] + opts.lambdaFactor * af[a] * af[a];
    for (let c = 0; c < m.claimCount; c++) penalty += opts.lambdaIntercept * ci[c] * ci[c] + opts.lambdaFactor * cf[c] * cf[c];
    const loss = sse + penalty;
    if (previousLoss - loss < opts.tolerance * Math.max(1, previousLoss)) break;
    previousLoss = loss;
  }
  const factorScale = normaliseFactors({ agentFactor: af, claimFactor: cf, agentVotes, claimVotes });
  return {
    mu,
    agentIntercept: ai,
    agentFactor: af,
    claimIntercept: ci,
    claimFactor: cf,
    agentVotes,
    claimVotes,
    iterations,
    fittedVotes: fitted,
    rmse: fitted > 0 ? Math.sqrt(Math.max(0, sse) / fitted) : 0,
    factorScale,
  };
}

/** murmur3's finaliser: a well-mixed 32-bit word from any 32-bit word. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The agents' starting factors. A small pseudo-random start breaks the symmetry f = 0, a stationary
 * point of ALS. Each agent's is drawn from the seed and its own fitted votes (which claims, which
 * values; summed, so their order does not matter), not from its position: the fit is then the same
 * however agents are numbered — by id in the service, by pseudonym in the open data, whose rescore
 * must reproduce it (docs/features/open-data.md).
 */
function startingFactors(m: VoteMatrix, { keep, agentVotes, seed }: { keep: Uint8Array; agentVotes: Int32Array; seed: number }): Float64Array {
  const sums = new Uint32Array(m.agentCount);
  for (let k = 0; k < m.length; k++) {
    if (!keep[k]) continue;
    const valueWord = Math.floor(m.value[k] * 4294967296) >>> 0;
    const word = mix32(Math.imul(m.claimIdx[k] + 1, 0x9e3779b1) ^ mix32(valueWord ^ seed));
    sums[m.agentIdx[k]] = (sums[m.agentIdx[k]] + word) >>> 0;
  }
  const af = new Float64Array(m.agentCount);
  for (let a = 0; a < m.agentCount; a++) af[a] = agentVotes[a] > 0 ? mix32(sums[a] ^ seed) / 4294967296 - 0.5 : 0;
  return af;
}

/**
 * The product f_agent·f_claim is all the model determines, so the scale and sign of the factors
 * are free. They are fixed so that thresholds mean the same thing in every fit: the qualifying agents'
 * factors get root mean square 1 — polarity p then means that agents one unit apart on the viewpoint
 * axis differ by p in vote value — and the sign makes the larger camp (more agents with f > 0) positive.
 */
function normaliseFactors({
  agentFactor: af,
  claimFactor: cf,
  agentVotes,
  claimVotes,
}: {
  agentFactor: Float64Array;
  claimFactor: Float64Array;
  agentVotes: Int32Array;
  claimVotes: Int32Array;
}): number {
  let squares = 0;
  let count = 0;
  let positive = 0;
  for (let a = 0; a < af.length; a++) {
    if (agentVotes[a] === 0) continue;
    squares += af[a] * af[a];
    count++;
    if (af[a] > 0) positive++;
  }
  const rms = count > 0 ? Math.sqrt(squares / count) : 0;
  if (rms < 1e-12) return 1;
  const sign = positive * 2 >= count ? 1 : -1;
  for (let a = 0; a < af.length; a++) af[a] = (af[a] / rms) * sign;
  for (let c = 0; c < cf.length; c++) if (claimVotes[c] > 0) cf[c] = cf[c] * rms * sign;
  return rms;
}

/** The status of a claim from its score, polarity and the votes that entered the fit. */
export function bridgingStatus(
  { score, polarity }: { score: number; polarity: number },
  thresholds: BridgingThresholds = DEFAULT_BRIDGING_THRESHOLDS,
): Exclude<BridgingStatus, "insufficient_data"> {
  if (Math.abs(polarity) >= thresholds.polarityCap) return "divided";
  if (score >= thresholds.trueScore) return "bridged_true";
  if (score <= thresholds.falseScore) return "bridged_false";
  return "undecided";
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
/** Stored and compared at 4 decimals: a refit that moves a score by less rewrites nothing. */
export const roundBridging = (x: number) => Math.round(x * 1e4) / 1e4;

/** How a claim's fitted parameters become its status: the votes it needs, and the thresholds. */
export interface BridgingRule {
  minClaimVotes?: number;
  thresholds?: BridgingThresholds;
}

/** A claim's bridging from the model's μ, its intercept, factor and the votes it was fitted on. */
export function claimBridging(
  { mu, intercept, factor, votes }: { mu: number; intercept: number; factor: number; votes: number },
  { minClaimVotes = DEFAULT_BRIDGING_OPTIONS.minClaimVotes, thresholds = DEFAULT_BRIDGING_THRESHOLDS }: BridgingRule = {},
): ClaimBridging {
  if (votes < minClaimVotes) return { score: null, polarity: null, status: "insufficient_data" };
  const score = roundBridging(clamp01(mu + intercept));
  const polarity = roundBridging(factor);
  return { score, polarity, status: bridgingStatus({ score, polarity }, thresholds) };
}

/** Every claim's bridging from a fit (claim index → result). */
export function claimsBridging(
  fit: BridgingFit,
  minClaimVotes = DEFAULT_BRIDGING_OPTIONS.minClaimVotes,
  thresholds: BridgingThresholds = DEFAULT_BRIDGING_THRESHOLDS,
): ClaimBridging[] {
  const out: ClaimBridging[] = [];
  for (let c = 0; c < fit.claimIntercept.length; c++) {
    const claim = { mu: fit.mu, intercept: fit.claimIntercept[c], factor: fit.claimFactor[c], votes: fit.claimVotes[c] };
    out.push(claimBridging(claim, { minClaimVotes, thresholds }));
  }
  return out;
}

/**
 * What a claim's re-score needs of its votes by agents the last fit placed: n and, with
 * y = value − μ − i_agent and x = f_agent, Σx, Σx², Σy and Σxy. PostgreSQL adds these up (the service:
 * one row per claim, not one per vote).
 */
export interface FrozenSums {
  n: number;
  sx: number;
  sxx: number;
  sy: number;
  sxy: number;
}

/**
 * Re-scores one claim between full fits: its (i, f) by the same ridge regression as a fit's claim
 * step, against the frozen μ and agent parameters, from the sums of its votes. Only votes by agents the
 * last fit knows count: a crowd of brand-new accounts has no viewpoint yet and cannot move a claim's
 * status until the next full fit has placed them.
 */
export function rescoreFromSums({
  mu,
  factorScale,
  sums,
  options = {},
  thresholds = DEFAULT_BRIDGING_THRESHOLDS,
}: {
  /** The last fit's μ and factor scale. */
  mu: number;
  factorScale: number;
  sums: FrozenSums;
  options?: Partial<BridgingOptions>;
  thresholds?: BridgingThresholds;
}): ClaimBridging & { intercept: number; factor: number; votes: number } {
  const opts = { ...DEFAULT_BRIDGING_OPTIONS, ...options };
  // The stored agent factors are normalised by factorScale (RMS 1), so the claim's factor is scaled
  // by it: the fit's penalty λf·f² becomes λf·f'²/scale², and the result is the fit's own claim step.
  const lambdaFactor = opts.lambdaFactor / (factorScale > 1e-12 ? factorScale * factorScale : 1);
  const [intercept, factor] = ridge2(sums, { lambdaIntercept: opts.lambdaIntercept, lambdaFactor });
  return {
    intercept,
    factor,
    votes: sums.n,
    ...claimBridging({ mu, intercept, factor, votes: sums.n }, { minClaimVotes: opts.minClaimVotes, thresholds }),
  };
}

/**
 * Collects votes into a VoteMatrix as they stream in: claim and agent ids become array indexes (in
 * order of first appearance), the votes flat typed arrays that double when full — no per-vote objects.
 */
export class VoteMatrixBuilder {
  private claimIdx: Int32Array;
  private agentIdx: Int32Array;
  private value: Float64Array;
  private length = 0;
  readonly claimIds: string[] = [];
  readonly agentIds: string[] = [];
  private readonly claimOf = new Map<string, number>();
  private readonly agentOf = new Map<string, number>();

  /** `expected`: the vote count if known (one allocation, no doubling). */
  constructor(expected = 1 << 16) {
    const size = Math.max(16, expected);
    this.claimIdx = new Int32Array(size);
    this.agentIdx = new Int32Array(size);
    this.value = new Float64Array(size);
  }

  add(claimId: string, agentId: string, value: number): void {
    if (this.length === this.value.length) this.grow(this.length * 2);
    let c = this.claimOf.get(claimId);
    if (c === undefined) {
      c = this.claimIds.length;
      this.claimIds.push(claimId);
      this.claimOf.set(claimId, c);
    }
    let a = this.agentOf.get(agentId);
    if (a === undefined) {
      a = this.agentIds.length;
      this.agentIds.push(agentId);
      this.agentOf.set(agentId, a);
    }
    this.claimIdx[this.length] = c;
    this.agentIdx[this.length] = a;
    this.value[this.length] = value;
    this.length++;
  }

  private grow(size: number): void {
    const claimIdx = new Int32Array(size);
    const agentIdx = new Int32Array(size);
    const value = new Float64Array(size);
    claimIdx.set(this.claimIdx.subarray(0, this.length));
    agentIdx.set(this.agentIdx.subarray(0, this.length));
    value.set(this.value.subarray(0, this.length));
    this.claimIdx = claimIdx;
    this.agentIdx = agentIdx;
    this.value = value;
  }

  /**
   * The matrix. Claims and agents are numbered in id order, and the votes put in (claim, agent) order,
   * not in the order the rows came: a fit adds up every row's sums in the same order however the
   * database happened to return them (a sequential scan may start anywhere), so the same votes fit to
   * the same bits.
   */
  build(): { matrix: VoteMatrix; claimIds: string[]; agentIds: string[] } {
    renumberInIdOrder(this.claimIds, this.claimIdx, this.length);
    renumberInIdOrder(this.agentIds, this.agentIdx, this.length);
    const matrix = inClaimAgentOrder({
      claimIdx: this.claimIdx.subarray(0, this.length),
      agentIdx: this.agentIdx.subarray(0, this.length),
      value: this.value.subarray(0, this.length),
      length: this.length,
      claimCount: this.claimIds.length,
      agentCount: this.agentIds.length,
    });
    return { matrix, claimIds: this.claimIds, agentIds: this.agentIds };
  }
}

/** The votes sorted by claim, then agent: two stable counting sorts (by agent, then by claim), O(votes). */
function inClaimAgentOrder(m: VoteMatrix): VoteMatrix {
  const byAgent = countingOrder(m.agentIdx, m.agentCount, null);
  const order = countingOrder(m.claimIdx, m.claimCount, byAgent);
  const claimIdx = new Int32Array(m.length);
  const agentIdx = new Int32Array(m.length);
  const value = new Float64Array(m.length);
  for (let i = 0; i < m.length; i++) {
    const k = order[i];
    claimIdx[i] = m.claimIdx[k];
    agentIdx[i] = m.agentIdx[k];
    value[i] = m.value[k];
  }
  return { ...m, claimIdx, agentIdx, value };
}

/** The positions of the votes (in `within` order, or input order) stably sorted by `key`. */
function countingOrder(key: Int32Array, keys: number, within: Int32Array | null): Int32Array {
  const start = new Int32Array(keys + 1);
  for (let k = 0; k < key.length; k++) start[key[k] + 1]++;
  for (let r = 1; r <= keys; r++) start[r] += start[r - 1];
  const order = new Int32Array(key.length);
  for (let i = 0; i < key.length; i++) {
    const k = within ? within[i] : i;
    order[start[key[k]]++] = k;
  }
  return order;
}

/** Sorts `ids` in place and rewrites the indexes that point into it. */
function renumberInIdOrder(ids: string[], idx: Int32Array, length: number): void {
  const order = Array.from(ids.keys()).sort((x, y) => (ids[x] < ids[y] ? -1 : ids[x] > ids[y] ? 1 : 0));
  const newIndex = new Int32Array(ids.length);
  order.forEach((old, i) => (newIndex[old] = i));
  const sorted = order.map((old) => ids[old]);
  for (let i = 0; i < sorted.length; i++) ids[i] = sorted[i];
  for (let k = 0; k < length; k++) idx[k] = newIndex[idx[k]];
}
