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
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { summarizeCpuProfile, type ProfileSummary } from "./cpu-profile.ts";
import { DEFAULT_SIZES, parseSizes, seed, type SeedReport, type SeedSizes } from "./seed.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS_DIR = path.join(ROOT, "bench", "results");

const QUICK_SIZES: SeedSizes = { agents: 1_000, claims: 5_000, claimVotes: 50_000, evidence: 10_000, evidenceVotes: 10_000, comments: 2_500, days: 90 };

/** The issue's targets (a benchmark reports them; it never fails on them). */
const TARGETS = { readRatio: 0.5, readP99Ms: 50, votesPerSecond: 500, rssMb: 500 };

const HELP = `npm run bench -- [options]

  --quick                 small data set (${QUICK_SIZES.agents} agents, ${QUICK_SIZES.claims} claims, ${QUICK_SIZES.claimVotes} votes…), 1.5 s runs
  --duration <s>          seconds of load per endpoint and server (default 5; quick 1.5)
  --warmup <s>            unmeasured load before each run (default 1; quick 0.3)
  --connections <n>       concurrent connections (default 32)
  --only <a,b,…>          only these endpoints (names as in the table)
  --agents/--claims/--claim-votes/--evidence/--evidence-votes/--comments/--days <n>   data set size
  --pg <url>              PostgreSQL server to create the database on (default postgresql://postgres@127.0.0.1:5432/postgres)
  --reuse <database>      benchmark an already seeded database (kept afterwards) instead of creating one
  --keep                  keep the benchmark database (its name is printed)
  --build                 run \`next build\` first (default: only when there is no build in .next)
  --no-build              never run \`next build\` (fail when there is no build)
  --no-bare               skip the bare yardstick server
  --pool <n>              PostgreSQL connections per server (default 10, the service's default)
  --server-root <dir>     run our server from another copy of the project (before/after figures of a change)
  --cpu-prof              profile our server during each measured run and print where its CPU time went
`;

interface Options {
  quick: boolean;
  sizes: SeedSizes;
  duration: number;
  warmup: number;
  connections: number;
  only: Set<string> | null;
  pgUrl: string;
  reuse: string | null;
  keep: boolean;
  build: "auto" | "always" | "never";
  bare: boolean;
  pool: number;
  cpuProf: boolean;
  serverRoot: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string", default: "32" },
      only: { type: "string" },
      agents: { type: "string" },
      claims: { type: "string" },
      "claim-votes": { type: "string" },
      evidence: { type: "string" },
      "evidence-votes": { type: "string" },
      comments: { type: "string" },
      days: { type: "string" },
      pg: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
      reuse: { type: "string" },
      keep: { type: "boolean", default: false },
      build: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      "no-bare": { type: "boolean", default: false },
      pool: { type: "string", default: "10" },
      "cpu-prof": { type: "boolean", default: false },
      "server-root": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!(n > 0)) throw new Error(`--${name}: must be a positive number`);
    return n;
  };
  const quick = values.quick;
  return {
    quick,
    sizes: parseSizes(values as unknown as Record<string, string | undefined>, quick ? QUICK_SIZES : DEFAULT_SIZES),
    duration: positive("duration", values.duration, quick ? 1.5 : 5),
    warmup: values.warmup === "0" ? 0 : positive("warmup", values.warmup, quick ? 0.3 : 1),
    connections: Math.round(positive("connections", values.connections, 32)),
    only: values.only ? new Set(values.only.split(",").map((s) => s.trim())) : null,
    pgUrl: values.pg,
    reuse: values.reuse ?? null,
    keep: values.keep || values.reuse !== undefined,
    build: values["no-build"] ? "never" : values.build ? "always" : "auto",
    bare: !values["no-bare"],
    pool: Math.round(positive("pool", values.pool, 10)),
    cpuProf: values["cpu-prof"],
    serverRoot: path.resolve(values["server-root"] ?? ROOT),
  };
}

const log = (msg: string) => console.log(`[bench] ${msg}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---- the database ----

function databaseUrl(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
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
 * server/http/main.ts from the sources, so an older build does not change any figure. Builds only
 * when there is none, or when asked to (--build).
 */
function ensureBuild(root: string, mode: "auto" | "always" | "never"): void {
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

interface Server {
  name: string;
  base: string;
  child: ChildProcess;
  output: string;
  peakRssMb: number;
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

async function startServer(name: string, cwd: string, entry: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...START_NODE_FLAGS, "--import", "tsx", "--import", PROBE, entry], {
    cwd,
    env: { ...env, PORT: String(port) },
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

async function stopServer(server: Server | null): Promise<void> {
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
function memoryOf(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** CPU seconds the process has used (user + system). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** Asks the server's probe (bench/probe.ts) something over IPC; null when it does not answer. */
function probe(server: Server, message: { type: string; file?: string }, timeoutMs = 30_000): Promise<Record<string, unknown> | null> {
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

interface Counters {
  queries: number;
  requests: number;
  /** Requests whose response was sent or whose client went away. */
  closed: number;
  responses: number;
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
async function settle(server: Server): Promise<Counters> {
  const deadline = Date.now() + 60_000;
  let now = await countersOf(server);
  while (now.closed < now.requests && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    now = await countersOf(server);
  }
  if (now.closed < now.requests) log(`${server.name}: ${now.requests - now.closed} requests still open after a minute`);
  return now;
}

// ---- the load ----

interface RequestSpec {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Endpoint {
  name: string;
  kind: "read" | "vote";
  /** The route as the OpenAPI document names it (to skip endpoints that do not exist yet). */
  route: string;
  /** What the table shows. */
  label: string;
  /** The next request: rotates ids and tokens. */
  next: () => RequestSpec;
  /** Bare server has it. */
  bare: boolean;
}

interface RunFigures {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  queriesPerRequest: number | null;
  /** CPU time of the server process per completed request: unlike req/s, barely moved by other load on the machine. */
  cpuMsPerRequest: number | null;
  cpuPercent: number;
  rssMb: number;
}

async function cannon(server: Server, endpoint: Endpoint, duration: number, connections: number): Promise<Result> {
  return autocannon({
    url: server.base,
    connections,
    duration,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const spec = endpoint.next();
          return {
            ...req,
            method: spec.method ?? "GET",
            path: `/api/v1${spec.path}`,
            headers: { ...(spec.body ? { "content-type": "application/json" } : {}), ...spec.headers },
            body: spec.body,
          };
        },
      },
    ],
  });
}

async function measure(server: Server, endpoint: Endpoint, opts: Options, profileFile?: string): Promise<RunFigures> {
  if (opts.warmup > 0) await cannon(server, endpoint, opts.warmup, opts.connections);
  const pid = server.child.pid!;
  const before = await settle(server);
  if (profileFile) await probe(server, { type: "profile-start" });
  const cpuBefore = cpuSecondsOf(pid);
  let rss = 0;
  const sampler = setInterval(() => (rss = Math.max(rss, memoryOf(pid).rss)), 250);
  const started = performance.now();
  const result = await cannon(server, endpoint, opts.duration, opts.connections);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const after = await settle(server);
  const cpu = cpuSecondsOf(pid) - cpuBefore;
  if (profileFile) await probe(server, { type: "profile-stop", file: profileFile });
  const queries = after.queries - before.queries;
  const served = after.responses - before.responses;
  server.peakRssMb = Math.max(server.peakRssMb, memoryOf(pid).peak);
  const total = result.requests.total;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]));
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    queriesPerRequest: served > 0 ? Math.round((queries / served) * 10) / 10 : null,
    cpuMsPerRequest: served > 0 ? Math.round((cpu * 1000 * 100) / served) / 100 : null,
    cpuPercent: Math.round((100 * cpu) / elapsed),
    rssMb: Math.round(rss),
  };
}

// ---- fixtures: what the requests are about ----

interface Fixtures {
  claims: string[];
  claimsWithEvidence: string[];
  profiles: string[];
  tag: string;
  q: string;
  deepOffset: number;
  voters: { id: string; token: string }[];
  /** Vote requests: a different sequence of (agent, claim, value) for each server. */
  votes: { ours: VoteSpec[]; bare: VoteSpec[] };
}

interface VoteSpec {
  claim: string;
  token: string;
  value: number;
}

/** A word of the statements' vocabulary: matches a few percent of the claims (see vocabulary.ts). */
const SEARCH_WORD = "battery";

async function loadFixtures(url: string, opts: Options): Promise<Fixtures> {
  const { signAccessToken } = await import("../server/auth/tokens.ts");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = async (sql: string) => (await client.query<{ id: string }>(sql)).rows.map((r) => r.id);
    const claims = await ids(`SELECT id::text AS id FROM claims ORDER BY random() LIMIT 2000`);
    const claimsWithEvidence = await ids(`SELECT id::text AS id FROM claims WHERE evidence_count > 0 ORDER BY random() LIMIT 2000`);
    const profiles = await ids(`SELECT id::text AS id FROM agents ORDER BY random() LIMIT 500`);
    const { rows: tagRows } = await client.query(`SELECT tag FROM tag_stats ORDER BY claim_count DESC, tag OFFSET 10 LIMIT 1`);
    const { rows: countRows } = await client.query(`SELECT value::int AS n FROM platform_counters WHERE name = 'claims'`);
    // Voters sign in the way a login does: a refresh-token family per agent, access tokens from it.
    const { rows: families } = await client.query<{ id: string; agent_id: string }>(
      `INSERT INTO refresh_token_families (id, agent_id, expires_at)
       SELECT gen_random_uuid(), id, now() + interval '30 days' FROM (SELECT id FROM agents ORDER BY random() LIMIT 2000) a
       RETURNING id::text AS id, agent_id::text AS agent_id`,
    );
    const voters = await Promise.all(
      families.map(async (f) => ({ id: f.agent_id, token: await signAccessToken({ agentId: f.agent_id, familyId: f.id }) })),
    );
    // Votes by many distinct agents on many claims, never on their own.
    const { rows: targets } = await client.query<{ id: string; author_id: string }>(
      `SELECT id::text AS id, author_id::text AS author_id FROM claims ORDER BY random() LIMIT 20000`,
    );
    const perServer = Math.max(20_000, Math.ceil(opts.duration * 3000));
    const makeVotes = (seedOffset: number): VoteSpec[] => {
      const out: VoteSpec[] = [];
      for (let i = 0; out.length < perServer; i++) {
        const target = targets[(i * 7919 + seedOffset) % targets.length];
        const voter = voters[(i * 104729 + seedOffset * 31) % voters.length];
        if (voter.id === target.author_id) continue;
        out.push({ claim: target.id, token: voter.token, value: Math.round(Math.random() * 100) / 100 });
      }
      return out;
    };
    return {
      claims,
      claimsWithEvidence: claimsWithEvidence.length ? claimsWithEvidence : claims,
      profiles,
      tag: tagRows[0]?.tag ?? "science",
      q: SEARCH_WORD,
      deepOffset: Math.min(5000, Math.floor((countRows[0]?.n ?? 0) / 2)),
      voters,
      votes: { ours: makeVotes(1), bare: makeVotes(2) },
    };
  } finally {
    await client.end();
  }
}

function rotating<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

function endpoints(f: Fixtures, server: "ours" | "bare"): Endpoint[] {
  const claim = rotating(f.claims);
  const evidenceClaim = rotating(f.claimsWithEvidence);
  const agent = rotating(f.profiles);
  const voter = rotating(f.voters);
  const vote = rotating(f.votes[server]);
  const fixed = (path: string) => () => ({ path });
  return [
    { name: "claims", kind: "read", route: "GET /claims", label: "GET /claims", next: fixed("/claims"), bare: true },
    { name: "claims-tag", kind: "read", route: "GET /claims", label: `GET /claims?tags=${f.tag}`, next: fixed(`/claims?tags=${f.tag}`), bare: true },
    { name: "claims-search", kind: "read", route: "GET /claims", label: `GET /claims?q=${f.q}`, next: fixed(`/claims?q=${f.q}`), bare: true },
    { name: "claims-gradient", kind: "read", route: "GET /claims", label: "GET /claims?sort_by=gradient", next: fixed("/claims?sort_by=gradient"), bare: true },
    { name: "claims-offset", kind: "read", route: "GET /claims", label: `GET /claims?offset=${f.deepOffset}`, next: fixed(`/claims?offset=${f.deepOffset}`), bare: true },
    { name: "claim", kind: "read", route: "GET /claims/{claim_id}", label: "GET /claims/{id}", next: () => ({ path: `/claims/${claim()}` }), bare: true },
    {
      name: "evidence",
      kind: "read",
      route: "GET /claims/{claim_id}/evidence",
      label: "GET /claims/{id}/evidence",
      next: () => ({ path: `/claims/${evidenceClaim()}/evidence` }),
      bare: true,
    },
    { name: "trending", kind: "read", route: "GET /discover/trending", label: "GET /discover/trending", next: fixed("/discover/trending"), bare: true },
    {
      name: "related",
      kind: "read",
      route: "GET /discover/related/{claim_id}",
      label: "GET /discover/related/{id}",
      next: () => ({ path: `/discover/related/${claim()}` }),
      bare: true,
    },
    {
      name: "recommended",
      kind: "read",
      route: "GET /discover/recommended",
      label: "GET /discover/recommended (token)",
      next: () => ({ path: "/discover/recommended", headers: { authorization: `Bearer ${voter().token}` } }),
      bare: true,
    },
    { name: "profile", kind: "read", route: "GET /profiles/{agent_id}", label: "GET /profiles/{id}", next: () => ({ path: `/profiles/${agent()}` }), bare: true },
    {
      name: "timeline",
      kind: "read",
      route: "GET /profiles/{agent_id}/timeline",
      label: "GET /profiles/{id}/timeline",
      next: () => ({ path: `/profiles/${agent()}/timeline` }),
      bare: true,
    },
    { name: "stats", kind: "read", route: "GET /stats/platform", label: "GET /stats/platform", next: fixed("/stats/platform"), bare: true },
    {
      name: "vote",
      kind: "vote",
      route: "POST /claims/{claim_id}/vote",
      label: "POST /claims/{id}/vote",
      next: () => {
        const v = vote();
        return { path: `/claims/${v.claim}/vote`, method: "POST", headers: { authorization: `Bearer ${v.token}` }, body: JSON.stringify({ value: v.value }) };
      },
      bare: true,
    },
  ];
}

async function availableRoutes(server: Server): Promise<Set<string>> {
  const doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const routes = new Set<string>();
  for (const [p, methods] of Object.entries(doc.paths)) for (const m of Object.keys(methods)) routes.add(`${m.toUpperCase()} ${p}`);
  return routes;
}

async function bareRoutes(server: Server, f: Fixtures): Promise<Set<string>> {
  // The bare server answers 404 "Not found" for routes it does not implement.
  const routes = new Set<string>();
  for (const ep of endpoints(f, "bare")) {
    if (ep.kind === "vote") {
      routes.add(ep.route);
      continue;
    }
    const spec = ep.next();
    const res = await fetch(`${server.base}/api/v1${spec.path}`, { headers: spec.headers });
    const body = await res.text();
    if (!(res.status === 404 && body.includes('"Not found"'))) routes.add(ep.route);
  }
  return routes;
}

// ---- consistency after the load ----

async function checkCounters(): Promise<string[]> {
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

// ---- report ----

interface EndpointReport {
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

function judge(r: EndpointReport): string[] {
  const missed: string[] = [];
  if (!r.ours) return missed;
  const errors = r.ours.errors + r.ours.non2xx;
  if (errors > 0) missed.push(`${errors} errors`);
  if (r.kind === "vote") {
    if (r.ours.requestsPerSecond < TARGETS.votesPerSecond) missed.push(`< ${TARGETS.votesPerSecond}/s`);
  } else {
    if (r.ratio !== null && r.ratio < TARGETS.readRatio) missed.push(`ratio < ${TARGETS.readRatio}`);
    if (r.ours.p99 >= TARGETS.readP99Ms) missed.push(`p99 >= ${TARGETS.readP99Ms} ms`);
  }
  return missed;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ");
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

function printReport(reports: EndpointReport[], ours: Server, bare: Server | null, counters: string[] | null) {
  const fmt = (n: number | undefined | null, digits = 0) => (n === undefined || n === null ? "-" : n.toFixed(digits));
  const rows = [["endpoint", "req/s", "p50", "p99", "err", "q/req", "cpu ms/req", "bare req/s", "bare p99", "bare q/req", "bare cpu ms/req", "ratio", "targets"]];
  for (const r of reports) {
    if (r.skipped) {
      rows.push([r.label, ...Array(11).fill("-"), r.skipped]);
      continue;
    }
    const o = r.ours!;
    rows.push([
      r.label,
      fmt(o.requestsPerSecond),
      fmt(o.p50),
      fmt(o.p99),
      String(o.errors + o.non2xx),
      fmt(o.queriesPerRequest, 1),
      fmt(o.cpuMsPerRequest, 2),
      fmt(r.bare?.requestsPerSecond),
      fmt(r.bare?.p99),
      fmt(r.bare?.queriesPerRequest, 1),
      fmt(r.bare?.cpuMsPerRequest, 2),
      r.ratio === null ? "-" : r.ratio.toFixed(2),
      r.missed.length ? `MISSED: ${r.missed.join(", ")}` : "met",
    ]);
  }
  console.log(`\n${table(rows)}`);
  console.log(
    "(latencies in ms; err = socket errors + timeouts + non-2xx; q/req = SQL statements per request; cpu ms/req = the server process's CPU time per request)",
  );
  const rss = Math.round(ours.peakRssMb);
  console.log(`\nPeak RSS: ours ${rss} MB ${rss < TARGETS.rssMb ? "(met, < 500 MB)" : "(MISSED, >= 500 MB)"}${bare ? `, bare ${Math.round(bare.peakRssMb)} MB` : ""}`);
  if (counters) console.log(counters.length === 0 ? "Counters after the vote load: exact (invariants hold)." : `Counters after the vote load: ${counters.length} violation(s):\n  ${counters.slice(0, 20).join("\n  ")}`);
}

// ---- main ----

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const database = opts.reuse ?? `bench_${stamp.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
  const url = databaseUrl(opts.pgUrl, database);
  const secrets = { JWT_SECRET: randomBytes(48).toString("base64url"), NEXTAUTH_SECRET: randomBytes(48).toString("base64url") };
  // This process uses the service's modules (migrations, tokens, invariants) on the same database.
  Object.assign(process.env, { DATABASE_URL: url, ...secrets, SKIP_MIGRATIONS: "" });

  let ours: Server | null = null;
  let bare: Server | null = null;
  let created = false;
  const cleanup = async () => {
    await Promise.all([stopServer(ours), stopServer(bare)]);
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
      const { dbReady } = await import("../server/db/client.ts");
      await dbReady(); // the service's own start-up migration
      const s = opts.sizes;
      log(`seeding ${s.agents} agents, ${s.claims} claims, ${s.claimVotes} claim votes, ${s.evidence} evidence, ${s.evidenceVotes} evidence votes, ${s.comments} comments over ${s.days} days`);
      seedReport = await seed(url, opts.sizes);
      log(`seeded in ${seedReport.seconds.toFixed(1)} s (generation ${seedReport.stagingSeconds.toFixed(1)} s, load ${seedReport.loadSeconds.toFixed(1)} s, vacuum ${seedReport.vacuumSeconds.toFixed(1)} s): ${Object.entries(seedReport.rows).map(([t, n]) => `${t} ${n}`).join(", ")}`);
      const t = Date.now();
      const seeded = await checkCounters();
      if (seeded.length) throw new Error(`the seeded data is inconsistent:\n${seeded.slice(0, 20).join("\n")}`);
      log(`invariants hold on the seeded data (checked in ${seconds(Date.now() - t)})`);
    }

    const fixtures = await loadFixtures(url, opts);
    const serverEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: String(opts.pool),
      RATE_LIMIT_SCALE: "100000",
      ...secrets,
    };
    const profileDir = path.join(RESULTS_DIR, `cpu-${stamp}`);
    if (opts.cpuProf) mkdirSync(profileDir, { recursive: true });
    ours = await startServer("ours", opts.serverRoot, "server/http/main.ts", serverEnv, /Ready on/);
    if (opts.bare) bare = await startServer("bare", ROOT, "bench/bare-server.ts", serverEnv, /Bare server ready/);
    log(`servers up: ours ${ours.base}${bare ? `, bare ${bare.base}` : ""}; ${opts.connections} connections, ${opts.duration} s per run after ${opts.warmup} s warm-up`);

    const ourRoutes = await availableRoutes(ours);
    const bareHas = bare ? await bareRoutes(bare, fixtures) : new Set<string>();
    const oursEndpoints = endpoints(fixtures, "ours");
    const bareEndpoints = new Map(endpoints(fixtures, "bare").map((e) => [e.name, e]));
    const reports: EndpointReport[] = [];
    for (const ep of oursEndpoints) {
      if (opts.only && !opts.only.has(ep.name)) continue;
      const report: EndpointReport = { name: ep.name, label: ep.label, kind: ep.kind, ours: null, bare: null, ratio: null, missed: [] };
      reports.push(report);
      if (!ourRoutes.has(ep.route)) {
        report.skipped = "not implemented yet";
        log(`${ep.label}: skipped (not in the OpenAPI document yet)`);
        continue;
      }
      const profileOf = (server: string) => (opts.cpuProf ? path.join(profileDir, `${server}-${ep.name}.cpuprofile`) : undefined);
      report.ours = await measure(ours, ep, opts, profileOf("ours"));
      if (bare && bareHas.has(ep.route)) report.bare = await measure(bare, bareEndpoints.get(ep.name)!, opts, profileOf("bare"));
      if (opts.cpuProf) {
        const summary = (file: string) => (existsSync(file) ? summarizeCpuProfile(file) : undefined);
        report.profile = summary(profileOf("ours")!);
        report.bareProfile = report.bare ? summary(profileOf("bare")!) : undefined;
      }
      report.ratio = report.bare && report.bare.requestsPerSecond > 0 ? Math.round((report.ours.requestsPerSecond / report.bare.requestsPerSecond) * 100) / 100 : null;
      report.missed = judge(report);
      const o = report.ours;
      log(
        `${ep.label}: ${o.requestsPerSecond} req/s, p99 ${o.p99} ms, ${o.errors + o.non2xx} errors` +
          (report.bare ? ` | bare ${report.bare.requestsPerSecond} req/s, p99 ${report.bare.p99} ms | ratio ${report.ratio}` : ""),
      );
      if (o.non2xx > 0) log(`  status codes: ${JSON.stringify(o.statusCodes)}; server output: ${ours.output.slice(-1500)}`);
    }

    const voted = reports.some((r) => r.kind === "vote" && r.ours);
    let counters: string[] | null = null;
    if (voted) {
      const t = Date.now();
      counters = await checkCounters();
      log(`counters checked after the vote load in ${seconds(Date.now() - t)}`);
    }
    await Promise.all([stopServer(ours), stopServer(bare)]);

    printReport(reports, ours, bare, counters);
    for (const r of reports) {
      if (!r.profile) continue;
      const share = (list: { name: string; percent: number }[], n: number) => list.slice(0, n).map((p) => `${p.name} ${p.percent}%`).join(", ");
      console.log(`\n${r.label} — our server's CPU (${r.profile.busyMs} ms sampled, self time)\n  by package: ${share(r.profile.byPackage, 8)}\n  by function: ${share(r.profile.byFunction, 8)}`);
      if (r.bareProfile) console.log(`  bare (${r.bareProfile.busyMs} ms): ${share(r.bareProfile.byPackage, 6)}`);
    }
    if (opts.cpuProf) log(`CPU profiles (open in Chrome DevTools): ${path.relative(ROOT, profileDir)}/`);

    const pgVersion = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query("SHOW server_version")).rows[0].server_version as string;
      } finally {
        await c.end();
      }
    })();
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
          options: { quick: opts.quick, duration: opts.duration, warmup: opts.warmup, connections: opts.connections, pool: opts.pool },
          sizes: opts.reuse ? null : opts.sizes,
          database: opts.keep ? database : null,
          seed: seedReport,
          targets: TARGETS,
          endpoints: reports,
          peakRssMb: { ours: Math.round(ours.peakRssMb), bare: bare ? Math.round(bare.peakRssMb) : null },
          countersAfterVotes: counters === null ? null : counters.length === 0 ? "exact" : counters,
        },
        null,
        2,
      ),
    );
    log(`results: ${path.relative(ROOT, file)}${opts.keep ? `; database kept: ${database}` : ""} (the whole run took ${seconds(Date.now() - startedAt.getTime())})`);
    if (counters && counters.length) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(`[bench] failed: ${err instanceof Error ? err.stack : err}`);
  process.exit(2);
});
