// npm run dev: runs `next dev`, and on a first run (no agents, no claims) has its Next process load the
// demo data so the site has something to read, vote on and sign in as — unless DEMO_SEED=off. The load
// starts with that process (dev-preload.mjs), runs while Next starts and compiles the first page, and
// holds every request until it is done (DEMO_SEED=start: server/seed/on-start.ts): one embedded (PGlite)
// data directory serves one process, and loading it first made a fresh clone wait for PGlite's new
// database, the migrations and the demo before Next even started (docs/benchmarks/2026-11-28-dev-start.md).
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { config, ConfigError } from "../config.ts";
import { demoSignInText } from "../seed/demo-data.ts";

let demo: "start" | "off" = "off";
try {
  const cfg = config();
  demo = cfg.DEMO_SEED === "off" || cfg.NODE_ENV === "production" ? "off" : "start";
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
if (demo === "start") console.log(`> An empty database gets the demo data while Next starts (DEMO_SEED=off skips this). ${demoSignInText()}`);

const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
// The node-level guard and the demo data's load, started in Next's serving process before Next (dev-preload.mjs).
const preload = pathToFileURL(path.join(import.meta.dirname, "dev-preload.mjs")).href;
const args = process.argv.slice(2);
const child = spawn(process.execPath, ["--import", preload, nextBin, "dev", ...args], {
  stdio: ["inherit", "pipe", "inherit"],
  // Piped to watch for "Ready": keep Next's colours when the terminal has them.
  env: {
    ...process.env,
    DEMO_SEED: demo,
    ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}),
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Next's output passes through; once it is ready, say what the first minute holds. DEV_WARM=on also
// compiles the home page and the road a person signing in from an MCP client's authorization takes, in
// the background: off by default, because on two cores it doubled the first load of the page the
// developer opened meanwhile (docs/benchmarks/2026-11-28-dev-start.md). The sign-in page asks for
// NextAuth's route while the person types instead (app/signin/credentials-form.tsx).
let told = false;
child.stdout!.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (told || !/Ready in/.test(chunk.toString())) return;
  told = true;
  console.log(
    "> The first load of each page or API route compiles it once (up to tens of seconds on a small machine); later loads are quick." +
      (demo === "start" ? " On a first run pages also wait for the demo data." : ""),
  );
  if (process.env.DEV_WARM === "on") void warm(args).catch(() => undefined);
});

/**
 * What is compiled in the background after ready with DEV_WARM=on: the home page most open
 * first, then the road from an MCP client's authorization: the consent page (signed out, it sends the
 * browser to sign in), the sign-in page, and NextAuth's route the sign-in form posts to.
 */
const WARM_PATHS = ["/", "/consent/warm-up", "/signin", "/api/auth/providers"];

async function warm(argv: string[]): Promise<void> {
  const at = (flag: string[]) => {
    const i = argv.findIndex((a) => flag.includes(a));
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const port = at(["-p", "--port"]) ?? process.env.PORT ?? "3000";
  const host = at(["-H", "--hostname"]) ?? "127.0.0.1";
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  console.log(`> DEV_WARM=on: compiling in the background ${WARM_PATHS.join(", ")}`);
  const started = performance.now();
  // One at a time: on two cores, parallel compiles only slow the page the developer opened.
  for (const p of WARM_PATHS) await fetch(`${base}${p}`, { redirect: "manual" }).then((r) => r.arrayBuffer(), () => undefined);
  console.log(`> Sign-in road warmed in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}
