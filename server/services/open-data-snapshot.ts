// Snapshots of the open data (docs/features/open-data.md): `npm run data:snapshot` and the `open-data`
// background task write, from one repeatable-read transaction, the inputs (claims, votes, arguments,
// relevance votes, evidence) as gzip TSV files, fit the bridging model on exactly those votes, publish
// that fit as the service's (services/bridging.ts), and write its outputs and every claim's consensus
// status (services/open-data-score.ts: the same functions the rescorer runs), then the manifest and its
// signature. Anyone can then recompute every verdict from the files alone.
//
// Privacy by construction: a voter is HMAC(secret, agent id); no email, no password data, no author,
// nothing hidden by a moderator, and nothing of deleted accounts (their votes go with them).
import { createHash, createHmac } from "node:crypto";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { config } from "../config.ts";
import { sqlTransaction, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import type { BridgingFit } from "../domain/bridging.ts";
import { processSingleton } from "../process-singleton.ts";
import { runBridgingFit } from "./bridging.ts";
import {
  dataFileName,
  MANIFEST_FILE,
  manifestBytes,
  scoringParameters,
  SCORER_VERSION,
  sha256Hex,
  SIGNATURE_FILE,
  signManifest,
  SNAPSHOT_NAME,
  snapshotName,
  tsvLine,
  type Cell,
  type Manifest,
  type ManifestFile,
} from "./open-data-format.ts";
import { signingKey } from "./open-data-key.ts";
import { BRIDGING_COLUMNS, bridgingCells, bridgingRows, CONSENSUS_COLUMNS, consensusRows, ScoringInputs, type BridgingRow } from "./open-data-score.ts";

/** Rows per FETCH of the snapshot's cursors. */
const FETCH_ROWS = 5_000;
/** How long a snapshot waits for a running fit (another instance's) before giving up. */
const FIT_LOCK_WAIT_MS = 10 * 60_000;

/** A timestamp column as the files write it: ISO 8601 in UTC, to the millisecond, whatever the backend. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type DbRow = Record<string, unknown>;

/** What a row's cells may use: the voters' pseudonyms, and where the rules' inputs are gathered. */
interface ReadContext {
  voter(agentId: string): string;
  inputs: ScoringInputs;
  /** The published claims, in id order. */
  claims: string[];
}

/** A file of inputs: one query, read in the snapshot's transaction. */
interface InputFile {
  name: string;
  columns: readonly string[];
  /** Its rows, in a fixed order (ORDER BY), at most one statement. */
  query: string;
  cells(row: DbRow, ctx: ReadContext): Cell[];
  /**
   * Rows sharing this column are written sorted by their voter (the second cell), not in the order of
   * the agents' ids, which would say something about who they are.
   */
  byVoterWithin?: string;
  /** Sees each row's cells as written (in the file's order). */
  read?(cells: Cell[], ctx: ReadContext): void;
}

/** A file of outputs, computed from the inputs once they are read. */
interface OutputFile {
  name: string;
  columns: readonly string[];
  rows(outputs: Outputs): Iterable<Cell[]>;
}

interface Outputs {
  bridging: BridgingRow[];
  consensus: ReturnType<typeof consensusRows>;
  /** When each claim's status began, as the service recorded it. */
  since: Map<string, string | null>;
}

const visible = (alias: string) => `${alias}.hidden_at IS NULL`;

/**
 * Every file of a snapshot, in the manifest's order. A new file is one entry here, and its columns in
 * docs/features/open-data.md (tests/unit/open-data-docs.test.ts checks them).
 */
export const SNAPSHOT_FILES: readonly (({ kind: "input" } & InputFile) | ({ kind: "output" } & OutputFile))[] = [
  {
    kind: "input",
    name: "claims",
    columns: ["id", "created_at", "statement", "tags", "complexity_tier", "resolved_at"],
    query: `SELECT c.id::text AS id, ${iso("c.created_at")} AS created_at, c.statement, array_to_string(c.tags, ',') AS tags,
              c.complexity_tier::text AS complexity_tier, ${iso("c.resolved_at")} AS resolved_at
            FROM claims c WHERE ${visible("c")} ORDER BY c.id`,
    cells: (r) => [r.id as string, r.created_at as string, r.statement as string, r.tags as string, r.complexity_tier as string, r.resolved_at as string | null],
    read: (cells, ctx) => void ctx.claims.push(cells[0] as string),
  },
  {
    // Every current vote, on hidden claims too: the bridging model is fitted on all of them, and the
    // rescore must fit the same votes (a hidden claim's id appears here, nothing else of it).
    kind: "input",
    name: "votes",
    columns: ["claim", "voter", "value", "weight", "created_at", "automated", "standing"],
    query: `SELECT v.claim_id::text AS claim, v.agent_id::text AS agent, v.value, v.weight, ${iso("v.created_at")} AS created_at,
              v.automated, v.counted FROM claim_votes v ORDER BY v.claim_id`,
    cells: (r, ctx) => [r.claim as string, ctx.voter(r.agent as string), Number(r.value), Number(r.weight), r.created_at as string, Boolean(r.automated), Boolean(r.counted)],
    byVoterWithin: "claim",
    read: (cells, ctx) =>
      ctx.inputs.add({ claim: cells[0] as string, voter: cells[1] as string, value: cells[2] as number, weight: cells[3] as number, standing: cells[6] as boolean }),
  },
  {
    kind: "input",
    name: "arguments",
    columns: ["id", "parent_claim", "child_claim", "stance", "created_at"],
    query: `SELECT a.id::text AS id, a.parent_claim_id::text AS parent, a.child_claim_id::text AS child, a.stance::text AS stance,
              ${iso("a.created_at")} AS created_at
            FROM arguments a JOIN claims p ON p.id = a.parent_claim_id JOIN claims c ON c.id = a.child_claim_id
            WHERE ${visible("p")} AND ${visible("c")} ORDER BY a.id`,
    cells: (r) => [r.id as string, r.parent as string, r.child as string, r.stance as string, r.created_at as string],
  },
  {
    kind: "input",
    name: "relevance_votes",
    columns: ["argument", "voter", "value", "created_at"],
    query: `SELECT r.argument_id::text AS argument, r.agent_id::text AS agent, r.value, ${iso("r.created_at")} AS created_at
            FROM relevance_votes r JOIN arguments a ON a.id = r.argument_id
              JOIN claims p ON p.id = a.parent_claim_id JOIN claims c ON c.id = a.child_claim_id
            WHERE ${visible("p")} AND ${visible("c")} ORDER BY r.argument_id`,
    cells: (r, ctx) => [r.argument as string, ctx.voter(r.agent as string), Number(r.value), r.created_at as string],
    byVoterWithin: "argument",
  },
  {
    kind: "input",
    name: "evidence",
    columns: ["id", "claim", "position", "content_type", "content", "title", "excerpt", "upvotes", "downvotes", "created_at"],
    query: `SELECT e.id::text AS id, e.claim_id::text AS claim, e.position::text AS position, e.content_type::text AS content_type,
              e.content, e.title, e.excerpt, e.upvotes, e.downvotes, ${iso("e.created_at")} AS created_at
            FROM evidence e JOIN claims c ON c.id = e.claim_id
            WHERE ${visible("e")} AND ${visible("c")} ORDER BY e.id`,
    cells: (r) => [
      r.id as string,
      r.claim as string,
      r.position as string,
      r.content_type as string,
      r.content as string,
      r.title as string | null,
      r.excerpt as string | null,
      Number(r.upvotes),
      Number(r.downvotes),
      r.created_at as string,
    ],
  },
  {
    // Checks against the world (docs/features/checks.md) on published claims: their terms, dates and
    // outcome; who proposed, disputed or settled is left out, as every author is.
    kind: "input",
    name: "outcomes",
    columns: ["claim", "criteria", "source_url", "close_at", "check_at", "stage", "proposed_outcome", "proposed_at", "disputed_at", "outcome", "final_at"],
    query: `SELECT k.claim_id::text AS claim, k.criteria, k.source_url, ${iso("k.close_at")} AS close_at, ${iso("k.check_at")} AS check_at,
              k.stage::text AS stage, k.proposed_outcome, ${iso("k.proposed_at")} AS proposed_at, ${iso("k.disputed_at")} AS disputed_at,
              k.outcome, ${iso("k.final_at")} AS final_at
            FROM claim_checks k JOIN claims c ON c.id = k.claim_id WHERE ${visible("c")} ORDER BY k.claim_id`,
    cells: (r) => [
      r.claim as string,
      r.criteria as string,
      r.source_url as string | null,
      r.close_at as string,
      r.check_at as string,
      r.stage as string,
      r.proposed_outcome as string | null,
      r.proposed_at as string | null,
      r.disputed_at as string | null,
      r.outcome as string | null,
      r.final_at as string | null,
    ],
  },
  {
    kind: "output",
    name: "consensus_history",
    columns: CONSENSUS_COLUMNS,
    *rows({ consensus, since }) {
      for (const r of consensus) yield [r.claim, r.status, r.decided_by, r.voters, r.gradient, since.get(r.claim) ?? null];
    },
  },
  {
    kind: "output",
    name: "bridging",
    columns: BRIDGING_COLUMNS,
    *rows({ bridging }) {
      for (const r of bridging) yield bridgingCells(r);
    },
  },
];

/** Where the snapshots live: DATA_SNAPSHOT_DIR, or DATA_DIR/snapshots. */
export function snapshotsDir(): string {
  const cfg = config();
  return path.resolve(/*turbopackIgnore: true*/ cfg.DATA_SNAPSHOT_DIR ?? path.join(cfg.DATA_DIR, "snapshots"));
}

/**
 * A voter's pseudonym: HMAC-SHA-256 of the agent id (128 bits of it, in hex) under a key derived from
 * WEBHOOK_SECRET_KEY, the one secret an operator never rotates (it would lose the webhook secrets): the
 * same voter has the same pseudonym in every snapshot, and nobody without the secret can tell who it is.
 */
export function voterPseudonyms(): (agentId: string) => string {
  const key = createHmac("sha256", config().WEBHOOK_SECRET_KEY).update("claims open data: voter pseudonyms").digest();
  const known = new Map<string, string>();
  return (agentId) => {
    let p = known.get(agentId);
    if (p === undefined) {
      p = createHmac("sha256", key).update(agentId).digest("hex").slice(0, 32);
      known.set(agentId, p);
    }
    return p;
  };
}

/** The version of the code that writes a snapshot: package.json's, and the commit when a git checkout is there. */
function codeVersion(): string {
  const root = process.cwd();
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return `${version}${gitCommit(root) ? `+${gitCommit(root)}` : ""}`;
}

function gitCommit(root: string): string | null {
  try {
    const head = readFileSync(path.join(root, ".git", "HEAD"), "utf8").trim();
    if (!head.startsWith("ref: ")) return head.slice(0, 12);
    const ref = head.slice(5);
    const loose = path.join(root, ".git", ref);
    if (existsSync(loose)) return readFileSync(loose, "utf8").trim().slice(0, 12);
    const packed = readFileSync(path.join(root, ".git", "packed-refs"), "utf8").split("\n").find((l) => l.endsWith(` ${ref}`));
    return packed ? packed.slice(0, 12) : null;
  } catch {
    return null;
  }
}

/** A gzip TSV file being written: its rows, bytes and SHA-256 as it goes. */
class TsvFile {
  private readonly gzip = createGzip({ level: 6 });
  private readonly hash = createHash("sha256");
  private readonly done: Promise<void>;
  private pending = "";
  private bytes = 0;
  /** Rows written, the header not counted. */
  rows = 0;

  constructor(file: string, columns: readonly string[]) {
    this.gzip.on("data", (chunk: Buffer) => {
      this.hash.update(chunk);
      this.bytes += chunk.length;
    });
    this.done = pipeline(this.gzip, createWriteStream(file));
    void this.done.catch(() => {}); // awaited in close()
    this.pending = tsvLine(columns);
  }

  async write(cells: readonly Cell[]): Promise<void> {
    this.rows++;
    this.pending += tsvLine(cells);
    if (this.pending.length >= 1 << 16) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = "";
    if (!this.gzip.write(chunk)) await once(this.gzip, "drain");
  }

  async close(): Promise<ManifestFile> {
    await this.flush();
    this.gzip.end();
    await this.done;
    return { sha256: this.hash.digest("hex"), rows: this.rows, bytes: this.bytes };
  }
}

/** One query's rows through a cursor, FETCH_ROWS at a time. */
async function forEachRow(tx: SqlTx, query: string, each: (row: DbRow) => Promise<void>): Promise<void> {
  await tx.execute(Prisma.raw(`DECLARE snapshot_rows NO SCROLL CURSOR FOR ${query}`));
  for (;;) {
    const rows = await tx.query<DbRow>(Prisma.raw(`FETCH ${FETCH_ROWS} FROM snapshot_rows`));
    for (const row of rows) await each(row);
    if (rows.length < FETCH_ROWS) break;
  }
  await tx.execute(Prisma.raw("CLOSE snapshot_rows"));
}

/** Writes one input file from its query; returns its manifest entry. */
async function writeInputFile(tx: SqlTx, { dir, file, ctx }: { dir: string; file: InputFile; ctx: ReadContext }): Promise<ManifestFile> {
  const out = new TsvFile(path.join(dir, dataFileName(file.name)), file.columns);
  let group: { key: unknown; rows: Cell[][] } = { key: undefined, rows: [] };
  const emit = async (cells: Cell[]) => {
    await out.write(cells);
    file.read?.(cells, ctx);
  };
  const flushGroup = async () => {
    group.rows.sort((a, b) => ((a[1] as string) < (b[1] as string) ? -1 : (a[1] as string) > (b[1] as string) ? 1 : 0));
    for (const cells of group.rows) await emit(cells);
  };
  await forEachRow(tx, file.query, async (row) => {
    const cells = file.cells(row, ctx);
    if (!file.byVoterWithin) return emit(cells);
    if (row[file.byVoterWithin] !== group.key) {
      await flushGroup();
      group = { key: row[file.byVoterWithin], rows: [] };
    }
    group.rows.push(cells);
  });
  await flushGroup();
  return out.close();
}

export interface SnapshotOptions {
  /** Write into this folder (created; must be empty) instead of a new one under snapshotsDir(). */
  out?: string;
  /** An operator's command: the fit at the caller's priority, its writes unpaced (runBridgingFit's foreground). */
  foreground?: boolean;
  /** Fit on this thread (tests). */
  inline?: boolean;
}

export interface SnapshotResult {
  dir: string;
  name: string;
  manifest: Manifest;
  seconds: { read: number; fit: number; total: number };
}

/**
 * Takes a snapshot. Its inputs are read in one REPEATABLE READ transaction (its cutoff is that
 * transaction's start), the bridging model fitted on exactly the votes read and that fit published as
 * the service's (the statuses it changes restated, as after any fit), and the outputs written from the
 * same inputs and fit. Then the manifest and its signature; under snapshotsDir(), the folder appears
 * whole (renamed into place) and the oldest beyond DATA_SNAPSHOTS_KEPT go.
 */
export async function takeSnapshot(options: SnapshotOptions = {}): Promise<SnapshotResult> {
  const started = performance.now();
  const cfg = config();
  const base = snapshotsDir();
  const dir = options.out ? path.resolve(options.out) : path.join(base, `.partial-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  if ((await readdir(dir)).length > 0) throw new Error(`${dir} is not empty: a snapshot is written into an empty folder`);
  try {
    const pseudonym = voterPseudonyms();
    // Who is behind each pseudonym, in memory only: the fit is published under the agents' ids.
    const agentOf = new Map<string, string>();
    const voter = (agentId: string) => {
      const p = pseudonym(agentId);
      agentOf.set(p, agentId);
      return p;
    };
    const ctx: ReadContext = { voter, inputs: new ScoringInputs(), claims: [] };
    const files: Record<string, ManifestFile> = {};
    const stored = new Map<string, { status: string; since: string | null }>();

    // 1. The inputs, from one snapshot of the database.
    const cutoff = await sqlTransaction(async (tx) => {
      await tx.execute(Prisma.raw("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
      await tx.execute(Prisma.raw("SET LOCAL statement_timeout = 0"));
      const [{ now }] = await tx.query<{ now: string }>(Prisma.raw(`SELECT ${iso("now()")} AS now`));
      for (const file of SNAPSHOT_FILES) {
        if (file.kind === "input") files[dataFileName(file.name)] = await writeInputFile(tx, { dir, file, ctx });
      }
      await forEachRow(tx, `SELECT id::text AS id, consensus_status::text AS status, ${iso("consensus_since")} AS since FROM claims WHERE ${visible("claims")}`, async (r) => {
        stored.set(r.id as string, { status: r.status as string, since: r.since as string | null });
      });
      return now;
    });
    const readSeconds = (performance.now() - started) / 1000;

    // 2. The model fitted on exactly those votes, published as the service's.
    const { matrix, claimIds, agentIds } = ctx.inputs.matrix();
    const fitStarted = performance.now();
    const fit = await fitAndPublish({ matrix, claimIds, agentIds: agentIds.map((p) => agentOf.get(p)!) }, options);
    const fitSeconds = (performance.now() - fitStarted) / 1000;

    // 3. The outputs: the same functions as the rescorer's, on the same inputs and fit.
    const claims = [...ctx.claims].sort();
    const bridging = bridgingRows(fit, claimIds, claims);
    const consensus = consensusRows(ctx.inputs, bridging);
    const since = await statusSince(consensus, stored);
    for (const file of SNAPSHOT_FILES) {
      if (file.kind !== "output") continue;
      const out = new TsvFile(path.join(dir, dataFileName(file.name)), file.columns);
      for (const cells of file.rows({ bridging, consensus, since })) await out.write(cells);
      files[dataFileName(file.name)] = await out.close();
    }

    // 4. The manifest, signed.
    const manifest: Manifest = {
      created_at: new Date().toISOString(),
      cutoff,
      code_version: codeVersion(),
      scorer_version: SCORER_VERSION,
      parameters: scoringParameters({
        min_age_seconds: cfg.STANDING_MIN_AGE_SECONDS,
        min_votes: cfg.STANDING_MIN_VOTES,
        require_verified: cfg.STANDING_REQUIRE_VERIFIED,
      }),
      files,
    };
    const bytes = manifestBytes(manifest);
    await writeFile(path.join(dir, MANIFEST_FILE), bytes);
    await writeFile(path.join(dir, SIGNATURE_FILE), signManifest(bytes, signingKey()));

    const name = snapshotName(new Date(cutoff));
    let final = dir;
    if (!options.out) {
      final = path.join(base, name);
      await rm(final, { recursive: true, force: true }); // a snapshot of the same second, taken again
      await rename(dir, final);
      listings().delete(name);
      await pruneSnapshots();
    }
    return { dir: final, name, manifest, seconds: { read: readSeconds, fit: fitSeconds, total: (performance.now() - started) / 1000 } };
  } catch (err) {
    if (!options.out) await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Fits the snapshot's votes through the service's own full fit (services/bridging.ts), which writes the
 * results: waits while another fit holds its lock.
 */
async function fitAndPublish(votes: { matrix: ReturnType<ScoringInputs["matrix"]>["matrix"]; claimIds: string[]; agentIds: string[] }, options: SnapshotOptions): Promise<BridgingFit> {
  const deadline = Date.now() + FIT_LOCK_WAIT_MS;
  for (;;) {
    let fit: BridgingFit | null = null;
    const summary = await runBridgingFit({ votes, onFit: (f) => (fit = f), foreground: options.foreground, inline: options.inline });
    if (summary && fit) return fit;
    if (Date.now() > deadline) throw new Error("the bridging fit's lock stayed taken: no snapshot");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/**
 * When each claim's status began, as the service recorded it: read after the fit was published, when
 * the claim still has the snapshot's status; else (a vote moved it since) as of the cutoff, if that
 * was the same status; else unknown.
 */
async function statusSince(consensus: ReturnType<typeof consensusRows>, atCutoff: Map<string, { status: string; since: string | null }>): Promise<Map<string, string | null>> {
  const now = new Map<string, { status: string; since: string | null }>();
  await sqlTransaction((tx) =>
    forEachRow(tx, `SELECT id::text AS id, consensus_status::text AS status, ${iso("consensus_since")} AS since FROM claims WHERE ${visible("claims")}`, async (r) => {
      now.set(r.id as string, { status: r.status as string, since: r.since as string | null });
    }),
  );
  const since = new Map<string, string | null>();
  for (const { claim, status } of consensus) {
    const after = now.get(claim);
    const before = atCutoff.get(claim);
    since.set(claim, after?.status === status ? after.since : before?.status === status ? before.since : null);
  }
  return since;
}

// ---- the kept snapshots ----

export interface SnapshotListing {
  name: string;
  manifest: Manifest;
  /** The manifest's and signature's sizes and SHA-256, for their downloads. */
  extra: Record<string, ManifestFile>;
  /** Every file together. */
  bytes: number;
}

/** Manifests of snapshots already read (a snapshot never changes once it is in place). */
const listings = () => processSingleton("claims.openDataListings", () => new Map<string, SnapshotListing>());

async function readListing(name: string): Promise<SnapshotListing | null> {
  const cached = listings().get(name);
  if (cached) return cached;
  const dir = path.join(snapshotsDir(), name);
  try {
    const bytes = await readFile(path.join(dir, MANIFEST_FILE));
    const signature = await readFile(path.join(dir, SIGNATURE_FILE));
    const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
    const extra = {
      [MANIFEST_FILE]: { sha256: sha256Hex(bytes), rows: 0, bytes: bytes.length },
      [SIGNATURE_FILE]: { sha256: sha256Hex(signature), rows: 0, bytes: signature.length },
    };
    const listing: SnapshotListing = {
      name,
      manifest,
      extra,
      bytes: [...Object.values(manifest.files), ...Object.values(extra)].reduce((n, f) => n + f.bytes, 0),
    };
    listings().set(name, listing);
    return listing;
  } catch {
    return null;
  }
}

/** The kept snapshots, newest first. */
export async function listSnapshots(): Promise<SnapshotListing[]> {
  const names = await readdir(snapshotsDir()).catch(() => [] as string[]);
  const found = await Promise.all(names.filter((n) => SNAPSHOT_NAME.test(n)).sort().reverse().map(readListing));
  return found.filter((l): l is SnapshotListing => l !== null);
}

/** A file of a kept snapshot, if the snapshot exists and lists it; null otherwise (never a path outside it). */
export async function snapshotFile(name: string, file: string): Promise<{ path: string; sha256: string; bytes: number } | null> {
  if (!SNAPSHOT_NAME.test(name)) return null;
  const listing = await readListing(name);
  const entry = listing && (Object.hasOwn(listing.manifest.files, file) ? listing.manifest.files[file] : Object.hasOwn(listing.extra, file) ? listing.extra[file] : null);
  if (!entry) return null;
  const at = path.join(snapshotsDir(), name, file);
  const size = await stat(at).then((s) => s.size, () => null);
  return size === entry.bytes ? { path: at, sha256: entry.sha256, bytes: size } : null;
}

/** Removes the snapshots beyond the newest DATA_SNAPSHOTS_KEPT, and folders a crashed snapshot left. */
export async function pruneSnapshots(): Promise<string[]> {
  const base = snapshotsDir();
  const names = await readdir(base).catch(() => [] as string[]);
  const kept = names.filter((n) => SNAPSHOT_NAME.test(n)).sort().reverse();
  const removed = kept.slice(config().DATA_SNAPSHOTS_KEPT);
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const n of names.filter((n) => n.startsWith(".partial-"))) {
    const s = await stat(path.join(base, n)).catch(() => null);
    if (s && s.mtimeMs < dayAgo) removed.push(n);
  }
  for (const n of removed) {
    listings().delete(n);
    await rm(path.join(base, n), { recursive: true, force: true });
  }
  return removed;
}
