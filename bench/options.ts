// The benchmark's command line: its options, their defaults (full and --quick) and --help.
import path from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SIZES, parseSizes, type SeedSizes } from "./seed.ts";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const RESULTS_DIR = path.join(ROOT, "bench", "results");

export const QUICK_SIZES: SeedSizes = { agents: 1_000, claims: 5_000, claimVotes: 50_000, evidence: 10_000, evidenceVotes: 10_000, comments: 2_500, days: 90 };

const HELP = `npm run bench -- [options]

  --quick                 small data set (${QUICK_SIZES.agents} agents, ${QUICK_SIZES.claims} claims, ${QUICK_SIZES.claimVotes} votes…), 1.5 s runs
  --duration <s>          seconds of load per endpoint and server (default 5; quick 1.5)
  --warmup <s>            unmeasured load before each run (default 1; quick 0.3)
  --connections <n>       concurrent connections for the API endpoints (default 32)
  --page-connections <n>  concurrent connections for the pages and their yardstick (default 16, the issue's setting)
  --only <a,b,…>          only these endpoints (names as in the table: claims, vote, vote-followed…; webhook-latency for vote → webhook call;
                          pages for the whole page table, or page-home, page-claim, page-topic, page-profile, page-discover and
                          each with -signed-in, e.g. page-claim-signed-in; the yardstick page-icon runs whenever a page does;
                          bridging for the model's fit; open-data for a snapshot and its rescore)
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

export interface Options {
  quick: boolean;
  sizes: SeedSizes;
  duration: number;
  warmup: number;
  connections: number;
  pageConnections: number;
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

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      duration: { type: "string" },
      warmup: { type: "string" },
      connections: { type: "string", default: "32" },
      "page-connections": { type: "string", default: "16" },
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
    pageConnections: Math.round(positive("page-connections", values["page-connections"], 16)),
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
