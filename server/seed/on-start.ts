// `npm run dev` loads the demo data in its Next process, while Next starts and compiles the first page,
// instead of before starting it: the first run's wait for the data (PGlite creating its database,
// the migrations, the demo) and the first page's compile overlap (docs/benchmarks/2026-11-28-dev-start.md).
// Every request waits for dbReady(), which the load holds (server/db/client.ts holdReadyFor): a page
// opened meanwhile is shown once the data is in, never half of it.
import { config } from "../config.ts";
import { holdReadyFor } from "../db/client.ts";
import { lifecycleLog, logError } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

/**
 * Under DEMO_SEED=start (outside production): holds requests until the demo data is in an empty
 * database. Once per process: `npm run dev`'s preload calls it before Next starts (server/cli/dev-preload.mjs),
 * instrumentation.ts again once Next has compiled it.
 */
export function loadDemoBeforeRequests(): void {
  const cfg = config();
  if (cfg.DEMO_SEED !== "start" || cfg.NODE_ENV === "production") return;
  processSingleton("claims.demoOnStart", () => holdDemo());
}

function holdDemo(): true {
  holdReadyFor(async () => {
    try {
      const { databaseIsEmpty, demoSignInText, loadDemoData } = await import("./demo.ts");
      if (!(await databaseIsEmpty())) return;
      const started = performance.now();
      lifecycleLog().info("[demo] Empty database: loading the demo data (DEMO_SEED=off skips this); pages wait for it …");
      const r = await loadDemoData();
      lifecycleLog().info(
        `[demo] Demo data in ${((performance.now() - started) / 1000).toFixed(1)} s: ${r.claims} claims (${r.resolved} resolved), ${r.evidence} pieces of evidence, ${r.comments} comments, ${r.votes} votes. ${demoSignInText()}`,
      );
    } catch (err) {
      // The demo is a convenience: the server serves anyway.
      logError("[demo] Could not load the demo data", err);
    }
  });
  return true;
}
