// `npx tsx bench/micro.ts --reuse <database>`: the REST adapter called in-process (no HTTP, no load
// generator), N requests per endpoint, 16 at a time, on an already seeded benchmark database. Prints
// CPU ms per request (this process: the adapter, tRPC, the services, the driver — PostgreSQL's own work
// is another process), SQL statements per request, and with --cpu-prof where the CPU went.
// Depends little on the machine's load, unlike req/s: the figure to compare before/after a change of
// the API path (docs/benchmarks/2026-11-25-api-path.md).
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";
import { parseArgs } from "node:util";
import { statementsSent } from "./pg-statements.ts";
import { summarizeCpuProfile } from "./cpu-profile.ts";
import { endpoints, loadFixtures } from "./endpoints.ts";
import { databaseUrl } from "./orchestration.ts";
import { parseOptions, RESULTS_DIR } from "./options.ts";

const { values } = parseArgs({
  options: {
    reuse: { type: "string" },
    pg: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    only: { type: "string", default: "stats,claims,claims-tag,claims-search,claims-gradient,claims-offset,claim,evidence,trending,profile,timeline,vote" },
    n: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "16" },
    "cpu-prof": { type: "boolean", default: false },
    rounds: { type: "string", default: "1" },
  },
});
if (!values.reuse) throw new Error("--reuse <database>: a database seeded by `npm run bench -- --quick --keep`");
const url = databaseUrl(values.pg!, values.reuse);
Object.assign(process.env, {
  DATABASE_URL: url,
  JWT_SECRET: process.env.JWT_SECRET ?? "micro-bench-secret-micro-bench-secret-micro-bench",
  NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET ?? "micro-bench-nextauth-secret-micro-bench-secret",
  WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? "micro-bench-webhook-secret-micro-bench-secret",
  RATE_LIMIT_SCALE: "100000",
  NODE_ENV: "production",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
});

const N = Number(values.n);
const CONCURRENCY = Number(values.concurrency);
const only = new Set(values.only!.split(","));

const { handleRest } = await import("../server/rest/handler.ts");
const { dbReady, closeDb } = await import("../server/db/client.ts");
await dbReady();
const fixtures = await loadFixtures(url, parseOptions(["--quick"]));
const list = endpoints(fixtures, "ours").filter((e) => only.has(e.name));

let session: Session | null = null;
const post = (method: string, params?: object) =>
  new Promise<any>((resolve, reject) => session!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));

async function run(e: (typeof list)[number], n: number): Promise<number[]> {
  const statuses: number[] = [];
  let left = n;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const spec = e.next();
        const body = spec.body ? Buffer.from(spec.body) : Buffer.alloc(0);
        const res = await handleRest({
          method: spec.method ?? "GET",
          url: `/api/v1${spec.path}`,
          headers: { ...(spec.headers ?? {}), ...(spec.body ? { "content-type": "application/json" } : {}) },
          remoteAddress: "127.0.0.1",
          readBody: async () => body,
        });
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

const profileDir = path.join(RESULTS_DIR, `micro-${new Date().toISOString().replace(/[:.]/g, "-")}`);
if (values["cpu-prof"]) mkdirSync(profileDir, { recursive: true });
console.log(`endpoint | CPU ms/req (user + system) | statements/req | statuses`);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const e of list) {
    await run(e, Math.min(N, 300)); // warm-up: compiled code, caches, connections
    if (values["cpu-prof"]) {
      session = new Session();
      session.connect();
      await post("Profiler.enable");
      await post("Profiler.setSamplingInterval", { interval: 250 });
      await post("Profiler.start");
    }
    const s0 = statementsSent();
    const c0 = process.cpuUsage();
    const statuses = await run(e, N);
    const c = process.cpuUsage(c0);
    const st = statementsSent() - s0;
    let profileNote = "";
    if (values["cpu-prof"]) {
      const { profile } = await post("Profiler.stop");
      session!.disconnect();
      const file = path.join(profileDir, `${e.name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      const sum = summarizeCpuProfile(file, 12);
      const share = (l: { name: string; percent: number }[], k: number) => l.slice(0, k).map((p) => `${p.name} ${p.percent}%`).join(", ");
      profileNote = `\n  by package: ${share(sum.byPackage, 10)}\n  by function: ${share(sum.byFunction, 14)}`;
    }
    const counts = new Map<number, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    console.log(
      `${e.label} | ${((c.user + c.system) / 1000 / N).toFixed(3)} (${(c.user / 1000 / N).toFixed(3)} + ${(c.system / 1000 / N).toFixed(3)}) | ${(st / N).toFixed(2)} | ${[...counts].map(([s, k]) => `${s}×${k}`).join(" ")}${profileNote}`,
    );
  }
}
if (values["cpu-prof"]) console.log(`profiles: ${path.relative(process.cwd(), profileDir)}`);
await closeDb();
process.exit(0);
