// The open data's verdicts, computed from a snapshot's inputs alone (docs/features/open-data.md): the
// bridging model's outputs and every claim's consensus status, by the server's own rules
// (domain/bridging.ts, domain/consensus.ts). The snapshot writes its outputs with these functions, and
// `npm run data:score` recomputes them from the files with the same ones and compares: no database,
// nothing but the files, the same bits (the fit uses only IEEE-exact arithmetic, from a start and in
// an order fixed by the votes themselves).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { KeyObject } from "node:crypto";
import { claimsBridging, fitBridging, VoteMatrixBuilder, type BridgingFit, type BridgingStatus } from "../domain/bridging.ts";
import { countedGradient, tallyVerdict, type ConsensusStatus, type DecidedBy } from "../domain/consensus.ts";
import { applyVote, type GradientSums } from "../domain/gradient.ts";
import {
  dataFileName,
  MANIFEST_FILE,
  manifestSignatureValid,
  parseTsvLine,
  rescoredParameters,
  SCORER_VERSION,
  scoringParameters,
  sha256Hex,
  SIGNATURE_FILE,
  type Cell,
  type Manifest,
} from "./open-data-format.ts";

/** The columns of the two files of verdicts. */
export const BRIDGING_COLUMNS = ["claim", "votes", "intercept", "factor", "score", "polarity", "status"] as const;
export const CONSENSUS_COLUMNS = ["claim", "status", "decided_by", "voters", "gradient", "since"] as const;

/** What the rules read of one vote. `standing`: it counts (its account had standing when it was last sorted). */
export interface ScoredVote {
  claim: string;
  voter: string;
  value: number;
  weight: number;
  standing: boolean;
}

const NO_VOTES: GradientSums = { weightedSum: 0, weightTotal: 0, voteCount: 0 };

/**
 * The votes as the rules read them, gathered in the order they are read (the votes file's): the counted
 * votes into the bridging model's matrix, and each claim's counted sums (the gradient the status
 * reads), added up in that order by the same function as a vote's transaction adds them.
 */
export class ScoringInputs {
  private readonly builder = new VoteMatrixBuilder();
  private readonly counted = new Map<string, GradientSums>();

  add(vote: ScoredVote): void {
    if (!vote.standing) return;
    this.builder.add(vote.claim, vote.voter, vote.value);
    this.counted.set(vote.claim, applyVote(this.counted.get(vote.claim) ?? NO_VOTES, null, vote));
  }

  /** The model's votes: claims numbered by id, voters by pseudonym (call once). */
  matrix(): ReturnType<VoteMatrixBuilder["build"]> {
    return this.builder.build();
  }

  countedOf(claim: string): GradientSums {
    return this.counted.get(claim) ?? NO_VOTES;
  }
}

export interface BridgingRow {
  claim: string;
  /** Votes that entered the fit (0: none, insufficient_data). */
  votes: number;
  intercept: number | null;
  factor: number | null;
  score: number | null;
  polarity: number | null;
  status: BridgingStatus;
}

/** The model's outputs for `claims` (in their order) from a fit of the counted votes, as the service publishes them. */
export function bridgingRows(fit: BridgingFit, fittedClaimIds: readonly string[], claims: readonly string[]): BridgingRow[] {
  const results = claimsBridging(fit);
  const index = new Map(fittedClaimIds.map((id, c) => [id, c]));
  return claims.map((claim) => {
    const c = index.get(claim);
    if (c === undefined || fit.claimVotes[c] === 0) return { claim, votes: 0, intercept: null, factor: null, score: null, polarity: null, status: "insufficient_data" };
    return { claim, votes: fit.claimVotes[c], intercept: fit.claimIntercept[c], factor: fit.claimFactor[c], ...results[c] };
  });
}

export interface ConsensusRow {
  claim: string;
  status: ConsensusStatus;
  decided_by: DecidedBy | null;
  /** Voters that count (with standing). */
  voters: number;
  /** Their reputation-weighted mean; null without any. */
  gradient: number | null;
}

/** Every claim's status by the consensus rule, from its counted votes and its bridging status. */
export function consensusRows(inputs: ScoringInputs, bridging: readonly BridgingRow[]): ConsensusRow[] {
  return bridging.map(({ claim, status: bridgingStatus }) => {
    const counted = inputs.countedOf(claim);
    const verdict = tallyVerdict({ counted }, bridgingStatus);
    return { claim, status: verdict.status, decided_by: verdict.decidedBy, voters: counted.voteCount, gradient: counted.voteCount > 0 ? countedGradient({ counted }) : null };
  });
}

export const bridgingCells = (r: BridgingRow): Cell[] => [r.claim, r.votes, r.intercept, r.factor, r.score, r.polarity, r.status];

// ---- rescoring a snapshot ----

/** One thing that does not match, named by the file it is in. */
export interface Mismatch {
  file: string;
  detail: string;
}

export interface RescoreReport {
  mismatches: Mismatch[];
  /** What was recomputed. */
  claims: number;
  votes: number;
  fittedVotes: number;
  seconds: number;
}

/** Numbers of the outputs agree when they are this close (they come out the same to the bit). */
export const TOLERANCE = 1e-9;

type Row = (string | null)[];

/** A data file's rows, its header first, read from its gzip bytes. */
async function* fileRows(bytes: Buffer): AsyncGenerator<Row> {
  const lines = createInterface({ input: Readable.from([bytes]).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) yield parseTsvLine(line);
}

/** A file's columns by name, and the mismatches of a header that lacks one. */
function columnsOf({
  file,
  header,
  wanted,
  out,
}: {
  file: string;
  header: Row;
  wanted: readonly string[];
  /** Where a missing column is reported. */
  out: Mismatch[];
}): Record<string, number> | null {
  const at: Record<string, number> = {};
  for (const name of wanted) {
    const i = header.indexOf(name);
    if (i < 0) {
      out.push({ file, detail: `the header row has no column "${name}"` });
      return null;
    }
    at[name] = i;
  }
  return at;
}

const sameNumber = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= TOLERANCE);
const numberCell = (v: string | null) => (v === null || v === "" ? null : Number(v));
const show = (v: unknown) => (v === null ? "null" : String(v));

/**
 * Verifies a snapshot folder and rescores it: the signature of manifest.json (with `publicKey`), every
 * file's SHA-256, size and row count against the manifest, the parameters against this code's, and then
 * the bridging outputs and every consensus status recomputed from claims and votes and compared with
 * the files (statuses exactly, numbers within TOLERANCE). Every mismatch is reported, none is fatal.
 */
export async function rescoreSnapshot(dir: string, publicKey: KeyObject): Promise<RescoreReport> {
  const started = performance.now();
  const mismatches: Mismatch[] = [];
  const miss = (file: string, detail: string) => mismatches.push({ file, detail });
  const bytes = await readFile(path.join(dir, MANIFEST_FILE));
  const signature = await readFile(path.join(dir, SIGNATURE_FILE), "utf8").catch(() => null);
  if (signature === null) miss(SIGNATURE_FILE, "missing");
  else if (!manifestSignatureValid(bytes, signature, publicKey)) miss(MANIFEST_FILE, `the signature in ${SIGNATURE_FILE} does not verify it with this public key`);
  const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  if (manifest.scorer_version !== SCORER_VERSION) {
    miss(MANIFEST_FILE, `scorer_version ${manifest.scorer_version}, this scorer is ${SCORER_VERSION}: rescore with code_version ${manifest.code_version}`);
  }
  const ours = JSON.stringify(rescoredParameters(scoringParameters(manifest.parameters.standing)));
  if (JSON.stringify(rescoredParameters(manifest.parameters)) !== ours) {
    miss(MANIFEST_FILE, `parameters differ from this scorer's (${ours}): rescore with code_version ${manifest.code_version}`);
  }

  // Every file of the manifest: its bytes and hash, then its rows (read once, here).
  const contents = new Map<string, Buffer>();
  for (const [file, expected] of Object.entries(manifest.files)) {
    const data = await readFile(path.join(dir, file)).catch(() => null);
    if (!data) {
      miss(file, "missing");
      continue;
    }
    if (data.length !== expected.bytes) miss(file, `${data.length} bytes, the manifest says ${expected.bytes}`);
    const sha = sha256Hex(data);
    if (sha !== expected.sha256) miss(file, `SHA-256 ${sha}, the manifest says ${expected.sha256}`);
    contents.set(file, data);
  }
  const rowsOf = async (name: string, columns: readonly string[], each: (row: Row, at: Record<string, number>) => void): Promise<boolean> => {
    const file = dataFileName(name);
    const data = contents.get(file);
    if (!data) {
      if (!(file in manifest.files)) miss(MANIFEST_FILE, `lists no ${file}`);
      return false;
    }
    let at: Record<string, number> | null = null;
    let rows = -1;
    try {
      for await (const row of fileRows(data)) {
        if (rows++ < 0) {
          at = columnsOf({ file, header: row, wanted: columns, out: mismatches });
          if (!at) return false;
          continue;
        }
        each(row, at!);
      }
    } catch (err) {
      miss(file, `unreadable: ${(err as Error).message}`);
      return false;
    }
    if (rows < 0) miss(file, "empty: no header row");
    else if (rows !== manifest.files[file].rows) miss(file, `${rows} rows, the manifest says ${manifest.files[file].rows}`);
    return true;
  };

  // The files not rescored are still counted.
  const rescored = new Set(["claims", "votes", "bridging", "consensus_history"].map(dataFileName));
  for (const file of Object.keys(manifest.files)) {
    if (rescored.has(file) || !contents.has(file)) continue;
    await rowsOf(file.replace(/\.tsv\.gz$/, ""), [], () => {});
  }

  // The inputs: the claims published, and every vote.
  const claims: string[] = [];
  await rowsOf("claims", ["id"], (row, at) => claims.push(row[at.id] ?? ""));
  const inputs = new ScoringInputs();
  let votes = 0;
  await rowsOf("votes", ["claim", "voter", "value", "weight", "standing"], (row, at) => {
    votes++;
    inputs.add({
      claim: row[at.claim] ?? "",
      voter: row[at.voter] ?? "",
      value: Number(row[at.value]),
      weight: Number(row[at.weight]),
      standing: row[at.standing] === "true",
    });
  });

  // The outputs, recomputed.
  const { matrix, claimIds } = inputs.matrix();
  const fit = fitBridging(matrix);
  const bridging = bridgingRows(fit, claimIds, claims);
  const consensus = consensusRows(inputs, bridging);

  // … and compared with the files.
  const file = (name: string) => dataFileName(name);
  const published = <T>(name: string, expected: readonly { claim: string }[], compare: (row: Row, at: Record<string, number>, want: T) => string[], columns: readonly string[]) => {
    const want = new Map(expected.map((r) => [r.claim, r as unknown as T]));
    const seen = new Set<string>();
    return rowsOf(name, columns, (row, at) => {
      const claim = row[at.claim] ?? "";
      const w = want.get(claim);
      if (!w) return miss(file(name), `claim ${claim}: ${seen.has(claim) ? "a second row" : "not a claim of claims.tsv.gz"}`);
      seen.add(claim);
      want.delete(claim);
      for (const d of compare(row, at, w)) miss(file(name), `claim ${claim}: ${d}`);
    }).then((read) => {
      if (read) for (const claim of want.keys()) miss(file(name), `claim ${claim}: no row (the rescore has one)`);
    });
  };
  await published<BridgingRow>(
    "bridging",
    bridging,
    (row, at, w) => {
      const out: string[] = [];
      if (row[at.status] !== w.status) out.push(`status ${row[at.status]}, rescored ${w.status}`);
      if (numberCell(row[at.votes]) !== w.votes) out.push(`votes ${row[at.votes]}, rescored ${w.votes}`);
      for (const key of ["intercept", "factor", "score", "polarity"] as const) {
        if (!sameNumber(numberCell(row[at[key]]), w[key])) out.push(`${key} ${show(row[at[key]])}, rescored ${show(w[key])}`);
      }
      return out;
    },
    BRIDGING_COLUMNS,
  );
  await published<ConsensusRow>(
    "consensus_history",
    consensus,
    (row, at, w) => {
      const out: string[] = [];
      if (row[at.status] !== w.status) out.push(`status ${row[at.status]}, rescored ${w.status}`);
      if (row[at.decided_by] !== w.decided_by) out.push(`decided_by ${show(row[at.decided_by])}, rescored ${show(w.decided_by)}`);
      if (numberCell(row[at.voters]) !== w.voters) out.push(`voters ${row[at.voters]}, rescored ${w.voters}`);
      if (!sameNumber(numberCell(row[at.gradient]), w.gradient)) out.push(`gradient ${show(row[at.gradient])}, rescored ${show(w.gradient)}`);
      return out;
    },
    CONSENSUS_COLUMNS.filter((c) => c !== "since"),
  );
  return { mismatches, claims: claims.length, votes, fittedVotes: fit.fittedVotes, seconds: (performance.now() - started) / 1000 };
}

