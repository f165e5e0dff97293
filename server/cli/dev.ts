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
const child = spawn(process.execPath, [nextBin, "dev", ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
