// The job queue: pg-boss 10 on the application's own database, through the db module (`rawSql`), so
// the same code runs on PostgreSQL and on the embedded PGlite. Why pg-boss 10: pg-boss 11/12 and
// graphile-worker 0.17+ need Node 22; pg-boss 10.4 supports Node ≥ 20 (and runs on 24), accepts a
// custom `db` — which is what lets it run on PGlite, which has no wire protocol for a `pg` pool — and
// inserts jobs in the caller's transaction through the same interface. Fetching is
// `FOR UPDATE SKIP LOCKED`: one worker per job, across any number of app instances.
import PgBoss from "pg-boss";
import { Prisma } from "../db/generated/client.ts";
import { dbBackend, dbSchema, rawSql, type SqlTx } from "../db/client.ts";
import type { QueueDepth } from "../metrics/index.ts";

export const QUEUES = {
  /** One job per outbox event: walks the claim's followers in batches (inbox rows, webhook deliveries). */
  fanout: "notify-fanout",
  /** One job per delivery attempt of a webhook message. */
  deliver: "webhook-deliver",
} as const;

/** pg-boss's schema: beside the application's (tests give every file a schema of its own). */
export function jobSchema(): string {
  const app = dbSchema();
  return app ? `${app}_jobs` : "pgboss";
}

/** pg-boss's `db` over one of our driver transactions: jobs inserted with the caller's writes. */
export function txDb(tx: SqlTx): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: await tx.query({ text, values } as unknown as Prisma.Sql) }),
  };
}

/**
 * Completed jobs are kept this long for inspection, then archived by pg-boss's maintenance. A job of
 * a once-per-period task is its period's record (server/jobs/runner.ts): no period may be longer.
 */
export const KEEP_COMPLETED_JOBS_SECONDS = 24 * 3600;

export function createBoss(): PgBoss {
  const pglite = dbBackend() === "pglite";
  return new PgBoss({
    db: { executeSql: (text, values) => rawSql(text, values) as Promise<{ rows: any[] }> },
    schema: jobSchema(),
    // No cron schedules: pg-boss's are minute-granular and its timekeeper's clock checks are queries;
    // the background runner keeps the periods (docs/architecture.md#background-work).
    schedule: false,
    archiveCompletedAfterSeconds: KEEP_COMPLETED_JOBS_SECONDS,
    // The embedded database is one process and one session: no need to supervise as often.
    superviseIntervalSeconds: pglite ? 300 : 60,
    // Maintenance is also what expires the jobs of a process that died: often enough to retry them soon.
    maintenanceIntervalSeconds: pglite ? 600 : 30,
  } as PgBoss.ConstructorOptions);
}

/** The services' queues: retries here are pg-boss's, for a handler that threw (a crash, a database
 * error); a webhook's own retry schedule is the delivery log's (server/services/webhooks.ts). */
export const SERVICE_QUEUES: readonly PgBoss.Queue[] = [
  // A fan-out whose process died is retried once it expires (a duplicate is harmless: each batch locks
  // the event row and resumes from its cursor), so expiry is short: an acknowledged write's followers
  // hear of it within ≈ a minute and a half of a crash, not ten.
  { name: QUEUES.fanout, retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  { name: QUEUES.deliver, retryLimit: 20, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
];

/** Creates these queues, or gives existing ones the current policy (idempotent). */
export async function ensureQueues(boss: PgBoss, queues: readonly PgBoss.Queue[]): Promise<void> {
  // Instances starting together on one PostgreSQL race to create the same queues, and pg-boss's
  // createQueue can then deadlock (40P01) or fail: the work is idempotent, so try again shortly.
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureQueuesOnce(boss, queues);
    } catch (err) {
      if (attempt >= 6) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 200));
    }
  }
}

async function ensureQueuesOnce(boss: PgBoss, queues: readonly PgBoss.Queue[]): Promise<void> {
  const existing = new Set((await boss.getQueues()).map((q) => q.name));
  for (const q of queues) {
    // Databases made before a policy change get the current one.
    if (existing.has(q.name)) await boss.updateQueue(q.name, q);
    else {
      try {
        await boss.createQueue(q.name, q);
      } catch (err) {
        // Another instance created it meanwhile.
        if (!(await boss.getQueue(q.name))) throw err;
      }
    }
  }
}

/**
 * Jobs not yet taken by a worker, per queue: one count over pg-boss's job table, on its partial index
 * of waiting jobs (`job_i5`: name, start_after WHERE state < 'active'), so a scrape stays cheap however
 * many completed jobs are kept. Read by the metrics endpoint (server/metrics: claims_job_queue_depth).
 */
export async function queueDepths(): Promise<Record<string, QueueDepth>> {
  const names = Object.values(QUEUES);
  const { rows } = (await rawSql(
    `SELECT name, count(*) FILTER (WHERE start_after <= now())::int AS ready, count(*) FILTER (WHERE start_after > now())::int AS scheduled
     FROM "${jobSchema()}".job WHERE name = ANY($1::text[]) AND state < 'active' GROUP BY name`,
    [names],
  )) as { rows: { name: string; ready: number; scheduled: number }[] };
  const depths: Record<string, QueueDepth> = Object.fromEntries(names.map((n) => [n, { ready: 0, scheduled: 0 }]));
  for (const r of rows) depths[r.name] = { ready: Number(r.ready), scheduled: Number(r.scheduled) };
  return depths;
}
