// Runs once, before any test file: the smoke, security and operations tests start the production
// build (`next build` output under server/main.ts). Building here, once, rather than in each file
// keeps parallel files from starting several `next build`s at once on a fresh clone (Next refuses the
// second), and rebuilds when a source file is newer than the build so `npm test` never tests stale code.
// A run of chosen files none of which starts the build (`npx vitest run tests/api/x.test.ts`) skips it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const SOURCES = ["app", "server", "instrumentation.ts", "next.config.mjs", "package.json", "tsconfig.json", "prisma/schema.prisma"];

function newestMtime(entry: string): number {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (child === "generated" || child === "node_modules") continue; // written by `prisma generate`, not by hand
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(path.join(root, source)) <= builtAt);
}

/** The tests that start the production build live in these folders. */
const NEEDS_BUILD = /(^|\/)tests\/(smoke|security|ops)(\/|$)|^(smoke|security|ops)$/;

/** Whether this run includes a file that starts the build: the whole suite, or a filter naming one. */
function runNeedsBuild(): boolean {
  const run = process.argv.indexOf("run");
  const filters = process.argv.slice(run + 1).filter((arg) => !arg.startsWith("-") && /[/.]|^(api|unit|smoke|security|ops|ratelimit)$/.test(arg));
  return filters.length === 0 || filters.some((f) => NEEDS_BUILD.test(f));
}

export default function setup(): void {
  if (process.env.SKIP_NEXT_BUILD === "1" || !runNeedsBuild() || buildIsCurrent()) return;
  console.log("[tests] building the production app once (next build) for the tests that start it…");
  const build = spawnSync("npx", ["next", "build"], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
  if (build.status !== 0) throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`);
}
