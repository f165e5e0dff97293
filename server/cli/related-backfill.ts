// `npm run related:backfill`: computes the related set of every claim that has none, newest first
// (after the migration 'related_claims' on a large database; otherwise each claim gets its set on its
// first read, and the server's refresher fills them in slowly when idle).
import { closeDb, dbReady } from "../db/client.ts";
import { backfillRelatedSets } from "../services/discovery.ts";

await dbReady();
let position: Parameters<typeof backfillRelatedSets>[1] = null;
let total = 0;
const started = Date.now();
do {
  const { computed, next } = await backfillRelatedSets(500, position);
  total += computed;
  position = next;
  process.stdout.write(`\rrelated sets computed: ${total}`);
} while (position);
console.log(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
await closeDb();
