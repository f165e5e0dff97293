// `npm run check:invariants`: recomputes every derived field of the configured database (PGlite in
// DATA_DIR, or DATABASE_URL) from the raw rows and prints what disagrees. Exit code 1 when anything
// does, 2 when the check itself could not run.
import { closeDb, dbBackend, dbReady } from "../db/client.ts";
import { checkInvariants } from "../services/invariants.ts";

// Not an API request: recounting a large database may take longer than the API's statement timeout.
process.env.DATABASE_STATEMENT_TIMEOUT_MS ??= "0";

try {
  await dbReady();
  const violations = await checkInvariants();
  if (violations.length === 0) {
    console.log(`Invariants hold (${dbBackend()}).`);
  } else {
    for (const v of violations) console.log(v);
    console.error(`${violations.length} invariant violation(s) (${dbBackend()}).`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 2;
} finally {
  await closeDb();
}
