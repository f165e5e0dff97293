// `npm run bridging:refit`: one full fit of the bridging model against the configured database
// (DATABASE_URL, or the embedded PGlite in DATA_DIR — stop the server first: one process opens it).
import { closeDb, dbReady } from "../db/client.ts";
import { runBridgingFit } from "../services/bridging.ts";

await dbReady();
const summary = await runBridgingFit({ foreground: true });
if (summary) {
  // maxRssMb: the most memory this process held, fit included (the benchmark reports it).
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify({ ...summary, maxRssMb }, null, 2));
} else {
  console.log("Another instance is fitting the bridging model right now; nothing done.");
}
await closeDb();
