// The job queue as its producers use it: this process's pg-boss (started on first use, its schema
// migrated and its queues created), enqueueing in the caller's transaction, and waking the worker that
// takes a queue. Services enqueue through here; the workers that consume the jobs are server/jobs/.
// One per process (server/process-singleton.ts: Next's bundles and the custom server share it).
import type PgBoss from "pg-boss";
import { dbMigrated, onBackgroundPool, type SqlTx } from "../db/client.ts";
import { logError } from "../log/logger.ts";
import { setQueueDepthSource } from "../metrics/index.ts";
import { createBoss, ensureQueues, queueDepths, QUEUES, SERVICE_QUEUES, txDb } from "./pg-boss.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

export interface JobQueue {
  boss: PgBoss;
  ready: Promise<void>;
  /** The worker taking each queue in this process, once one was started (server/jobs/runner.ts). */
  workerIds: Record<string, string>;
  stopped: boolean;
}

const queueSlot = processSlot<JobQueue>("claims.jobQueue");

/** The queue, started (its schema migrated) and with its queues created; no workers unless asked. */
export function jobQueue(): JobQueue {
  return processSingleton("claims.jobQueue", () => {
    const boss = createBoss();
    boss.on("error", (err) => logError("[jobs] queue error", err));
    const state: JobQueue = { boss, workerIds: {}, stopped: false, ready: Promise.resolve() };
    // The queue's own statements (fetching, completing, maintenance: its timers carry this along) take
    // the background connections, whichever caller first asked for the queue.
    state.ready = onBackgroundPool(async () => {
      // Migrated is enough (not dbReady): the demo data that `npm run dev` loads before requests are
      // served enqueues through here (server/db/client.ts holdReadyFor).
      await dbMigrated();
      await boss.start();
      await ensureQueues(boss, SERVICE_QUEUES);
      setQueueDepthSource(queueDepths);
    });
    state.ready.catch(() => {});
    return state;
  });
}

/**
 * Resolves once the queue is usable in this process. Await it before a transaction that enqueues:
 * starting the queue inside one would wait on the embedded database that transaction holds.
 */
export function jobQueueReady(): Promise<void> {
  return jobQueue().ready;
}

/** Inserts delivery jobs in `tx`, at once or at `startAfter`. */
export type EnqueueDeliveries = (tx: SqlTx, deliveryIds: string[], startAfter?: Date) => Promise<void>;

/** Inserts delivery jobs in the caller's transaction (after `jobQueueReady`) and wakes this process's delivery worker. */
export const enqueueDeliveries: EnqueueDeliveries = async (tx, ids, startAfter) => {
  await jobQueue().boss.insert(
    ids.map((id) => ({ name: QUEUES.deliver, data: { deliveryId: id }, ...(startAfter ? { startAfter } : {}) })),
    { db: txDb(tx) },
  );
  if (!startAfter) wakeWorker(QUEUES.deliver);
};

/** This process's worker of `queue` fetches now instead of at its next poll (when it runs here). */
export function wakeWorker(queue: string): void {
  const q = queueSlot.get();
  const id = q?.workerIds[queue];
  if (id && !q.stopped) setImmediate(() => q.boss.notifyWorker(id));
}

/** Stops this process's queue (jobs in flight finish first, up to pg-boss's timeout). */
export async function stopJobQueue(): Promise<void> {
  const q = queueSlot.take();
  if (!q) return;
  setQueueDepthSource(undefined);
  q.stopped = true;
  await q.ready.catch(() => {});
  await new Promise<void>((resolve) => {
    q.boss.once("stopped", () => resolve());
    q.boss.stop({ graceful: true, close: false, timeout: 10_000 }).catch(() => resolve());
  });
}
