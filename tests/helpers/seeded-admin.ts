// A verified admin on a built server's database, made before the server starts (ADMIN_EMAILS only
// grants admin to verified addresses, and a password registration is not verified).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "./built-server.ts";

/** Creates a DATA_DIR (PGlite) — or uses DATABASE_URL's schema — holding a verified admin; returns the DATA_DIR to start the server with. */
export function dataDirWithAdmin(email: string, password: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), "claims-admin-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.PGLITE_DATA_DIR;
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "tests/helpers/seed-admin.ts", email, password], { cwd: root, env, encoding: "utf8" });
  if (seeded.status !== 0) throw new Error(`seeding the admin failed:\n${seeded.stdout}\n${seeded.stderr}`);
  return dataDir;
}
