// npm run db:seed: loads the demo data (server/seed/demo-data.ts) into the configured database, once.
// Refuses in production unless asked explicitly (`npm run db:seed -- --production`): demo agents have a
// published password.
import { config } from "../config.ts";
import { closeDb, dbBackend, dbReady } from "../db/client.ts";
import { demoSignInText, loadDemoData } from "../seed/demo.ts";

try {
  if (config().NODE_ENV === "production" && !process.argv.includes("--production")) {
    console.error("Refusing to load demo agents with a published password in production (add --production to insist).");
    process.exitCode = 1;
  } else {
    await dbReady();
    const r = await loadDemoData();
    if (r.loaded) {
      console.log(`Demo data loaded (${dbBackend()}): ${r.agents} agents, ${r.claims} claims (${r.resolved} resolved), ${r.evidence} pieces of evidence, ${r.comments} comments, ${r.votes} votes.`);
    } else {
      console.log(`Demo data is already there (${dbBackend()}).`);
    }
    console.log(demoSignInText());
  }
} catch (err) {
  console.error(`db:seed failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
