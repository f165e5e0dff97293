// The background side of the server: the job queue (pg-boss), the outbox relay, the fan-out and
// webhook delivery workers, the related-sets refresher, the resolution job, and the live channel's subscriber. Started by server/main.ts
// (`npm start`), instrumentation.ts (`next dev`/`next start`) and the test servers; one set per
// process (kept on globalThis: Next's bundles and the custom server share it), stopped on shutdown.
import type PgBoss from "pg-boss";
import { config } from "../config.ts";
import { log } from "../log/logger.ts";
import { dbReady, onBackgroundPool, onRequestPool, type SqlTx } from "../db/client.ts";
import { fanOutEvents } from "../services/notifications.ts";
import { attemptDeliveries, encryptClearWebhookSecrets, type EnqueueDeliveries } from "../services/webhooks.ts";
import { createBoss, createQueues, queueDepths, QUEUES, txDb } from "./queue.ts";
import { setQueueDepthSource } from "../metrics/index.ts";
import { startRelay, type Relay } from "./relay.ts";
import { startLiveSubscriber, stopLive } from "./live.ts";
import { startRelatedRefresher, type RelatedRefresher } from "./related-refresh.ts";
import { startResolutionJob, type ResolutionJob } from "./resolution.ts";

/**
 * Jobs fetched per poll of each worker. Fan-out jobs are the events of claims with many followers (the
 * relay fans the others out itself): each walks its followers in batches of its own, one event after
 * another, on the requests' connections.
 * Deliveries: a batch runs concurrently (they wait on the network).
 */
// Fan-out jobs per batch: a backlog of votes on one much-followed claim goes out together
// (server/services/notifications.ts fanOutEvents), so a bigger batch is less work per event.
const FANOUT_JOBS_PER_BATCH = 200;
const DELIVER_BATCH = 50;
const POLL_SECONDS = 0.5;

interface Background {
  boss: PgBoss;
  ready: Promise<void>;
  relay?: Relay;
  related?: RelatedRefresher;
  resolution?: ResolutionJob;
  workerIds: Record<string, string>;
  stopped: boolean;
}

const g = globalThis as unknown as { __claimsJobs?: Background };

/** The queue, started (its schema migrated) and with its queues created; no workers unless asked. */
function background(): Background {
  if (!g.__claimsJobs) {
    const boss = createBoss();
    boss.on("error", (err) => console.error("[jobs]", err.message));
    const state: Background = { boss, workerIds: {}, stopped: false, ready: Promise.resolve() };
    // The queue's own statements (fetching, completing, maintenance: its timers carry this along) take
    // the background connections, whichever caller first asked for the queue.
    state.ready = onBackgroundPool(async () => {
      await dbReady();
      await boss.start();
      await createQueues(boss);
      setQueueDepthSource(queueDepths);
    });
    state.ready.catch(() => {});
    g.__claimsJobs = state;
  }
  return g.__claimsJobs;
}

/**
 * Resolves once the queue is usable in this process. Await it before a transaction that enqueues:
 * starting the queue inside one would wait on the embedded database that transaction holds.
 */
export function jobQueueReady(): Promise<void> {
  return background().ready;
}

/** Inserts delivery jobs in the caller's transaction (after `jobQueueReady`) and wakes this process's delivery worker. */
export const enqueueDeliveries: EnqueueDeliveries = async (tx: SqlTx, ids: string[], startAfter?: Date) => {
  const b = background();
  await b.boss.insert(
    ids.map((id) => ({ name: QUEUES.deliver, data: { deliveryId: id }, ...(startAfter ? { startAfter } : {}) })),
    { db: txDb(tx) },
  );
  if (!startAfter) wake(QUEUES.deliver);
};

function wake(queue: string): void {
  const b = g.__claimsJobs;
  const id = b?.workerIds[queue];
  if (id && !b.stopped) setImmediate(() => b.boss.notifyWorker(id));
}

/**
 * Starts the relay and the workers in this process (idempotent). JOBS_ENABLED=0 keeps a process to
 * serving only: the live subscriber still runs, so its claim pages stay live.
 */
export async function startBackground(): Promise<void> {
  await startLiveSubscriber();
  // Signing secrets stored before they were encrypted at rest are encrypted now (docs/security.md).
  await encryptClearWebhookSecretsOnce();
  if (!config().JOBS_ENABLED) return;
  const b = background();
  if (b.relay) return;
  // Claimed before the first await: a second call returns here instead of starting a second set.
  b.relay = { stop: async () => {}, kick: () => {} };
  const cfg = config();
  if (cfg.NODE_ENV === "production" && cfg.WEBHOOK_ALLOW_PRIVATE) {
    // A development switch: in production it lets any agent make this server call internal addresses.
    log().warn(
      { webhook_allow_private: true },
      "WEBHOOK_ALLOW_PRIVATE is on in production: webhooks may be delivered to loopback, private and link-local addresses (cloud metadata included). Unset it unless every agent is trusted.",
    );
  }
  await onBackgroundPool(() => startWorkers(b));
}

/** The workers' loops and the relay, started on the background connections (they keep to them). */
async function startWorkers(b: Background): Promise<void> {
  await b.ready;
  b.workerIds[QUEUES.fanout] = await b.boss.work<{ eventId: string }>(
    QUEUES.fanout,
    { batchSize: FANOUT_JOBS_PER_BATCH, pollingIntervalSeconds: POLL_SECONDS },
    async (jobs) => {
      // Bulk work: it takes its turn with the requests, so a storm of votes on a much-followed claim
      // is not slowed by its own fan-out (which catches up afterwards).
      const { deliveries } = await onRequestPool(() =>
        fanOutEvents(
          jobs.map((job) => job.data.eventId),
          enqueueDeliveries,
        ),
      );
      if (deliveries.length) wake(QUEUES.deliver);
      // A full batch means a backlog: fetch again at once instead of after the polling interval.
      if (jobs.length === FANOUT_JOBS_PER_BATCH) wake(QUEUES.fanout);
    },
  );
  b.workerIds[QUEUES.deliver] = await b.boss.work<{ deliveryId: string }>(
    QUEUES.deliver,
    { batchSize: DELIVER_BATCH, pollingIntervalSeconds: POLL_SECONDS },
    async (jobs) => {
      // Attempts are recorded before their jobs complete; a batch that throws is retried as a whole,
      // and the attempts already recorded are skipped then.
      await attemptDeliveries(
        jobs.map((job) => job.data.deliveryId),
        enqueueDeliveries,
      );
      if (jobs.length === DELIVER_BATCH) wake(QUEUES.deliver);
    },
  );
  b.relay = startRelay(b.boss, enqueueDeliveries, (r) => {
    // After commit: the workers find the jobs the relay queued at once, not at their next poll.
    if (r.deliveries) wake(QUEUES.deliver);
    if (r.fanouts) wake(QUEUES.fanout);
  });
  b.related = startRelatedRefresher();
  b.resolution = startResolutionJob();
}

/** Stops the workers and the relay (jobs in flight finish first, up to pg-boss's timeout). */
export async function stopBackground(): Promise<void> {
  await stopLive();
  const b = g.__claimsJobs;
  if (!b) return;
  g.__claimsJobs = undefined;
  setQueueDepthSource(undefined);
  b.stopped = true;
  await b.relay?.stop();
  await b.related?.stop();
  await b.resolution?.stop();
  await b.ready.catch(() => {});
  await new Promise<void>((resolve) => {
    b.boss.once("stopped", () => resolve());
    b.boss.stop({ graceful: true, close: false, timeout: 10_000 }).catch(() => resolve());
  });
}

const globalForSweep = globalThis as unknown as { __claimsSecretSweep?: Promise<void> };
function encryptClearWebhookSecretsOnce(): Promise<void> {
  return (globalForSweep.__claimsSecretSweep ??= (async () => {
    await dbReady();
    const n = await encryptClearWebhookSecrets();
    if (n > 0) log().info({ webhooks: n }, `encrypted ${n} webhook signing secret(s) stored in clear`);
  })().catch((err) => log().error({ err }, "could not encrypt the webhook secrets stored in clear")));
}
