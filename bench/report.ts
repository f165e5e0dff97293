// The report: targets met or missed per endpoint, the table printed at the end, the CPU profile
// summaries (--cpu-prof) and the figures written to bench/results/<timestamp>.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProfileSummary } from "./cpu-profile.ts";
import { PAGE_TARGETS, type PageTarget } from "./endpoints.ts";
import type { Endpoint, ResponseBytes, RunFigures } from "./load.ts";
import { RESULTS_DIR, ROOT, type Options } from "./options.ts";
import type { Server } from "./orchestration.ts";
import type { SeedReport } from "./seed.ts";
import { WEBHOOK_P99_TARGET_MS, type LatencyFigures } from "./webhook-latency.ts";

/**
 * The targets a run is judged by (reported, never failed on): every API read ≥ 0.75× the bare
 * yardstick and the cached statistics ≥ 0.5×; votes ≥ 0.75× and ≥ 500/s; peak RSS < 400 MB
 * (docs/benchmarks/README.md). The p99 line is the earlier round's, at the bench's 32 connections.
 */
export const TARGETS = { readRatio: 0.75, statsRatio: 0.5, voteRatio: 0.75, readP99Ms: 50, votesPerSecond: 500, rssMb: 400 };

export interface EndpointReport {
  name: string;
  label: string;
  kind: Endpoint["kind"];
  ours: RunFigures | null;
  bare: RunFigures | null;
  ratio: number | null;
  missed: string[];
  skipped?: string;
  /** With --cpu-prof: where each server's CPU went during the measured run. */
  profile?: ProfileSummary;
  bareProfile?: ProfileSummary;
}

/** A row of the page table: a page (or the yardstick) on our server, against the yardstick's req/s. */
export interface PageReport {
  name: string;
  label: string;
  kind: "page" | "static";
  signedIn: boolean;
  connections: number;
  ours: RunFigures | null;
  /** One response's HTML: bytes uncompressed, and gzip'd when the server compresses. */
  html: ResponseBytes | null;
  /** ours / the yardstick's req/s (same server, same run). */
  ratio: number | null;
  target: PageTarget | null;
  missed: string[];
  skipped?: string;
  profile?: ProfileSummary;
}

export function judgePage(r: PageReport): string[] {
  const missed: string[] = [];
  if (!r.ours) return missed;
  const errors = r.ours.errors + r.ours.non2xx;
  if (errors > 0) missed.push(`${errors} errors`);
  if (r.ours.requests === 0) missed.push("no response completed in the run (longer --duration)");
  else if (r.target) {
    if (r.ratio !== null && r.ratio < r.target.ratio) missed.push(`ratio < ${r.target.ratio}`);
    if (r.target.p99Ms !== undefined && r.ours.p99 >= r.target.p99Ms) missed.push(`p99 >= ${r.target.p99Ms} ms`);
  }
  return missed;
}

export function judge(r: EndpointReport): string[] {
  const missed: string[] = [];
  if (!r.ours) return missed;
  const errors = r.ours.errors + r.ours.non2xx;
  if (errors > 0) missed.push(`${errors} errors`);
  if (r.ours.requests === 0) missed.push("no response completed in the run");
  else if (r.kind === "vote") {
    if (r.ours.requestsPerSecond < TARGETS.votesPerSecond) missed.push(`< ${TARGETS.votesPerSecond}/s`);
    if (r.ratio !== null && r.ratio < TARGETS.voteRatio) missed.push(`ratio < ${TARGETS.voteRatio}`);
  } else {
    const ratioTarget = r.name === "stats" ? TARGETS.statsRatio : TARGETS.readRatio;
    if (r.ratio !== null && r.ratio < ratioTarget) missed.push(`ratio < ${ratioTarget}`);
    if (r.ours.p99 >= TARGETS.readP99Ms) missed.push(`p99 >= ${TARGETS.readP99Ms} ms`);
  }
  return missed;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export interface FollowFigures {
  webhookLatency: LatencyFigures | null;
  fanOutDrainSeconds: number | null;
}

const fmt = (n: number | undefined | null, digits = 0) => (n === undefined || n === null ? "-" : n.toFixed(digits));

/** The columns both tables share: req/s, p50, p99, errors, SQL statements and CPU ms per request. */
function measuredCells(o: RunFigures): string[] {
  return [fmt(o.requestsPerSecond), fmt(o.p50), fmt(o.p99), String(o.errors + o.non2xx), fmt(o.queriesPerRequest, 1), fmt(o.cpuMsPerRequest, 2)];
}
const kb = (bytes: number | null | undefined) => (bytes === null || bytes === undefined ? "-" : `${(bytes / 1024).toFixed(1)} KB`);

export function printPageReport(pages: PageReport[]) {
  if (pages.length === 0) return;
  const rows = [["page", "req/s", "p50", "p99", "err", "q/req", "cpu ms/req", "HTML", "gzip", "ratio", "target", "result"]];
  for (const r of pages) {
    const target = r.target ? `>= ${r.target.ratio}x${r.target.p99Ms !== undefined ? `, p99 < ${r.target.p99Ms}` : ""}` : r.kind === "static" ? "yardstick" : "-";
    if (r.skipped || !r.ours) {
      rows.push([r.label, ...Array(9).fill("-"), target, r.skipped ?? "not run"]);
      continue;
    }
    rows.push([
      r.label,
      ...measuredCells(r.ours),
      kb(r.html?.bytes),
      kb(r.html?.gzipBytes),
      r.ratio === null ? "-" : r.ratio.toFixed(2),
      target,
      r.missed.length ? `MISSED: ${r.missed.join(", ")}` : r.target || r.kind === "static" ? "met" : "(no target)",
    ]);
  }
  const connections = [...new Set(pages.map((p) => p.connections))].join("/");
  console.log(`\nPages (${connections} connections; ratio = req/s / the yardstick's req/s, same server, same run)\n${table(rows)}`);
  console.log(
    "(latencies in ms; err = socket errors + timeouts + non-2xx; HTML = one response's body, uncompressed; gzip = the same for a client accepting gzip, - when not compressed; " +
      "the load itself sends no Accept-Encoding)",
  );
}

export function printReport(reports: EndpointReport[], ours: Server, bare: Server | null, counters: string[] | null, follow?: FollowFigures) {
  const rows = [["endpoint", "req/s", "p50", "p99", "err", "q/req", "cpu ms/req", "bare req/s", "bare p99", "bare q/req", "bare cpu ms/req", "ratio", "targets"]];
  for (const r of reports) {
    if (r.skipped) {
      rows.push([r.label, ...Array(11).fill("-"), r.skipped]);
      continue;
    }
    rows.push([
      r.label,
      ...measuredCells(r.ours!),
      fmt(r.bare?.requestsPerSecond),
      fmt(r.bare?.p99),
      fmt(r.bare?.queriesPerRequest, 1),
      fmt(r.bare?.cpuMsPerRequest, 2),
      r.ratio === null ? "-" : r.ratio.toFixed(2),
      r.missed.length ? `MISSED: ${r.missed.join(", ")}` : "met",
    ]);
  }
  if (reports.length) console.log(`\n${table(rows)}`);
  if (reports.length) console.log(
    "(latencies in ms; err = socket errors + timeouts + non-2xx; q/req = SQL statements per request; cpu ms/req = the server process's CPU time per request)",
  );
  const viaToken = reports.find((r) => r.name === "me-token")?.ours;
  const viaKey = reports.find((r) => r.name === "me-key")?.ours;
  if (viaToken && viaKey && viaToken.requestsPerSecond > 0) {
    const diff = Math.round((100 * (viaKey.requestsPerSecond - viaToken.requestsPerSecond)) / viaToken.requestsPerSecond);
    console.log(
      `\nAPI key vs access token (GET /auth/me): ${viaKey.requestsPerSecond} vs ${viaToken.requestsPerSecond} req/s (${diff >= 0 ? "+" : ""}${diff} %), ` +
        `${fmt(viaKey.cpuMsPerRequest, 2)} vs ${fmt(viaToken.cpuMsPerRequest, 2)} CPU ms/req ${Math.abs(diff) <= 10 ? "(met, within 10 %)" : "(MISSED, not within 10 %)"}`,
    );
  }
  const plainVote = reports.find((r) => r.name === "vote")?.ours;
  const controlVote = reports.find((r) => r.name === "vote-concentrated")?.ours;
  const followedVote = reports.find((r) => r.name === "vote-followed")?.ours;
  // The target compares like with like: the same votes on as many claims that nobody follows.
  for (const [against, label] of [
    [controlVote, "the same votes on unfollowed claims (the target)"],
    [plainVote, "votes spread over many claims"],
  ] as const) {
    if (!against || !followedVote || against.requestsPerSecond <= 0) continue;
    const diff = Math.round((100 * (followedVote.requestsPerSecond - against.requestsPerSecond)) / against.requestsPerSecond);
    const verdict = against === controlVote ? (diff >= -10 ? " (met, within 10 %)" : " (MISSED, not within 10 %)") : "";
    console.log(
      `\nVote on claims with 1,000 followers vs ${label}: ${followedVote.requestsPerSecond} vs ${against.requestsPerSecond} req/s (${diff >= 0 ? "+" : ""}${diff} %), ` +
        `${fmt(followedVote.cpuMsPerRequest, 2)} vs ${fmt(against.cpuMsPerRequest, 2)} CPU ms/req${verdict}` +
        (against === controlVote && follow?.fanOutDrainSeconds != null ? `; the fan-out finished ${follow.fanOutDrainSeconds} s after the last vote` : ""),
    );
  }
  const wl = follow?.webhookLatency;
  if (wl) {
    console.log(
      `Webhook latency (vote acknowledged → receiver called) at ${wl.rate} votes/s: p50 ${wl.p50} ms, p90 ${wl.p90} ms, p99 ${wl.p99} ms, ` +
        `${wl.delivered}/${wl.acknowledged} delivered ${wl.met ? `(met, p99 < ${WEBHOOK_P99_TARGET_MS} ms)` : `(MISSED: p99 < ${WEBHOOK_P99_TARGET_MS} ms and all delivered)`}`,
    );
  }
  const rss = Math.round(ours.peakRssMb);
  console.log(
    `\nPeak RSS: ours ${rss} MB ${rss < TARGETS.rssMb ? `(met, < ${TARGETS.rssMb} MB)` : `(MISSED, >= ${TARGETS.rssMb} MB)`}${bare ? `, bare ${Math.round(bare.peakRssMb)} MB` : ""}`,
  );
  const m = ours.memoryAtPeak;
  if (m) {
    const mb = (n: number) => Math.round(n / 2 ** 20);
    console.log(
      `  ours at its peak: RSS ${mb(m.rss)} MB = V8 heap ${mb(m.heapTotal)} MB (${mb(m.heapUsed)} in use) + external ${mb(m.external)} MB ` +
        `(${mb(m.arrayBuffers)} of it buffers) + the rest ${mb(Math.max(0, m.rss - m.heapTotal - m.external))} MB (code, stacks, native allocations)`,
    );
  }
  if (counters) console.log(counters.length === 0 ? "Counters after the vote load: exact (invariants hold)." : `Counters after the vote load: ${counters.length} violation(s):\n  ${counters.slice(0, 20).join("\n  ")}`);
}

/** With --cpu-prof: where each endpoint's CPU time went, by package and by function. */
export function printProfiles(reports: EndpointReport[], pages: PageReport[] = []) {
  for (const r of pages) {
    if (!r.profile) continue;
    console.log(`\n${r.label} — our server's CPU (${r.profile.busyMs} ms sampled, self time), top functions by package:`);
    for (const group of r.profile.functionsByPackage) {
      console.log(`  ${group.name} ${group.percent}%: ${group.functions.map((f) => `${f.name} ${f.percent}%`).join(", ")}`);
    }
  }
  for (const r of reports) {
    if (!r.profile) continue;
    const share = (list: { name: string; percent: number }[], n: number) => list.slice(0, n).map((p) => `${p.name} ${p.percent}%`).join(", ");
    console.log(`\n${r.label} — our server's CPU (${r.profile.busyMs} ms sampled, self time)\n  by package: ${share(r.profile.byPackage, 8)}\n  by function: ${share(r.profile.byFunction, 8)}`);
    if (r.bareProfile) console.log(`  bare (${r.bareProfile.busyMs} ms): ${share(r.bareProfile.byPackage, 6)}`);
  }
}

export interface RunRecord {
  startedAt: Date;
  opts: Options;
  database: string;
  seedReport: SeedReport | null;
  reports: EndpointReport[];
  pages?: PageReport[];
  ours: Server;
  bare: Server | null;
  counters: string[] | null;
  pgVersion: string;
  /** bench/bridging.ts, when it ran. */
  bridging?: unknown;
  /** bench/open-data.ts, when it ran. */
  openData?: unknown;
  webhookLatency?: LatencyFigures | null;
  fanOutDrainSeconds?: number | null;
}

/** Writes the run's figures to bench/results/<stamp>.json and returns the file's path. */
export function writeResults(stamp: string, run: RunRecord): string {
  const { startedAt, opts, database, seedReport, reports, pages, ours, bare, counters, pgVersion, bridging, openData, webhookLatency, fanOutDrainSeconds } = run;
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${stamp}.json`);
  const gitCommit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() || null;
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        gitCommit,
        machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, postgres: pgVersion },
        options: { quick: opts.quick, duration: opts.duration, warmup: opts.warmup, connections: opts.connections, pageConnections: opts.pageConnections, pool: opts.pool },
        sizes: opts.reuse ? null : opts.sizes,
        database: opts.keep ? database : null,
        seed: seedReport,
        targets: TARGETS,
        endpoints: reports,
        pageTargets: PAGE_TARGETS,
        pages: pages ?? [],
        peakRssMb: { ours: Math.round(ours.peakRssMb), bare: bare ? Math.round(bare.peakRssMb) : null },
        bridging: bridging ?? null,
        openData: openData ?? null,
        webhookLatency: webhookLatency ?? null,
        fanOutDrainSeconds: fanOutDrainSeconds ?? null,
        countersAfterVotes: counters === null ? null : counters.length === 0 ? "exact" : counters,
      },
      null,
      2,
    ),
  );
  return file;
}
