// `npm run bench:open-data`: the open data (docs/features/open-data.md) — how long a snapshot and its
// rescore take and how much memory each holds, each in a process of its own (its wall time and max RSS):
//   - on a seeded PostgreSQL database (bench/seed.ts, scaled to --votes): `npm run data:snapshot -- --out`
//     (read in one transaction, fit, publish, write), then `npm run data:score` on what it wrote;
//   - with --synthetic, no database: a snapshot's files written straight from a simulated electorate
//     (camps, claims both accept or reject, partisan claims), its outputs computed by the rescorer's own
//     functions and signed, then `npm run data:score` on them. The rescore's figure at sizes a seeded
//     database would take long to reach.
// The rescore runs pinned to one core (taskset) where the system has it.
//
//   npm run bench:open-data -- [--votes <n>] [--synthetic] [--pg <url>] [--reuse <database>] [--keep]
// --votes: 1,000,000 by default (the benchmark data set); CI runs a small one (--votes 20000).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { fitBridging, seededRandom } from "../server/domain/bridging.ts";
import { dataFileName, manifestBytes, scoringParameters, SCORER_VERSION, sha256Hex, signManifest, tsvLine, type Cell, type Manifest } from "../server/services/open-data-format.ts";
import { bridgingCells, bridgingRows, consensusRows, ScoringInputs } from "../server/services/open-data-score.ts";
import { adminQuery, databaseUrl, seedDatabase } from "./orchestration.ts";
import { scaledSizes } from "./bridging.ts";
import { log } from "./log.ts";
import { ROOT } from "./options.ts";

export interface OpenDataBenchReport {
  votes: number;
  mode: "database" | "synthetic";
  snapshot: { seconds: number; maxRssMb: number; output: string } | null;
  /** `seconds`: the process, start-up included; `ownSeconds`: what the rescorer reports for its work. */
  rescore: { seconds: number; ownSeconds: number; maxRssMb: number; output: string; oneCore: boolean };
  bytes: number;
}

interface Run {
  seconds: number;
  maxRssMb: number;
  output: string;
}

const hasTaskset = () => spawnSync("taskset", ["-c", "0", "true"]).status === 0;

/** A command of ours in a process of its own (tsx), with its wall time and max RSS (from /usr/bin/time's report or the command's own line). */
function runTool(script: string, args: string[], env: NodeJS.ProcessEnv, oneCore = false): Promise<Run> {
  const node = [process.execPath, "--import", "tsx", script, ...args];
  const command = oneCore ? ["taskset", "-c", "0", ...node] : node;
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile(command[0], command.slice(1), { cwd: ROOT, env, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (err) return reject(new Error(`${script} failed: ${output}`));
      const mb = /peak memory (\d+) MB/.exec(output);
      resolve({ seconds: (performance.now() - started) / 1000, maxRssMb: mb ? Number(mb[1]) : NaN, output });
    }),
  );
}

const uuid = (prefix: number, n: number) => `${prefix.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/**
 * A snapshot folder from a simulated electorate, no database: 20 votes per agent and 10 per claim (the
 * benchmark data set's proportions), two camps, claims both accept or reject and partisan ones.
 * Returns the public key's PEM.
 */
function writeSyntheticSnapshot(dir: string, votes: number): string {
  const agents = Math.max(20, Math.round(votes / 50));
  const claims = Math.max(5, Math.round(votes / 10));
  const random = seededRandom(2026);
  const camp = Array.from({ length: agents }, () => (random() < 0.6 ? 1 : -1));
  const voterName = (a: number) => sha256Hex(`voter ${a}`).slice(0, 32);
  const files: Record<string, { sha256: string; rows: number; bytes: number }> = {};
  const write = (name: string, columns: readonly string[], rows: Cell[][]) => {
    const bytes = gzipSync([tsvLine(columns), ...rows.map(tsvLine)].join(""));
    writeFileSync(path.join(dir, dataFileName(name)), bytes);
    files[dataFileName(name)] = { sha256: sha256Hex(bytes), rows: rows.length, bytes: bytes.length };
  };
  const claimIds = Array.from({ length: claims }, (_, c) => uuid(1, c));
  write(
    "claims",
    ["id", "created_at", "statement", "tags", "complexity_tier", "resolved_at"],
    claimIds.map((id, c) => [id, "2026-11-01T00:00:00.000Z", `Simulated claim number ${c}.`, "bench", "simple", null]),
  );
  // Each claim's votes by distinct agents, in (claim, voter) order as a snapshot writes them.
  const inputs = new ScoringInputs();
  const voteRows: Cell[][] = [];
  const perClaim = Math.max(1, Math.round(votes / claims));
  for (let c = 0; c < claims; c++) {
    const kind = c % 4; // both accept, both reject, partisan either way
    const voters = new Set<number>();
    while (voters.size < Math.min(perClaim, agents)) voters.add(Math.floor(random() * agents));
    const rows = [...voters].map((a) => {
      const base = kind === 0 ? 0.85 : kind === 1 ? 0.15 : 0.5 + (kind === 2 ? 0.4 : -0.4) * camp[a];
      const value = Math.round(Math.min(1, Math.max(0, base + (random() - 0.5) * 0.3)) * 100) / 100;
      return [claimIds[c], voterName(a), value, 1 + Math.round(random() * 300) / 100, "2026-11-02T00:00:00.000Z", false, random() < 0.95] as Cell[];
    });
    rows.sort((x, y) => ((x[1] as string) < (y[1] as string) ? -1 : 1));
    for (const r of rows) {
      voteRows.push(r);
      inputs.add({ claim: r[0] as string, voter: r[1] as string, value: r[2] as number, weight: r[3] as number, standing: r[6] as boolean });
    }
  }
  write("votes", ["claim", "voter", "value", "weight", "created_at", "automated", "standing"], voteRows);
  write("arguments", ["id", "parent_claim", "child_claim", "stance", "created_at"], []);
  write("relevance_votes", ["argument", "voter", "value", "created_at"], []);
  write("evidence", ["id", "claim", "position", "content_type", "content", "title", "excerpt", "upvotes", "downvotes", "created_at"], []);
  const { matrix, claimIds: fitted } = inputs.matrix();
  const bridging = bridgingRows(fitBridging(matrix), fitted, claimIds);
  const consensus = consensusRows(inputs, bridging);
  write("consensus_history", ["claim", "status", "decided_by", "voters", "gradient", "since"], consensus.map((r) => [r.claim, r.status, r.decided_by, r.voters, r.gradient, null]));
  write("bridging", ["claim", "votes", "intercept", "factor", "score", "polarity", "status"], bridging.map(bridgingCells));
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const manifest: Manifest = {
    created_at: new Date().toISOString(),
    cutoff: new Date().toISOString(),
    code_version: "bench",
    scorer_version: SCORER_VERSION,
    parameters: scoringParameters({ min_age_seconds: 0, min_votes: 0, require_verified: false }),
    files,
  };
  const bytes = manifestBytes(manifest);
  writeFileSync(path.join(dir, "manifest.json"), bytes);
  writeFileSync(path.join(dir, "manifest.sig"), signManifest(bytes, privateKey));
  return publicKey.export({ type: "spki", format: "pem" }) as string;
}

const totalBytes = (output: string) => [...output.matchAll(/rows\s+(\d+) bytes/g)].reduce((n, m) => n + Number(m[1]), 0);

export async function benchOpenData(opts: { votes: number; synthetic: boolean; env: NodeJS.ProcessEnv }): Promise<OpenDataBenchReport> {
  const work = mkdtempSync(path.join(tmpdir(), "claims-open-data-bench-"));
  const dir = path.join(work, "snapshot");
  const keyFile = path.join(work, "key.pem");
  const oneCore = hasTaskset();
  try {
    let snapshot: Run | null = null;
    let bytes = 0;
    if (opts.synthetic) {
      const { mkdirSync } = await import("node:fs");
      mkdirSync(dir);
      const started = performance.now();
      writeFileSync(keyFile, writeSyntheticSnapshot(dir, opts.votes));
      log(`synthetic snapshot of ${opts.votes} votes written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } else {
      snapshot = await runTool("server/cli/data-snapshot.ts", ["--out", dir], opts.env);
      bytes = totalBytes(snapshot.output);
      // The key the snapshot's process signed with: its DATA_DIR's, read in a process with its env
      // (this process's own config may name another DATA_DIR, whose key would not verify).
      const script = `import("./server/services/open-data-key.ts").then((k) => process.stdout.write(k.publicKeyPem(k.signingKey())))`;
      writeFileSync(keyFile, execFileSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, env: opts.env, encoding: "utf8" }));
    }
    const rescore = await runTool("server/cli/data-score.ts", [dir, "--key", keyFile], opts.env, oneCore);
    if (!/every verdict match/.test(rescore.output)) throw new Error(`the rescore found mismatches:\n${rescore.output.slice(0, 4000)}`);
    if (!bytes) {
      const { readdirSync, statSync } = await import("node:fs");
      bytes = readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
    }
    const ownSeconds = Number(/rescored in ([\d.]+) s/.exec(rescore.output)?.[1] ?? NaN);
    // A database's own count (a reused one's size is not known before).
    const votes = Number(/votes\.tsv\.gz\s+(\d+) rows/.exec(snapshot?.output ?? "")?.[1] ?? opts.votes);
    return { votes, mode: opts.synthetic ? "synthetic" : "database", snapshot, rescore: { ...rescore, ownSeconds, oneCore }, bytes };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function printOpenDataReport(r: OpenDataBenchReport): void {
  const ok = (pass: boolean) => (pass ? "✓" : "✗");
  // At a million votes: the same start-up, and the rescoring itself in proportion to the votes.
  const atMillion = r.rescore.seconds - r.rescore.ownSeconds + (r.rescore.ownSeconds * 1_000_000) / r.votes;
  console.log(`
Open data, ${r.votes.toLocaleString("en-US")} votes (${r.mode === "synthetic" ? "a simulated electorate, no database" : "the seeded benchmark database"}; ${(r.bytes / 2 ** 20).toFixed(1)} MB of files)
| measure | value | target |
|---|---|---|
${r.snapshot ? `| \`npm run data:snapshot\` (read, fit and publish, write; a process of its own) | ${r.snapshot.seconds.toFixed(1)} s, peak ${r.snapshot.maxRssMb} MB | – |\n` : ""}| \`npm run data:score\` (verify, refit, restate; ${r.rescore.oneCore ? "pinned to one core" : "not pinned"}) | ${r.rescore.seconds.toFixed(1)} s (${r.rescore.ownSeconds.toFixed(1)} s of it rescoring, the rest Node and tsx starting), peak ${r.rescore.maxRssMb} MB | < 60 s for 1M ${ok(atMillion < 60)} (${r.votes === 1_000_000 ? "measured" : `${atMillion.toFixed(1)} s at 1M, in proportion`}) |`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      votes: { type: "string", default: "1000000" },
      synthetic: { type: "boolean", default: false },
      reuse: { type: "string" },
      keep: { type: "boolean", default: false },
      pg: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    },
  });
  const votes = Number(values.votes!.replace(/_/g, ""));
  const dataDir = mkdtempSync(path.join(tmpdir(), "claims-open-data-bench-data-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789",
    NEXTAUTH_SECRET: "bench-nextauth-secret-bench-nextauth-0123456",
    WEBHOOK_SECRET_KEY: "bench-webhook-key-bench-webhook-key-01234567",
    DATABASE_STATEMENT_TIMEOUT_MS: "0",
    LOG_LEVEL: "error",
  };
  let database: string | null = null;
  try {
    if (!values.synthetic) {
      database = values.reuse ?? `bench_open_data_${Date.now()}`;
      env.DATABASE_URL = databaseUrl(values.pg!, database);
      Object.assign(process.env, env);
      if (!values.reuse) {
        await adminQuery(values.pg!, `CREATE DATABASE "${database}"`);
        await seedDatabase(env.DATABASE_URL, scaledSizes(votes));
      }
    } else Object.assign(process.env, env);
    printOpenDataReport(await benchOpenData({ votes, synthetic: values.synthetic!, env }));
  } finally {
    if (database) {
      const { closeDb } = await import("../server/db/client.ts");
      await closeDb();
      if (!values.reuse && !values.keep) await adminQuery(values.pg!, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      else log(`kept ${database}`);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
