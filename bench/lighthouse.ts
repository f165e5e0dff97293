// npm run bench:pages: Lighthouse's mobile performance of the pages people open first
// (docs/benchmarks/2026-11-28-lighthouse.md).
//
// Starts the production server (`.next` from `next build`, server/main.ts as `npm start` runs it) on a
// free port with the demo data on a fresh embedded database, or measures a running one (--url), then
// runs Lighthouse (its default: a mid-range phone, simulated throttling) with the system Chromium on
// home, a claim, a profile, the leaderboard and a topic, each --runs times (default 3), and prints the
// median performance score, total blocking time, LCP and accessibility score beside the goals, with the
// machine's load average and Lighthouse's benchmark index (its own measure of the machine's speed at
// the time). Simulated TBT grows with the machine's load: read the figures beside them.
//
//   npm run bench:pages                        # build first: flock /tmp/claims-next.lock npx next build
//   npm run bench:pages -- --url http://127.0.0.1:3000   # a running server that has the demo data
//   npm run bench:pages -- --runs 5 --only claim,topic
//   npm run bench:pages -- --scripts           # and the scripts each page loads (bytes over the wire)
//   npm run bench:pages -- --json out.json     # every run's figures
//   npm run bench:pages -- --cpu-slowdown 2    # Lighthouse's CPU multiplier (default 4, its own default)
//   npm run bench:pages -- --block '*_rsc=*'   # requests Lighthouse refuses (an experiment: what they cost)
//
// Lighthouse's default 4× CPU slowdown assumes a host with a benchmark index of 1500–2000 (a high-end
// desktop); its documentation (its throttling page, "Calibrating the CPU slowdown") advises a lower
// multiplier on a slower host to emulate the same phone. The figures reported as the result are the
// default's; --cpu-slowdown is there to read a page beside the calibration, never instead of it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { DEMO_AGENTS } from "../server/seed/demo-data.ts";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    scripts: { type: "boolean", default: false },
    json: { type: "string" },
    chrome: { type: "string", default: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    "cpu-slowdown": { type: "string", default: "4" },
    block: { type: "string" },
  },
});
const runs = Math.max(1, Number(values.runs));
const root = process.cwd();
const GOALS = { performance: 90, tbt: 200, lcp: 2500, accessibility: 100 };

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

/** The production server on the demo data, in its own process group and data directory. */
async function startServer(): Promise<{ base: string; stop: () => void }> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no production build: run `npx next build` first");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "claims-lighthouse-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port) };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.PGLITE_DATA_DIR;
  // The demo data first (db:seed refuses in production), then the server on the same directory.
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "server/cli/seed.ts"], {
    cwd: root,
    env: { ...env, NODE_ENV: "development" },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`db:seed failed:\n${seeded.stdout}${seeded.stderr}`);
  const secret = () => randomBytes(48).toString("base64url");
  const child: ChildProcess = spawn(process.execPath, ["--max-old-space-size=320", "--max-semi-space-size=16", "--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...env,
      NODE_ENV: "production",
      NEXTAUTH_URL: base,
      JWT_SECRET: env.JWT_SECRET ?? secret(),
      NEXTAUTH_SECRET: env.NEXTAUTH_SECRET ?? secret(),
      WEBHOOK_SECRET_KEY: env.WEBHOOK_SECRET_KEY ?? secret(),
      LOG_LEVEL: "warn",
    },
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const stop = () => {
    try {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  while (!/Ready on/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, stop };
}

/** The five pages: a claim with the most votes, the demo's first agent, the claim's first topic. */
async function pages(base: string): Promise<[string, string][]> {
  const res = await fetch(`${base}/api/v1/claims?limit=50`);
  if (!res.ok) throw new Error(`GET /api/v1/claims: ${res.status}`);
  const body = (await res.json()) as Record<string, unknown>;
  const list = (Array.isArray(body) ? body : (Object.values(body).find(Array.isArray) ?? [])) as {
    id: string;
    tags?: string[];
    vote_count?: number;
    votes?: number;
  }[];
  if (!list.length) throw new Error("no claims: is the demo data loaded?");
  const votes = (c: (typeof list)[number]) => c.vote_count ?? c.votes ?? 0;
  const claim = [...list].sort((a, b) => votes(b) - votes(a))[0];
  const tag = claim.tags?.[0] ?? list.find((c) => c.tags?.length)?.tags?.[0] ?? "science";
  return [
    ["home", "/"],
    ["claim", `/claims/${claim.id}`],
    ["profile", `/profiles/${DEMO_AGENTS[0].username}`],
    ["leaderboard", "/leaderboard"],
    ["topic", `/topics/${encodeURIComponent(tag)}`],
  ];
}

interface Run {
  performance: number;
  tbt: number;
  lcp: number;
  fcp: number;
  /** Cumulative layout shift and speed index: the rest of the performance score. */
  cls: number;
  speedIndex: number;
  /** The largest layout shifts of the run: score and the element that moved. */
  shifts: string[];
  accessibility: number;
  /** The accessibility audits that failed. */
  failedA11y: string[];
  scripts: { url: string; bytes: number }[];
  /** Main-thread time per script (Lighthouse's bootup-time: evaluation, parse and compile), ms. */
  bootup: { url: string; scripting: number }[];
  load: string;
  /** Lighthouse's measure of this machine's speed at the time (a desktop ≈ 1000–2000; less is slower). */
  benchmarkIndex: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const server = values.url ? { base: values.url.replace(/\/$/, ""), stop: () => {} } : await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: values.chrome,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const all: Record<string, Run[]> = {};
  try {
    let list = await pages(server.base);
    if (values.only) list = list.filter(([name]) => values.only!.split(",").includes(name));
    // One unmeasured request each: the first render (and the page store) is not what is measured. Its
    // scripts and styles too, as a browser asks for them: the server encodes each in brotli on its
    // first request (server/http/static-brotli.ts), and a few seconds let it finish.
    for (const [, p] of list) {
      const html = await fetch(server.base + p).then((r) => r.text());
      for (const [, asset] of html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+\.(?:js|css))"/g)) {
        await fetch(server.base + asset, { headers: { "accept-encoding": "br" } }).then((r) => r.arrayBuffer());
      }
    }
    await new Promise((r) => setTimeout(r, 3000));
    console.log(`load average before: ${load()} (${os.cpus().length} cores); CPU slowdown ${values["cpu-slowdown"]}×`);
    for (const [name, p] of list) {
      all[name] = [];
      // A run Lighthouse could not record (NO_NAVSTART and the like, more frequent on a loaded machine)
      // is retried, not counted: up to twice the asked number of attempts.
      for (let attempt = 0; all[name].length < runs && attempt < 2 * runs; attempt++) {
        const result = await lighthouse(
          server.base + p,
          { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] },
          { extends: "lighthouse:default", settings: {
              throttling: { cpuSlowdownMultiplier: Number(values["cpu-slowdown"]) } as never,
              blockedUrlPatterns: values.block ? values.block.split(",") : undefined,
            },
          },
        );
        if (!result) throw new Error(`no result for ${p}`);
        const { lhr } = result;
        if (lhr.runtimeError) {
          console.log(`  ${name}: ${lhr.runtimeError.code} (not counted, run again)`);
          continue;
        }
        const items = ((lhr.audits["network-requests"]?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] })?.items ?? []).filter(
          (r) => r.resourceType === "Script",
        );
        all[name].push({
          performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
          tbt: lhr.audits["total-blocking-time"].numericValue ?? NaN,
          lcp: lhr.audits["largest-contentful-paint"].numericValue ?? NaN,
          fcp: lhr.audits["first-contentful-paint"].numericValue ?? NaN,
          cls: lhr.audits["cumulative-layout-shift"].numericValue ?? NaN,
          speedIndex: lhr.audits["speed-index"].numericValue ?? NaN,
          shifts: ((lhr.audits["layout-shifts"]?.details as { items?: { score?: number; node?: { snippet?: string } }[] })?.items ?? [])
            .slice(0, 3)
            .map((i) => `${(i.score ?? 0).toFixed(3)} ${i.node?.snippet ?? "(unattributed)"}`),
          accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
          failedA11y: Object.values(lhr.audits)
            .filter((a) => lhr.categories.accessibility.auditRefs.some((ref) => ref.id === a.id && ref.weight > 0) && a.score === 0)
            .map((a) => {
              const nodes = ((a.details as { items?: { node?: { snippet?: string } }[] })?.items ?? []).map((i) => i.node?.snippet).filter(Boolean);
              return nodes.length ? `${a.id} (${nodes.slice(0, 3).join(" ")})` : a.id;
            }),
          scripts: items.map((r) => ({ url: r.url.replace(server.base, ""), bytes: r.transferSize ?? 0 })),
          bootup: ((lhr.audits["bootup-time"]?.details as { items?: { url: string; scripting?: number }[] })?.items ?? []).map((i) => ({
            url: i.url.replace(server.base, ""),
            scripting: Math.round(i.scripting ?? 0),
          })),
          load: load(),
          benchmarkIndex: lhr.environment.benchmarkIndex,
        });
      }
      if (!all[name].length) {
        console.log(`${name.padEnd(11)} ${p}: no run could be recorded`);
        continue;
      }
      const r = all[name];
      const m = (k: "performance" | "tbt" | "lcp" | "fcp" | "cls" | "speedIndex" | "accessibility") => median(r.map((x) => x[k]));
      const js = r[0].scripts;
      const ok = (b: boolean) => (b ? "ok" : "MISS");
      console.log(
        [
          `${name.padEnd(11)} ${p}`,
          `  performance ${m("performance")} (goal ≥ ${GOALS.performance}, ${ok(m("performance") >= GOALS.performance)}) runs ${r.map((x) => x.performance).join("/")}`,
          `  TBT ${Math.round(m("tbt"))} ms (goal < ${GOALS.tbt}, ${ok(m("tbt") < GOALS.tbt)}) runs ${r.map((x) => Math.round(x.tbt)).join("/")}`,
          `  LCP ${(m("lcp") / 1000).toFixed(2)} s (goal < 2.5, ${ok(m("lcp") < GOALS.lcp)}) runs ${r.map((x) => (x.lcp / 1000).toFixed(2)).join("/")}; FCP ${(m("fcp") / 1000).toFixed(2)} s`,
          `  CLS ${m("cls").toFixed(3)} (Lighthouse's good: ≤ 0.1) runs ${r.map((x) => x.cls.toFixed(3)).join("/")}; speed index ${(m("speedIndex") / 1000).toFixed(2)} s`,
          ...(m("cls") > 0.1 ? r[0].shifts.map((sh) => `    shift ${sh}`) : []),
          `  accessibility ${m("accessibility")} (goal ${GOALS.accessibility}, ${ok(m("accessibility") >= GOALS.accessibility)})${r[0].failedA11y.length ? `; failed: ${r[0].failedA11y.join(", ")}` : ""}`,
          `  scripts: ${js.length}, ${(js.reduce((n, s) => n + s.bytes, 0) / 1024).toFixed(1)} KB over the wire`,
          `  load average after: ${r.at(-1)!.load}; Lighthouse's benchmark index ${r.map((x) => Math.round(x.benchmarkIndex)).join("/")}`,
        ].join("\n"),
      );
      if (values.scripts) {
        for (const s of [...js].sort((a, b) => b.bytes - a.bytes)) console.log(`    ${(s.bytes / 1024).toFixed(1).padStart(6)} KB ${s.url}`);
        console.log("  main-thread script time (Lighthouse's bootup-time, first run, throttled):");
        for (const b of r[0].bootup.filter((x) => x.scripting > 0)) console.log(`    ${String(b.scripting).padStart(6)} ms ${b.url}`);
      }
    }
    if (values.json) writeFileSync(values.json, JSON.stringify(all, null, 2));
  } finally {
    await chrome.kill();
    server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
