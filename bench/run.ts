// `npm run bench`: seeds a fresh PostgreSQL database, starts the production server (what `npm start`
// runs) and the bare node:http + pg yardstick (bench/bare-server.ts) on it, drives both with the same
// autocannon load endpoint by endpoint, checks that every counter is still exact after the vote
// load, and prints req/s, latency, errors and the ratio ours/bare against the targets. The figures
// go to bench/results/<timestamp>.json. It never fails on speed: exit code 0 unless it could not run
// or a counter is wrong afterwards.
//
//   npm run bench                     20k agents, 100k claims, 1M votes…; 5 s per endpoint and server
//   npm run bench -- --quick          a small data set and 1.5 s runs (under two minutes)
//   npm run bench -- --help           every option
//
// The parts: options.ts (command line), orchestration.ts (database, build, servers), endpoints.ts
// (fixtures and the endpoints measured), load.ts (autocannon runs and their figures), report.ts
// (targets, table, results file). This file runs them in order.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { summarizeCpuProfile } from "./cpu-profile.ts";
import { availableRoutes, bareRoutes, checkSignedIn, endpoints, loadFixtures, pageEndpoints, RELATED_VIEWED, warmRelatedSets, PAGES, signInToPages, YARDSTICK, type Fixtures } from "./endpoints.ts";
import { measure, responseBytes } from "./load.ts";
import { log, seconds } from "./log.ts";
import { parseOptions, RESULTS_DIR, ROOT, type Options } from "./options.ts";
import { adminQuery, checkCounters, waitForSettledData, memoryAtPeak, databaseUrl, ensureBuild, postgresVersion, seedDatabase, startServer, stopServer, type Server } from "./orchestration.ts";
import { judge, judgePage, printPageReport, printProfiles, printReport, writeResults, type EndpointReport, type PageReport } from "./report.ts";
import { SEED_PASSWORD, type SeedReport } from "./seed.ts";
import { benchBridging, printBridgingReport, type BridgingBenchReport } from "./bridging.ts";
import { benchOpenData, printOpenDataReport, type OpenDataBenchReport } from "./open-data.ts";
import { differingAnswers } from "./same-answers.ts";
import { measureWebhookLatency, WEBHOOK_LATENCY, type LatencyFigures } from "./webhook-latency.ts";

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const database = opts.reuse ?? `bench_${stamp.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
  const url = databaseUrl(opts.pgUrl, database);
  const secrets = {
    JWT_SECRET: randomBytes(48).toString("base64url"),
    NEXTAUTH_SECRET: randomBytes(48).toString("base64url"),
    WEBHOOK_SECRET_KEY: randomBytes(48).toString("base64url"),
  };
  // This process uses the service's modules (migrations, tokens, invariants) on the same database.
  // Not the API: the invariant check over ≈1M votes may outlast the API's statement timeout. The
  // bridging bench serves GET /claims from this process under load: limits lifted as on the servers.
  Object.assign(process.env, { DATABASE_URL: url, ...secrets, SKIP_MIGRATIONS: "", DATABASE_STATEMENT_TIMEOUT_MS: "0", RATE_LIMIT_SCALE: "100000" });

  let ours: Server | null = null;
  let bare: Server | null = null;
  let created = false;
  // A data directory of the run's own: the kept pages (docs/features/page-cache.md) of an earlier run
  // on the same database (--reuse) would make every first view a kept one.
  const dataDir = mkdtempSync(path.join(tmpdir(), "claims-bench-"));
  const cleanup = async () => {
    await Promise.all([stopServer(ours), stopServer(bare)]);
    rmSync(dataDir, { recursive: true, force: true });
    const { closeDb } = await import("../server/db/client.ts");
    await closeDb().catch(() => {});
    if (created && !opts.keep) await adminQuery(opts.pgUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((e) => log(`could not drop ${database}: ${e.message}`));
  };
  process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)));

  try {
    ensureBuild(opts.serverRoot, opts.build); // first: a failed build should not cost a seeding
    let seedReport: SeedReport | null = null;
    if (!opts.reuse) {
      await adminQuery(opts.pgUrl, `CREATE DATABASE "${database}"`);
      created = true;
      log(`database ${database}`);
      seedReport = await seedDatabase(url, opts.sizes);
    }

    const fixtures = await loadFixtures(url, opts);
    const serverEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(opts.pool),
      RATE_LIMIT_SCALE: "100000",
      // The webhook latency run calls a receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: "1",
      // PAGE_CACHE_SECONDS=0 npm run bench -- --only pages: the pages without the anonymous page cache.
      ...(process.env.PAGE_CACHE_SECONDS !== undefined ? { PAGE_CACHE_SECONDS: process.env.PAGE_CACHE_SECONDS } : {}),
      ...(process.env.RECOMMENDED_CACHE_SECONDS !== undefined ? { RECOMMENDED_CACHE_SECONDS: process.env.RECOMMENDED_CACHE_SECONDS } : {}),
      // BRIDGING_INTERVAL_SECONDS=0 npm run bench -- --reuse …: no background fit competing with the runs
      // (a first fit of 1M votes under load takes minutes: docs/benchmarks/2026-11-23-bridging-1m.md).
      ...(process.env.BRIDGING_INTERVAL_SECONDS !== undefined ? { BRIDGING_INTERVAL_SECONDS: process.env.BRIDGING_INTERVAL_SECONDS } : {}),
      // BENCH_HEAP_PROFILE=<file>: our server's sampling heap profile at its peak RSS (bench/probe.ts).
      ...(process.env.BENCH_HEAP_PROFILE ? { BENCH_HEAP_PROFILE: path.resolve(process.env.BENCH_HEAP_PROFILE) } : {}),
      ...secrets,
    };
    const profileDir = path.join(RESULTS_DIR, `cpu-${stamp}`);
    if (opts.cpuProf) mkdirSync(profileDir, { recursive: true });
    const oursEndpoints = endpoints(fixtures, "ours");
    const bareEndpoints = new Map(endpoints(fixtures, "bare").map((e) => [e.name, e]));
    // The bare yardstick serves only the API table: not started when no endpoint of it is measured.
    const needsBare = oursEndpoints.some((ep) => ep.bare && (!opts.only || opts.only.has(ep.name)));
    ours = await startServer("ours", opts.serverRoot, serverEntry(opts.serverRoot), serverEnv, /Ready on/);
    if (opts.bare && needsBare) bare = await startServer("bare", ROOT, "bench/bare-server.ts", { ...serverEnv, BENCH_HEAP_PROFILE: undefined }, /Bare server ready/);
    // Nothing is measured (nor cached by either server) before the first fit has restated the statuses.
    if (serverEnv.BRIDGING_INTERVAL_SECONDS !== "0") log(`data settled (first bridging fit, re-scores): ${(await waitForSettledData(url)).toFixed(1)} s`);
    log(`servers up: ours ${ours.base}${bare ? `, bare ${bare.base}` : ""}; ${opts.connections} connections, ${opts.duration} s per run after ${opts.warmup} s warm-up`);

    const profileOf = (server: string, name: string) => (opts.cpuProf ? path.join(profileDir, `${server}-${name}.cpuprofile`) : undefined);
    // The claim pages read related claims: the claims measured have their stored sets, as the claims
    // people open do on a running site (a claim's first read computes it: ≈35-135 ms, once).
    if (!opts.only || opts.only.has(PAGES) || [...opts.only].some((n) => n.startsWith("page-claim"))) {
      log(`claim pages: first related reads of ${fixtures.claimsWithVotes.length} claims: ${(await warmRelatedSets(ours.base, fixtures, fixtures.claimsWithVotes)).toFixed(1)} s`);
    }
    // The pages first: the vote runs below leave followers' updates running in the background.
    const pages = await measurePages(ours, fixtures, opts, (name) => profileOf("ours", name));

    const ourRoutes = await availableRoutes(ours);
    const bareHas = bare ? await bareRoutes(bare, fixtures) : new Set<string>();
    const reports: EndpointReport[] = [];
    // The yardstick must answer what ours answers, or its ratios mean nothing (bench/same-answers.ts).
    const compared = oursEndpoints.filter((ep) => (!opts.only || opts.only.has(ep.name)) && ourRoutes.has(ep.route) && bareHas.has(ep.route));
    const answersDiffer = bare ? await differingAnswers(ours, bare, compared) : [];
    if (bare) log(answersDiffer.length ? `the yardstick's answers differ from ours:\n  ${answersDiffer.join("\n  ")}` : "the yardstick answers every read as ours does");
    if (!opts.only || opts.only.has("related")) {
      log(`related: first reads of ${RELATED_VIEWED} claims (their sets computed): ${(await warmRelatedSets(ours.base, fixtures)).toFixed(1)} s`);
    }
    for (const ep of oursEndpoints) {
      if (opts.only && !opts.only.has(ep.name)) continue;
      const report: EndpointReport = { name: ep.name, label: ep.label, kind: ep.kind, ours: null, bare: null, ratio: null, missed: [] };
      reports.push(report);
      if (!ourRoutes.has(ep.route)) {
        report.skipped = "not implemented yet";
        log(`${ep.label}: skipped (not in the OpenAPI document yet)`);
        continue;
      }
      const outputBefore = ours.output.length;
      report.ours = await measure(ours, ep, opts, profileOf("ours", ep.name));
      if (bare && ep.bare && bareHas.has(ep.route)) report.bare = await measure(bare, bareEndpoints.get(ep.name)!, opts, profileOf("bare", ep.name));
      if (opts.cpuProf) {
        const summary = (file: string) => (existsSync(file) ? summarizeCpuProfile(file) : undefined);
        report.profile = summary(profileOf("ours", ep.name)!);
        report.bareProfile = report.bare ? summary(profileOf("bare", ep.name)!) : undefined;
      }
      report.ratio = report.bare && report.bare.requestsPerSecond > 0 ? Math.round((report.ours.requestsPerSecond / report.bare.requestsPerSecond) * 100) / 100 : null;
      report.missed = judge(report);
      const o = report.ours;
      log(
        `${ep.label}: ${o.requestsPerSecond} req/s, p99 ${o.p99} ms, ${o.errors + o.non2xx} errors` +
          (report.bare ? ` | bare ${report.bare.requestsPerSecond} req/s, p99 ${report.bare.p99} ms | ratio ${report.ratio}` : ""),
      );
      if (o.non2xx > 0) log(`  status codes: ${JSON.stringify(o.statusCodes)}; server errors: ${serverErrors(ours.output.slice(outputBefore))}`);
    }

    // Followers' updates run in the background: let the fan-out of the vote runs finish (its time is a
    // figure too), then measure vote → webhook call at a steady rate on an otherwise idle worker.
    let fanOutDrainSeconds: number | null = null;
    let webhookLatency: LatencyFigures | null = null;
    if (reports.some((r) => r.kind === "vote" && r.ours) || !opts.only || opts.only.has(WEBHOOK_LATENCY)) {
      const t = Date.now();
      await drainOutbox(url);
      fanOutDrainSeconds = Math.round((Date.now() - t) / 100) / 10;
      log(`followers' updates of the vote runs fanned out ${fanOutDrainSeconds} s after the last vote`);
    }
    if (!opts.only || opts.only.has(WEBHOOK_LATENCY)) {
      webhookLatency = await measureWebhookLatency(ours, fixtures, { rate: 100, seconds: Math.max(5, opts.duration * 2) });
    }

    const voted = reports.some((r) => r.kind === "vote" && r.ours);
    let counters: string[] | null = null;
    if (voted) {
      const t = Date.now();
      counters = await checkCounters();
      log(`counters checked after the vote load in ${seconds(Date.now() - t)}`);
    }
    ours.memoryAtPeak = await memoryAtPeak(ours);
    await Promise.all([stopServer(ours), stopServer(bare)]);

    // The bridging model on the same data set (bench/bridging.ts): fit time, memory, API p99 during a fit.
    let bridging: BridgingBenchReport | null = null;
    if (!opts.only || opts.only.has("bridging")) {
      bridging = await benchBridging(opts.duration);
    }

    // The open data on the same data set (bench/open-data.ts): a snapshot and its rescore, each in a process of its own.
    let openData: OpenDataBenchReport | null = null;
    if (!opts.only || opts.only.has("open-data")) {
      openData = await benchOpenData({ votes: opts.sizes.claimVotes, synthetic: false, env: { ...process.env, DATA_DIR: dataDir } });
    }

    printPageReport(pages);
    printReport(reports, ours, bare, counters, { webhookLatency, fanOutDrainSeconds });
    if (answersDiffer.length) console.log(`\nThe yardstick's answers differ from ours (its ratios compare different work):\n  ${answersDiffer.join("\n  ")}`);
    if (bridging) printBridgingReport(bridging);
    if (openData) printOpenDataReport(openData);
    printProfiles(reports, pages);
    if (opts.cpuProf) log(`CPU profiles (open in Chrome DevTools): ${path.relative(ROOT, profileDir)}/`);

    const pgVersion = await postgresVersion(url);
    const file = writeResults(stamp, { startedAt, opts, database, seedReport, reports, pages, ours, bare, counters, pgVersion, bridging, openData, webhookLatency, fanOutDrainSeconds });
    log(`results: ${path.relative(ROOT, file)}${opts.keep ? `; database kept: ${database}` : ""} (the whole run took ${seconds(Date.now() - startedAt.getTime())})`);
    if (counters && counters.length) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

/**
 * The page table: the yardstick (a static file of the same server) first, then each selected page,
 * anonymous and signed in (seeded agents signed in through NextAuth's credentials flow), with
 * opts.pageConnections connections. Returns no rows when no page is selected.
 */
async function measurePages(ours: Server, fixtures: Fixtures, opts: Options, profileOf: (name: string) => string | undefined): Promise<PageReport[]> {
  const selected = (name: string) => !opts.only || opts.only.has(PAGES) || opts.only.has(name);
  const listed = pageEndpoints(fixtures, [], opts.pageConnections);
  if (!listed.some((ep) => selected(ep.name))) return [];
  const signedInSelected = listed.some((ep) => ep.signedIn && selected(ep.name));
  const sessions = signedInSelected ? await signInToPages(ours, fixtures.pageAgents, SEED_PASSWORD) : [];
  if (signedInSelected) log(`${sessions.length} agents signed in to the web UI (NextAuth credentials flow)`);
  const reports: PageReport[] = [];
  let yardstick: number | null = null;
  for (const ep of pageEndpoints(fixtures, sessions, opts.pageConnections)) {
    if (ep.name !== YARDSTICK && !selected(ep.name)) continue;
    const report: PageReport = {
      name: ep.name,
      label: ep.label,
      kind: ep.kind as PageReport["kind"],
      signedIn: Boolean(ep.signedIn),
      connections: ep.connections ?? opts.pageConnections,
      ours: null,
      html: null,
      ratio: null,
      target: ep.target,
      missed: [],
    };
    reports.push(report);
    const first = ep.next();
    if (ep.signedIn) {
      const session = sessions.find((s) => s.cookie === first.headers?.cookie)!;
      await checkSignedIn(ours, first.path, session);
    }
    report.html = await responseBytes(ours, first);
    if (report.html.status !== 200) log(`${ep.label}: GET ${first.path} answered ${report.html.status}`);
    const outputBefore = ours.output.length;
    report.ours = await measure(ours, ep, opts, profileOf(ep.name));
    const file = profileOf(ep.name);
    if (file && existsSync(file)) report.profile = summarizeCpuProfile(file, 15, true);
    if (ep.name === YARDSTICK) yardstick = report.ours.requestsPerSecond;
    else if (yardstick) report.ratio = Math.round((report.ours.requestsPerSecond / yardstick) * 100) / 100;
    report.missed = judgePage(report);
    const o = report.ours;
    log(`${ep.label}: ${o.requestsPerSecond} req/s, p50 ${o.p50} ms, p99 ${o.p99} ms, ${o.errors + o.non2xx} errors, ${report.html.bytes} B${report.ratio !== null ? ` | ratio ${report.ratio}` : ""}`);
    if (o.non2xx > 0) log(`  status codes: ${JSON.stringify(o.statusCodes)}; server errors: ${serverErrors(ours.output.slice(outputBefore))}`);
  }
  return reports;
}

/** Waits until every outbox event is fanned out to its followers (at most 10 minutes). */
async function drainOutbox(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const until = Date.now() + 600_000;
    while (Date.now() < until) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`);
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    log("the fan-out backlog did not drain within 10 minutes");
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(`[bench] failed: ${err instanceof Error ? err.stack : err}`);
  process.exit(2);
});

/** The process entry of the server at `root`: server/main.ts, or server/http/main.ts in copies from before that move. */
function serverEntry(root: string): string {
  return existsSync(path.join(root, "server/main.ts")) ? "server/main.ts" : "server/http/main.ts";
}

/** The error lines (pino level ≥ 50, or anything not JSON) a server wrote during a run: what a 5xx was. */
function serverErrors(output: string): string {
  const lines = output.split("\n").filter((line) => line.trim() && !/"level":(10|20|30|40),/.test(line));
  return lines.length ? `\n${lines.slice(0, 8).join("\n").slice(0, 4000)}` : "none logged";
}
