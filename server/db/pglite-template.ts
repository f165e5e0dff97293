// A new embedded database starts from a copy of one already created and migrated (docs/operating.md#a-new-embedded-database).
// Creating a PGlite database runs PostgreSQL's initdb in WebAssembly: 3–5 s of CPU on this project's
// machines, paid by every fresh DATA_DIR (a clone's first `npm run dev`) and by every test file (each
// opens its own in-memory database). The first such database of a migration set is dumped once it is
// migrated; later ones load that dump (≈0.7 s) and find every migration applied. The dump is a cache
// (node_modules/.cache), named by what decides its content: PGlite's version, the extensions and the
// migrations' checksums; anything else, or any error reading or writing it, means the slow path.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { listMigrations, migrationsDir, type SqlRunner } from "./migrate.ts";

/** The extensions every embedded database loads: pg_trgm (similar claims, docs/features/arguments.md). */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** The migration runner of an embedded database: one session, so no lock to take. */
export function pgliteRunner(db: PGlite): SqlRunner {
  return {
    exec: async (sql) => void (await db.exec(sql)),
    query: async (sql, params) => (await db.query(sql, params as unknown[])).rows as Record<string, unknown>[],
    withLock: (fn) => fn(),
  };
}

const CACHE_DIR = ["node_modules", ".cache", "claims-service"];

/** Where the dump of a migrated empty database for this PGlite and these migrations is kept, or null. */
export function templatePath(extensions: string[], migrations = migrationsDir()): string | null {
  try {
    const root = process.cwd();
    const pglitePackage = path.join(/*turbopackIgnore: true*/ root, "node_modules", "@electric-sql", "pglite", "package.json");
    const { version } = JSON.parse(readFileSync(pglitePackage, "utf8")) as { version: string };
    const key = createHash("sha256")
      .update(JSON.stringify({ version, extensions, migrations: listMigrations(migrations).map((m) => [m.name, m.checksum]) }))
      .digest("hex")
      .slice(0, 24);
    return path.join(/*turbopackIgnore: true*/ root, ...CACHE_DIR, `pglite-${key}.tar.gz`);
  } catch {
    return null;
  }
}

/** The kept dump at `file`, if there is one. */
export function readTemplate(file: string | null): Blob | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/** Keeps a dump of `pglite` (just migrated, nothing else written) at `file`; a failure only costs speed. */
export async function saveTemplate(pglite: PGlite, file: string): Promise<void> {
  try {
    const dump = Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed: test files starting at once may write it together, none reads half.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, dump);
    renameSync(partial, file);
    // Older migration sets' copies go: one copy kept, not one per migration ever written.
    for (const other of readdirSync(path.dirname(file))) {
      if (/^pglite-[0-9a-f]+\.tar\.gz$/.test(other) && other !== path.basename(file)) rmSync(path.join(path.dirname(file), other), { force: true });
    }
  } catch {
    /* the next fresh database takes the slow path again */
  }
}

/** Whether PGlite will create the database at `dataDir` (memory://, or a folder with no cluster yet). */
export function isNewDatabase(dataDir: string): boolean {
  return dataDir.startsWith("memory://") || !existsSync(path.join(/*turbopackIgnore: true*/ dataDir, "PG_VERSION"));
}
