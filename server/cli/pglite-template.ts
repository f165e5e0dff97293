// Run by `npm install` (postinstall): makes the kept copy of a new, migrated embedded database, so that a
// clone's first `npm run dev` and each test file skip PGlite's initdb (docs/operating.md#a-new-embedded-database).
// A cache only: whatever goes wrong here, the install goes on and the first new database is made the slow way.
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations } from "../db/migrate.ts";
import { PGLITE_EXTENSIONS, pgliteRunner, readTemplate, saveTemplate, templatePath } from "../db/pglite-template.ts";

setTimeout(() => process.exit(0), 120_000).unref();
try {
  const migrations = path.join(process.cwd(), "prisma", "migrations");
  const file = templatePath(Object.keys(PGLITE_EXTENSIONS), migrations);
  if (file && !readTemplate(file)) {
    const db = new PGlite("memory://", { extensions: PGLITE_EXTENSIONS });
    await applyMigrations(pgliteRunner(db), migrations);
    await saveTemplate(db, file);
    await db.close();
  }
} catch (err) {
  console.warn(`The embedded database's template was not made (${(err as Error).message}); the first new database will take a few seconds more.`);
}
