// The background side of the server (docs/architecture.md#background-work): the table of every
// background task, and the one start and stop of them with the live channel's subscriber. server/main.ts
// (`npm start`), instrumentation.ts (`next dev`/`next start`) and the test servers call startBackground();
// one set runs per process (process-singleton.ts: Next's bundles and the custom server share it).
// A new task is one entry of BACKGROUND_TASKS.
import { config } from "../config.ts";
import { dbReady, onBackgroundPool, onRequestPool } from "../db/client.ts";
import { log } from "../log/logger.ts";
import { fanOutEvents } from "../services/notifications.ts";
import { attemptDeliveries, encryptClearWebhookSecrets } from "../services/webhooks.ts";
import { resolveDueClaims, RESOLUTION_BATCH } from "../services/resolution.ts";
import { refreshStaleRelatedSets } from "../services/discovery.ts";
import { RESCORE_BATCH, rescorePending, runBridgingFit } from "../services/bridging.ts";
import { takeSnapshot } from "../services/open-data-snapshot.ts";
import { applyStandingRule, drainStanding } from "../services/standing.ts";
import { FINALISE_BATCH, finaliseDueOutcomes } from "../services/checks.ts";
import { QUEUES } from "../queue/pg-boss.ts";
import { enqueueDeliveries, stopJobQueue, wakeWorker } from "../queue/client.ts";
import { startLiveSubscriber, stopLive } from "../queue/live.ts";
import { relayPollMs, relayRound, relayWakeUp } from "./relay.ts";
import { drainBatches, startRunner, type BackgroundTask, type QueueTask, type RoundContext, type Runner } from "./runner.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";
import { DIGEST_BATCH, sendDueDigests } from "../services/digest.ts";

// Fan-out jobs per batch: a backlog of votes on one much-followed claim goes out together
// (server/services/notifications.ts fanOutEvents), so a bigger batch is less work per event.
const FANOUT_JOBS_PER_BATCH = 200;
/** Deliveries per batch: they run concurrently (they wait on the network). */
const DELIVER_BATCH = 50;
const QUEUE_POLL_SECONDS = 0.5;
/** Related sets recomputed per round at most (each ≈ one former related request): bounds the CPU it takes. */
const RELATED_REFRESH_BATCH = 20;
/** Accounts restated per round at most (each O(its votes)). */
const STANDING_BATCH = 50;

/** Often enough that a claim resolves within a quarter of the stable time after it is due (0.5–10 s). */
function resolutionTickMs(stableSeconds: number): number {
  return Math.min(10_000, Math.max(500, (stableSeconds * 1000) / 4));
}

const fanOut: QueueTask<{ eventId: string }> = {
  kind: "queue",
  name: "fan-out",
  queue: QUEUES.fanout,
  batchSize: FANOUT_JOBS_PER_BATCH,
  pollSeconds: QUEUE_POLL_SECONDS,
  async handle(jobs) {
    // Bulk work: it takes its turn with the requests, so a storm of votes on a much-followed claim is
    // not slowed by its own fan-out (which catches up afterwards).
    const { deliveries } = await onRequestPool(() => fanOutEvents(jobs.map((job) => job.data.eventId), enqueueDeliveries));
    if (deliveries.length) wakeWorker(QUEUES.deliver);
    // A full batch means a backlog: fetch again at once instead of after the polling interval.
    if (jobs.length === FANOUT_JOBS_PER_BATCH) wakeWorker(QUEUES.fanout);
  },
};

const deliveries: QueueTask<{ deliveryId: string }> = {
  kind: "queue",
  name: "deliveries",
  queue: QUEUES.deliver,
  batchSize: DELIVER_BATCH,
  pollSeconds: QUEUE_POLL_SECONDS,
  async handle(jobs) {
    // Attempts are recorded before their jobs complete; a batch that throws is retried as a whole, and
    // the attempts already recorded are skipped then.
    await attemptDeliveries(jobs.map((job) => job.data.deliveryId), enqueueDeliveries);
    if (jobs.length === DELIVER_BATCH) wakeWorker(QUEUES.deliver);
  },
};

/**
 * Every background task. Periods are read from the configuration at start; `instances` says how
 * several instances share a task (the guard each "each-instance" round relies on is named beside it).
 */
export const BACKGROUND_TASKS: readonly BackgroundTask[] = [
  // The outbox relay (relay.ts): each event is claimed FOR UPDATE SKIP LOCKED and marked in the same
  // transaction, so it is relayed once whichever instance gets there first. Runs at start: events
  // written while no instance ran it are waiting.
  { kind: "periodic", name: "relay", everyMs: relayPollMs, instances: "each-instance", runAtStart: true, wakeUp: relayWakeUp, round: relayRound },
  // The followers of much-followed claims (one job per event) and webhook deliveries: pg-boss gives each
  // job to one worker (SKIP LOCKED) and retries the jobs of a handler that threw or a process that died.
  fanOut,
  deliveries,
  // Resolution (docs/features/consensus.md#resolution): claims that held their consensus for
  // RESOLUTION_STABLE_SECONDS. A claim locked by one instance is skipped by the others (SKIP LOCKED),
  // and one resolved meanwhile is no longer due: each resolves once.
  {
    kind: "periodic",
    name: "resolution",
    everyMs: () => resolutionTickMs(config().RESOLUTION_STABLE_SECONDS),
    instances: "each-instance",
    round: (ctx) => drainBatches(ctx, RESOLUTION_BATCH, () => resolveDueClaims(RESOLUTION_BATCH, config().RESOLUTION_STABLE_SECONDS)),
  },
  // Related sets marked stale (docs/api.md#discovery) — by a vote on their claim, a change of its tags,
  // or a read of a set older than RELATED_REFRESH_SECONDS — oldest first. A set's computation locks its
  // row: two instances take turns on it. Claims without a set get one on their first read, not here: on
  // a large database that walk kept a core of PostgreSQL busy for hours after every start, on every
  // instance (`npm run related:backfill` does it once, when an operator wants it).
  {
    kind: "periodic",
    name: "related-refresh",
    everyMs: () => 2_000,
    instances: "each-instance",
    round: (ctx) => drainBatches(ctx, RELATED_REFRESH_BATCH, () => refreshStaleRelatedSets(RELATED_REFRESH_BATCH)),
  },
  // The bridging model (docs/features/bridging.md): a full refit when the last one, by any instance,
  // is BRIDGING_INTERVAL_SECONDS old (runBridgingFit: an advisory lock, and the last fit's time in
  // bridging_model), then the re-score of claims with new votes (SKIP LOCKED) every min(10, interval) s.
  // BRIDGING_INTERVAL_SECONDS=0: off.
  {
    kind: "periodic",
    name: "bridging",
    everyMs: () => Math.min(10, config().BRIDGING_INTERVAL_SECONDS) * 1000,
    instances: "each-instance",
    // Bulk work, paced for the requests: it takes its turn with them for connections.
    round: (ctx) => onRequestPool(() => bridgingRound(ctx)),
  },
  // Standing (docs/features/consensus.md#standing): the configured rule stored at start (a new rule
  // marks every account), then every second the marked accounts (facts changed, their time come)
  // restated, each under a lease (one instance at a time per account) and the account's advisory
  // lock, its votes re-sorted with their claim rows locked: each vote moves once.
  {
    kind: "periodic",
    name: "standing",
    everyMs: () => 1_000,
    instances: "each-instance",
    runAtStart: true,
    round: (ctx) => standingRound(ctx),
  },
  // Checks against the world (docs/features/checks.md): proposals undisputed at the end of their window
  // become final and their bonds come back, by one instance per period (at most a minute, at most the
  // window); each proposal in a transaction that locks and re-reads its row, so each is final once.
  {
    kind: "periodic",
    name: "outcomes",
    everyMs: () => Math.min(60, config().OUTCOME_DISPUTE_SECONDS) * 1000,
    instances: "once-per-period",
    round: (ctx) => drainBatches(ctx, FINALISE_BATCH, () => finaliseDueOutcomes()),
  },
  // The mail digest (docs/features/digest.md): every 5 minutes the accounts whose daily or weekly
  // digest is due are claimed (SKIP LOCKED, their period moved on in the same statement: one mail per
  // period across instances) and mailed.
  {
    kind: "periodic",
    name: "digest",
    everyMs: () => 5 * 60_000,
    instances: "each-instance",
    round: (ctx) => drainBatches(ctx, DIGEST_BATCH, async () => (await sendDueDigests()).claimed),
  },
  // The open data (docs/features/open-data.md): a signed snapshot every DATA_SNAPSHOT_HOURS, by one
  // instance per period, into DATA_SNAPSHOT_DIR (which the instances that serve it share). Its fit is
  // the bridging fit's, under that fit's lock. DATA_SNAPSHOT_HOURS=0: off.
  {
    kind: "periodic",
    name: "open-data",
    everyMs: () => config().DATA_SNAPSHOT_HOURS * 3_600_000,
    instances: "once-per-period",
    // A snapshot of a million votes on a busy server (its fit paced for the API) takes minutes, not an hour.
    maxRoundSeconds: 3_600,
    round: () => snapshotRound(),
  },
];

async function snapshotRound(): Promise<void> {
  const { dir, manifest, seconds } = await takeSnapshot();
  const rows = Object.fromEntries(Object.entries(manifest.files).map(([file, f]) => [file, f.rows]));
  log().info({ dir, cutoff: manifest.cutoff, rows, seconds }, `[open-data] snapshot of ${manifest.cutoff} written in ${seconds.total.toFixed(1)} s`);
}

/** Whether this process has stored the configured standing rule (once per start; idempotent anyway). */
let standingRuleApplied = false;

async function standingRound(ctx: RoundContext): Promise<void> {
  if (!standingRuleApplied) {
    await applyStandingRule();
    standingRuleApplied = true;
  }
  await drainBatches(ctx, STANDING_BATCH, async () => (await drainStanding({ limit: STANDING_BATCH })).accounts);
}

async function bridgingRound(ctx: RoundContext): Promise<void> {
  const summary = await runBridgingFit({ minIntervalSeconds: config().BRIDGING_INTERVAL_SECONDS });
  if (summary) {
    log().info(
      summary,
      `[bridging] fit: ${summary.fittedVotes}/${summary.votes} votes, ${summary.iterations} sweeps, ` +
        `read ${summary.readMs} ms, fit ${summary.fitMs} ms, write ${summary.writeMs} ms, ` +
        `${summary.changedClaims} claims and ${summary.changedAgents} agents changed`,
    );
  }
  await drainBatches(ctx, RESCORE_BATCH, () => rescorePending());
}

/** This process's runner, from the moment its start begins (a stop waits for a start in progress). */
const running = processSlot<Promise<Runner>>("claims.background");

/**
 * Starts the background work of this process (idempotent): the live channel's subscriber, then every
 * task of BACKGROUND_TASKS. JOBS_ENABLED=0 keeps a process to serving only: the live subscriber still
 * runs, so its claim pages stay live; the tasks run in other instances.
 */
export async function startBackground(): Promise<void> {
  await startLiveSubscriber();
  // Signing secrets stored before they were encrypted at rest are encrypted now (docs/security.md).
  await encryptClearWebhookSecretsOnce();
  if (!config().JOBS_ENABLED || running.get()) return;
  const cfg = config();
  if (cfg.NODE_ENV === "production" && cfg.WEBHOOK_ALLOW_PRIVATE) {
    // A development switch: in production it lets any agent make this server call internal addresses.
    log().warn(
      { webhook_allow_private: true },
      "WEBHOOK_ALLOW_PRIVATE is on in production: webhooks may be delivered to loopback, private and link-local addresses (cloud metadata included). Unset it unless every agent is trusted.",
    );
  }
  // Set before the first await: a second call returns above instead of starting a second set.
  const starting = onBackgroundPool(() => startRunner(BACKGROUND_TASKS));
  running.set(starting);
  try {
    await starting;
  } catch (err) {
    if (running.get() === starting) running.set(undefined);
    throw err;
  }
}

/**
 * Stops the background work: the rounds and jobs in flight finish first (jobs up to pg-boss's timeout),
 * then the job queue (a serving-only process may have started it to enqueue) and the live channel.
 */
export async function stopBackground(): Promise<void> {
  const runner = await running.take()?.catch(() => undefined);
  await runner?.stop();
  await stopJobQueue();
  await stopLive();
}

function encryptClearWebhookSecretsOnce(): Promise<void> {
  return processSingleton("claims.secretSweep", () => (async () => {
    await dbReady();
    const n = await encryptClearWebhookSecrets();
    if (n > 0) log().info({ webhooks: n }, `encrypted ${n} webhook signing secret(s) stored in clear`);
  })().catch((err) => log().error({ err }, "could not encrypt the webhook secrets stored in clear")));
}
