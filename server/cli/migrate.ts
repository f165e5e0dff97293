// `npm run db:migrate`: applies pending migrations to the configured database (PGlite in DATA_DIR, or
// DATABASE_URL) and exits. The app does the same at start-up unless SKIP_MIGRATIONS=1.
import { closeDb, dbBackend, dbReady } from "../db/client.ts";

try {
  await dbReady();
  console.log(`Migrations applied (${dbBackend()}).`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await closeDb();
}
