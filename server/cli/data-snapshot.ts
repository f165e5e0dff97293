// `npm run data:snapshot -- [--out DIR]`: one snapshot of the open data (docs/features/open-data.md)
// against the configured database (DATABASE_URL, or the embedded PGlite in DATA_DIR — stop the server
// first: one process opens it). Into DIR (created; it must be empty), or without --out into a new folder
// under DATA_SNAPSHOT_DIR, where the server serves it, the oldest beyond DATA_SNAPSHOTS_KEPT removed.
// The bridging model is fitted on the snapshot's votes and that fit published, as `npm run bridging:refit` does.
import { parseArgs } from "node:util";
import { closeDb, dbReady } from "../db/client.ts";
import { takeSnapshot } from "../services/open-data-snapshot.ts";

const { values } = parseArgs({ options: { out: { type: "string" }, help: { type: "boolean" } } });
if (values.help) {
  console.log("npm run data:snapshot -- [--out DIR]\n  --out DIR   write the snapshot into DIR (default: a new folder under DATA_SNAPSHOT_DIR)");
  process.exit(0);
}
try {
  await dbReady();
  const { dir, manifest, seconds } = await takeSnapshot({ out: values.out, foreground: true });
  console.log(`snapshot of ${manifest.cutoff} in ${dir} (${seconds.total.toFixed(1)} s: read ${seconds.read.toFixed(1)} s, fit ${seconds.fit.toFixed(1)} s)`);
  for (const [file, f] of Object.entries(manifest.files)) console.log(`  ${file.padEnd(26)} ${String(f.rows).padStart(10)} rows  ${String(f.bytes).padStart(12)} bytes  ${f.sha256}`);
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(`peak memory ${maxRssMb} MB. Rescore it: npm run data:score -- ${dir}`);
} catch (err) {
  console.error(`data:snapshot failed: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
