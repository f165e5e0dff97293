// Runs in every test process before its test file. Secrets are fixed so tokens can be made in tests;
// the database is isolated per test file: an in-memory PGlite by default, or a fresh schema of the
// PostgreSQL named by DATABASE_URL (dropped afterwards), so files can run in parallel.
import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";

process.env.JWT_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.NEXTAUTH_SECRET ??= "test-nextauth-secret-test-nextauth-secret-0123";
process.env.WEBHOOK_SECRET_KEY ??= "test-webhook-key-test-webhook-key-0123456789";
process.env.NEXTAUTH_URL ??= "http://localhost:3000";
// Tests that are about rate limits create their own limiter; everything else must not hit one.
process.env.RATE_LIMIT_SCALE ??= "1000";
// Claims resolve in the vote that brings them to a consensus they may resolve on, as tests about
// outcomes expect; tests of the wait before resolution set their own (tests/api/resolution.test.ts).
process.env.RESOLUTION_STABLE_SECONDS ??= "0";
// Every account that is not automated (nor suspended) has standing, as before standing existed: the
// suites test that behaviour; tests of standing set the defaults (docs/features/consensus.md#standing).
process.env.STANDING_MIN_AGE_SECONDS ??= "0";
process.env.STANDING_MIN_VOTES ??= "0";
process.env.STANDING_REQUIRE_VERIFIED ??= "false";
// The bridging refit runs where a test runs it (tests/api/bridging.test.ts, tests/api/background.test.ts):
// in the background it would re-score claims under tests that set or expect their standing.
process.env.BRIDGING_INTERVAL_SECONDS ??= "0";
// Nor the open data's snapshot (a fit of its own, published): tests/api/open-data*.test.ts take theirs.
process.env.DATA_SNAPSHOT_HOURS ??= "0";
process.env.RATE_LIMIT_PREFIX = `test-${randomBytes(6).toString("hex")}`;
process.env.CACHE_PREFIX ??= `test-cache-${randomBytes(6).toString("hex")}`;
process.env.LOG_LEVEL ??= "error";

let schema: string | undefined;
if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  if (!url.searchParams.has("schema")) {
    schema = `t_${randomBytes(6).toString("hex")}`;
    url.searchParams.set("schema", schema);
    process.env.DATABASE_URL = url.toString();
    // The replica is a copy of the same database: the same schema there.
    if (process.env.DATABASE_REPLICA_URL) {
      const replica = new URL(process.env.DATABASE_REPLICA_URL);
      replica.searchParams.set("schema", schema);
      process.env.DATABASE_REPLICA_URL = replica.toString();
    }
  }
} else {
  process.env.PGLITE_DATA_DIR = "memory://";
}

afterAll(async () => {
  const { stopBackground } = await import("../server/jobs/index.ts");
  await stopBackground();
  const { closeDb } = await import("../server/db/client.ts");
  const { closeRateLimiter } = await import("../server/ratelimit/limiter.ts");
  const { closeCache } = await import("../server/cache/index.ts");
  await closeDb();
  await closeRateLimiter();
  await closeCache();
  if (schema && process.env.DATABASE_URL) {
    const pg = (await import("pg")).default;
    const url = new URL(process.env.DATABASE_URL);
    url.searchParams.delete("schema");
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    // The job queue's schema beside it (server/queue/pg-boss.ts), when the file started the queue.
    await client.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    await client.end();
  }
});
