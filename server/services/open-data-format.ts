// The open data's format (docs/features/open-data.md): gzip TSV files with a header row, the manifest and
// its Ed25519 signature, the snapshots' names, and the parameters a snapshot is scored with. Shared by the
// snapshot (services/open-data-snapshot.ts), the rescorer (services/open-data-score.ts), which needs no
// database, and the downloads (server/http/open-data.ts). No database here.
import { createHash, sign, verify, type KeyObject } from "node:crypto";
import { DEFAULT_BRIDGING_OPTIONS, DEFAULT_BRIDGING_THRESHOLDS } from "../domain/bridging.ts";
import { MIN_CONSENSUS_VOTERS } from "../domain/consensus.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW } from "../domain/gradient.ts";

/**
 * What the rescorer checks and how (the files it reads, their columns, what counts as a mismatch).
 * Raised when that changes; a snapshot names the version it was written for.
 */
export const SCORER_VERSION = 1;

export const MANIFEST_FILE = "manifest.json";
export const SIGNATURE_FILE = "manifest.sig";

/** A data file's name on disk and in the manifest: `votes` → `votes.tsv.gz`. */
export const dataFileName = (name: string) => `${name}.tsv.gz`;

/** A snapshot is named by its cutoff, in UTC to the second: 20261128T120000Z. */
export const SNAPSHOT_NAME = /^\d{8}T\d{6}Z$/;

export function snapshotName(cutoff: Date): string {
  return cutoff.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

export interface ManifestFile {
  sha256: string;
  rows: number;
  bytes: number;
}

export interface Manifest {
  /** When the snapshot was written (ISO 8601). */
  created_at: string;
  /** The moment its inputs are read at: one repeatable-read transaction (ISO 8601, the database's clock). */
  cutoff: string;
  /** The service's version and commit that wrote it: rescore with the same. */
  code_version: string;
  scorer_version: number;
  parameters: ScoringParameters;
  /** Every data file (`claims.tsv.gz`, …): its SHA-256 (hex), rows without the header, and size. */
  files: Record<string, ManifestFile>;
}

/** The rules' parameters a snapshot was scored with: the bridging model's and the consensus rule's, and the standing rule in force. */
export interface ScoringParameters {
  bridging: { options: typeof DEFAULT_BRIDGING_OPTIONS; thresholds: typeof DEFAULT_BRIDGING_THRESHOLDS };
  consensus: { min_voters: number; true_above: number; false_below: number };
  standing: { min_age_seconds: number; min_votes: number; require_verified: boolean };
}

/** This code's parameters (the standing rule is the deployment's: an input, recorded, not rescored). */
export function scoringParameters(standing: ScoringParameters["standing"]): ScoringParameters {
  return {
    bridging: { options: { ...DEFAULT_BRIDGING_OPTIONS }, thresholds: { ...DEFAULT_BRIDGING_THRESHOLDS } },
    consensus: { min_voters: MIN_CONSENSUS_VOTERS, true_above: CONSENSUS_HIGH, false_below: CONSENSUS_LOW },
    standing,
  };
}

/** The parameters the rescorer applies (everything but the standing rule), to compare with a manifest's. */
export function rescoredParameters(p: ScoringParameters): Omit<ScoringParameters, "standing"> {
  return { bridging: p.bridging, consensus: p.consensus };
}

/** The manifest's bytes as written and signed: pretty JSON, keys in the order above, one final newline. */
export function manifestBytes(manifest: Manifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
}

/** manifest.sig: the base64 of the raw Ed25519 signature of manifest.json's bytes. */
export function signManifest(bytes: Buffer, privateKey: KeyObject): string {
  return sign(null, bytes, privateKey).toString("base64");
}

export function manifestSignatureValid(bytes: Buffer, signature: string, publicKey: KeyObject): boolean {
  try {
    return verify(null, bytes, publicKey, Buffer.from(signature.trim(), "base64"));
  } catch {
    return false;
  }
}

export const sha256Hex = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

// ---- TSV ----

/** A cell as written: text, a number (shortest exact form), a boolean (true/false), or null (\N). */
export type Cell = string | number | boolean | null;

const NULL_CELL = "\\N";
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
const UNESCAPES: Record<string, string> = { "\\": "\\", t: "\t", n: "\n", r: "\r" };

/**
 * One line of a file, PostgreSQL COPY's text format: tab-separated, a backslash, tab, line feed or
 * carriage return inside a cell escaped (\\, \t, \n, \r), null as \N, numbers in JavaScript's shortest
 * form that reads back to the same double.
 */
export function tsvLine(cells: readonly Cell[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (i > 0) line += "\t";
    if (c === null) line += NULL_CELL;
    else if (typeof c === "string") line += c.replace(/[\\\t\n\r]/g, (ch) => ESCAPES[ch]);
    else line += String(c);
  }
  return `${line}\n`;
}

/** The cells of one line (without its line feed): text, or null for \N. */
export function parseTsvLine(line: string): (string | null)[] {
  return line.split("\t").map((cell) => (cell === NULL_CELL ? null : cell.includes("\\") ? cell.replace(/\\(.)/g, (_, ch: string) => UNESCAPES[ch] ?? ch) : cell));
}
