// The background side of the server: the outbox relay, the fan-out and webhook delivery workers (on
// the job queue of server/queue/client.ts), the related-sets refresher, the resolution job, and the live channel's subscriber. Started by server/main.ts
// (`npm start`), instrumentation.ts (`next dev`/`next start`) and the test servers; one set per
// process (process-singleton.ts: Next's bundles and the custom server share it), stopped on shutdown.
import { config } from "../config.ts";
import { dbReady, onBackgroundPool, onRequestPool } from "../db/client.ts";
import { log } from "../log/logger.ts";
import { fanOutEvents } from "../services/notifications.ts";
import { attemptDeliveries, encryptClearWebhookSecrets } from "../services/webhooks.ts";
import { QUEUES } from "../queue/pg-boss.ts";
import { enqueueDeliveries, jobQueue, stopJobQueue, wakeWorker, type JobQueue } from "../queue/client.ts";
import { startLiveSubscriber, stopLive } from "../queue/live.ts";
import { startRelay, type Relay } from "./relay.ts";
import { startRelatedRefresher, type RelatedRefresher } from "./related-refresh.ts";
import { startResolutionJob, type ResolutionJob } from "./resolution.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

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

interface Workers {
  relay?: Relay;
  related?: RelatedRefresher;
  resolution?: ResolutionJob;
}

const running = processSlot<Workers>("claims.workers");

/**
 * Starts the relay and the workers in this process (idempotent). JOBS_ENABLED=0 keeps a process to
 * serving only: the live subscriber still runs, so its claim pages stay live.
 */
export async function startBackground(): Promise<void> {
  await startLiveSubscriber();
  // Signing secrets stored before they were encrypted at rest are encrypted now (docs/security.md).
  await encryptClearWebhookSecretsOnce();
  if (!config().JOBS_ENABLED) return;
  if (running.get()) return;
  // Claimed before the first await: a second call returns here instead of starting a second set.
  const workers: Workers = {};
  running.set(workers);
  const cfg = config();
  if (cfg.NODE_ENV === "production" && cfg.WEBHOOK_ALLOW_PRIVATE) {
    // A development switch: in production it lets any agent make this server call internal addresses.
    log().warn(
      { webhook_allow_private: true },
      "WEBHOOK_ALLOW_PRIVATE is on in production: webhooks may be delivered to loopback, private and link-local addresses (cloud metadata included). Unset it unless every agent is trusted.",
    );
  }
  await onBackgroundPool(() => startWorkers(jobQueue(), workers));
}

/** The workers' loops and the relay, started on the background connections (they keep to them). */
async function startWorkers(b: JobQueue, workers: Workers): Promise<void> {
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
      if (deliveries.length) wakeWorker(QUEUES.deliver);
      // A full batch means a backlog: fetch again at once instead of after the polling interval.
      if (jobs.length === FANOUT_JOBS_PER_BATCH) wakeWorker(QUEUES.fanout);
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
      if (jobs.length === DELIVER_BATCH) wakeWorker(QUEUES.deliver);
    },
  );
  workers.relay = startRelay(b.boss, enqueueDeliveries, (r) => {
    // After commit: the workers find the jobs the relay queued at once, not at their next poll.
    if (r.deliveries) wakeWorker(QUEUES.deliver);
    if (r.fanouts) wakeWorker(QUEUES.fanout);
  });
  workers.related = startRelatedRefresher();
  workers.resolution = startResolutionJob();
}

/** Stops the workers and the relay (jobs in flight finish first, up to pg-boss's timeout). */
export async function stopBackground(): Promise<void> {
  await stopLive();
  const workers = running.take();
  await workers?.relay?.stop();
  await workers?.related?.stop();
  await workers?.resolution?.stop();
  await stopJobQueue();
}

function encryptClearWebhookSecretsOnce(): Promise<void> {
  return processSingleton("claims.secretSweep", () => (async () => {
    await dbReady();
    const n = await encryptClearWebhookSecrets();
    if (n > 0) log().info({ webhooks: n }, `encrypted ${n} webhook signing secret(s) stored in clear`);
  })().catch((err) => log().error({ err }, "could not encrypt the webhook secrets stored in clear")));
}
