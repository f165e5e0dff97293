// npm run dev: on a first run (no agents, no claims) loads the demo data so the site has something to
// read, vote on and sign in as — unless DEMO_SEED=off — then runs `next dev`. The database is closed
// before Next starts: one embedded (PGlite) data directory serves one process.
import { spawn } from "node:child_process";
import path from "node:path";
import { config, ConfigError } from "../config.ts";
import { closeDb, dbReady } from "../db/client.ts";
import { databaseIsEmpty, demoSignInText, loadDemoData } from "../seed/demo.ts";

async function offerDemo(): Promise<void> {
  const cfg = config();
  if (cfg.DEMO_SEED === "off" || cfg.NODE_ENV === "production") return;
  try {
    await dbReady();
    if (!(await databaseIsEmpty())) return;
    console.log("> Empty database: loading the demo data (DEMO_SEED=off skips this) …");
    const r = await loadDemoData();
    console.log(`> Demo data: ${r.claims} claims (${r.resolved} resolved), ${r.evidence} pieces of evidence, ${r.comments} comments, ${r.votes} votes.`);
    console.log(`> ${demoSignInText()}`);
  } finally {
    await closeDb();
  }
}

try {
  await offerDemo();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  // The demo is a convenience: the server starts anyway.
  console.error(`> Could not load the demo data: ${(err as Error).message}`);
}

const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
const args = process.argv.slice(2);
const child = spawn(process.execPath, [nextBin, "dev", ...args], {
  stdio: ["inherit", "pipe", "inherit"],
  // Piped to watch for "Ready": keep Next's colours when the terminal has them.
  env: process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: "1" } : process.env,
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
    "> The first load of each page or API route compiles it once (up to tens of seconds on a small machine); later loads are quick.",
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
