// Orchestration: the benchmark database (created, migrated by the service itself, checked), the
// production build, and the two servers (ours and the bare yardstick) as child processes with the
// probe (bench/probe.ts) inside, whose counters, memory and CPU time the measurements read.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { log, seconds } from "./log.ts";
import { ROOT } from "./options.ts";
import { seed, type SeedReport, type SeedSizes } from "./seed.ts";

// ---- the database ----

export function databaseUrl(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Waits until the data the runs read has settled: the server's first bridging fit (seeded data has
 * none) has restated the claims' statuses and no claim waits for its re-score. Until then a claim's
 * status (and so `claims_at_consensus`, which both servers cache for 5 minutes) depends on when it is
 * read, and the fit's CPU lands in whichever run is under way. Returns the seconds waited.
 */
export async function waitForSettledData(url: string, timeoutMs = 1_800_000): Promise<number> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ fitted: boolean; pending: number }>(
        `SELECT EXISTS (SELECT 1 FROM bridging_model) AS fitted, (SELECT count(*)::int FROM bridging_pending) AS pending`,
      );
      if (rows[0].fitted && rows[0].pending === 0) break;
      if (Date.now() - started > timeoutMs) throw new Error(`the first bridging fit did not settle in ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
  return (Date.now() - started) / 1000;
}

export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// ---- the production build ----

/**
 * `next start`'s half of the server (pages) needs a production build; the API itself is served by
 * server/main.ts from the sources, so an older build does not change any figure. Builds only
 * when there is none, or when asked to (--build).
 */
export function ensureBuild(root: string, mode: "auto" | "always" | "never"): void {
  const exists = existsSync(path.join(root, ".next", "BUILD_ID"));
  if (mode === "never" || (mode === "auto" && exists)) {
    if (!exists) throw new Error("there is no production build (.next) and --no-build was given");
    return;
  }
  log(exists ? "next build (--build)" : "no production build yet: next build");
  const started = Date.now();
  const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`next build failed:\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`);
  log(`built in ${seconds(Date.now() - started)}`);
}

// ---- the two servers ----

export interface Server {
  name: string;
  base: string;
  child: ChildProcess;
  output: string;
  peakRssMb: number;
  /** process.memoryUsage() at the highest RSS the probe sampled (bench/probe.ts), when asked. */
  memoryAtPeak?: NodeJS.MemoryUsage | null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const PROBE = pathToFileURL(path.join(ROOT, "bench", "probe.ts")).href;

/** The V8 flags of `npm start` (the heap cap), so that both servers run as in production. */
const START_NODE_FLAGS: string[] =
  (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start.match(
    /--max-[\w-]+=\d+/g,
  ) ?? [];

export async function startServer(name: string, cwd: string, entry: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...START_NODE_FLAGS, "--import", "tsx", "--import", PROBE, entry], {
    cwd,
    // Production requires the public address (docs/operating.md): here, the server's own.
    env: { NEXTAUTH_URL: `http://127.0.0.1:${port}`, ...env, PORT: String(port) },
    detached: true, // its own process group: stopping it stops everything it started
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const server: Server = { name, base: `http://127.0.0.1:${port}`, child, output: "", peakRssMb: 0 };
  child.stdout!.on("data", (d) => (server.output += d));
  child.stderr!.on("data", (d) => (server.output += d));
  const deadline = Date.now() + 120_000;
  while (!ready.test(server.output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} server did not start:\n${server.output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const health = await fetch(`${server.base}/api/v1/health`);
  if (health.status !== 200) throw new Error(`${name} server is not healthy: ${health.status} ${await health.text()}`);
  return server;
}

export async function stopServer(server: Server | null): Promise<void> {
  if (!server?.child.pid || server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once("exit", r));
  try {
    process.kill(-server.child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-server.child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resident set size now and at its peak (VmHWM), MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** CPU seconds the process has used (user + system). */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** Asks the server's probe (bench/probe.ts) something over IPC; null when it does not answer. */
export function probe(server: Server, message: { type: string; file?: string }, timeoutMs = 30_000): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const onMessage = (reply: { replyTo?: string }) => {
      if (reply?.replyTo !== message.type) return;
      clearTimeout(timer);
      server.child.off("message", onMessage);
      resolve(reply as Record<string, unknown>);
    };
    const timer = setTimeout(() => {
      server.child.off("message", onMessage);
      resolve(null);
    }, timeoutMs);
    server.child.on("message", onMessage);
    server.child.send(message);
  });
}

export interface Counters {
  queries: number;
  requests: number;
  /** Requests whose response was sent or whose client went away. */
  closed: number;
  responses: number;
}

/** Where the server's memory was at its highest RSS (the probe samples it ten times a second), or null. */
export async function memoryAtPeak(server: Server): Promise<NodeJS.MemoryUsage | null> {
  const reply = await probe(server, { type: "memory" }, 2000);
  return reply && typeof reply.rss === "number" ? (reply as unknown as NodeJS.MemoryUsage) : null;
}

/** Statements sent to PostgreSQL, requests received and responses finished so far, as the server counts them. */
async function countersOf(server: Server): Promise<Counters> {
  const reply = await probe(server, { type: "queries" }, 2000);
  const n = (key: string) => Number(reply?.[key] ?? NaN);
  return { queries: n("queries"), requests: n("requests"), closed: n("closed"), responses: n("responses") };
}

/**
 * autocannon stops at the deadline with requests still in flight; the server finishes them anyway.
 * Waits until every request has been answered or dropped by its client (at most a minute), so that
 * per-request figures count them on both sides and the next run does not share the database with them.
 */
export async function settle(server: Server): Promise<Counters> {
  const deadline = Date.now() + 60_000;
  let now = await countersOf(server);
  while (now.closed < now.requests && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    now = await countersOf(server);
  }
  if (now.closed < now.requests) log(`${server.name}: ${now.requests - now.closed} requests still open after a minute`);
  return now;
}

// ---- consistency after the load ----

export async function checkCounters(): Promise<string[]> {
  const { checkInvariants } = await import("../server/services/invariants.ts");
  const { db } = await import("../server/db/client.ts");
  const violations = await checkInvariants();
  // Counters kept by triggers (migration discovery_counters), which checkInvariants does not cover.
  const [votes] = await db().$queryRaw<{ counter: bigint | null; n: bigint }[]>`
    SELECT (SELECT sum(value) FROM platform_counters WHERE name LIKE 'claim_votes:%')::bigint AS counter, (SELECT count(*) FROM claim_votes) AS n`;
  if (Number(votes.counter ?? 0) !== Number(votes.n)) violations.push(`claim_votes stripes sum to ${votes.counter} for ${votes.n} votes`);
  const tags = await db().$queryRaw<{ tag: string; stored: number | null; n: number | null }[]>`
    WITH actual AS (SELECT tag, count(*)::int AS n FROM (SELECT DISTINCT id, unnest(tags) AS tag FROM claims) t GROUP BY tag)
    SELECT coalesce(s.tag, a.tag) AS tag, s.claim_count AS stored, a.n FROM tag_stats s FULL JOIN actual a ON a.tag = s.tag
    WHERE s.claim_count IS DISTINCT FROM a.n AND coalesce(s.claim_count, 0) <> coalesce(a.n, 0) LIMIT 20`;
  for (const t of tags) violations.push(`tag_stats ${t.tag}: ${t.stored} for ${t.n} claims`);
  return violations;
}

/**
 * Creates the benchmark database's tables with the service's own start-up migration, seeds it and
 * checks that the seeded data is consistent (the database itself must exist already).
 */
export async function seedDatabase(url: string, sizes: SeedSizes): Promise<SeedReport> {
  const { dbReady } = await import("../server/db/client.ts");
  await dbReady(); // the service's own start-up migration
  const s = sizes;
  log(`seeding ${s.agents} agents, ${s.claims} claims, ${s.claimVotes} claim votes, ${s.evidence} evidence, ${s.evidenceVotes} evidence votes, ${s.comments} comments over ${s.days} days`);
  const seedReport = await seed(url, sizes);
  log(`seeded in ${seedReport.seconds.toFixed(1)} s (generation ${seedReport.stagingSeconds.toFixed(1)} s, load ${seedReport.loadSeconds.toFixed(1)} s, vacuum ${seedReport.vacuumSeconds.toFixed(1)} s): ${Object.entries(seedReport.rows).map(([t, n]) => `${t} ${n}`).join(", ")}`);
  const t = Date.now();
  const seeded = await checkCounters();
  if (seeded.length) throw new Error(`the seeded data is inconsistent:\n${seeded.slice(0, 20).join("\n")}`);
  log(`invariants hold on the seeded data (checked in ${seconds(Date.now() - t)})`);
  return seedReport;
}

export async function postgresVersion(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query("SHOW server_version")).rows[0].server_version as string;
  } finally {
    await c.end();
  }
}
