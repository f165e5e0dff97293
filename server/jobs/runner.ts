// The background runner (docs/architecture.md#background-work): runs a declared table of tasks and
// stops them together. Two kinds of task:
// - periodic: a round every `everyMs` in this process, on a timer that never keeps the process alive
//   (unref'd), plus whatever else wakes it (the relay: PostgreSQL NOTIFY). Across instances, either each
//   instance runs it and the round's own locks keep two from doing the same work ("each-instance"), or
//   one round per period runs across all of them ("once-per-period": the period's job in pg-boss).
// - queue: a pg-boss worker taking the jobs the services enqueue (one worker per job, SKIP LOCKED).
// Every round and worker runs on the background connections (onBackgroundPool). stop() waits for the
// rounds and jobs in flight; none starts after it.
import type PgBoss from "pg-boss";
import { onBackgroundPool } from "../db/client.ts";
import { logError } from "../log/logger.ts";
import { KEEP_COMPLETED_JOBS_SECONDS, ensureQueues } from "../queue/pg-boss.ts";
import { jobQueue, stopJobQueue } from "../queue/client.ts";

export interface RoundContext {
  /** True once the runner is stopping: a round that drains batches ends between two. */
  stopping(): boolean;
}

export interface PeriodicTask {
  kind: "periodic";
  /** Also names its log lines ("[name] round failed") and, once per period, its pg-boss queue. */
  name: string;
  /**
   * Milliseconds from the end of one round to the start of the next, read at start; 0 = off.
   * Once per period: the period, whole seconds, 1 s to a day.
   */
  everyMs: () => number;
  /**
   * "each-instance": every instance runs the round; its own locks make sure work is done once (SKIP
   * LOCKED rows, an advisory lock). "once-per-period": one round per period across all instances.
   */
  instances: "each-instance" | "once-per-period";
  /**
   * Once per period: how long a round may take before its job is taken for dead (its process gone) and
   * retried by another instance. Default 15 minutes.
   */
  maxRoundSeconds?: number;
  /** The first round at once rather than after a period. */
  runAtStart?: boolean;
  /** Something else that starts a round at once (a wake-up during a round runs another after it). */
  wakeUp?: (wake: () => void) => { close(): Promise<void> } | null;
  round(ctx: RoundContext): Promise<void>;
}

export interface QueueTask<T = object> {
  kind: "queue";
  name: string;
  /** A queue of server/queue/pg-boss.ts (its policy is there: the services enqueue into it). */
  queue: string;
  /** Jobs fetched per poll. */
  batchSize: number;
  pollSeconds: number;
  handle(jobs: PgBoss.Job<T>[]): Promise<void>;
}

/** A queue task of any job type (its handler is declared as a method, so the table accepts it). */
export type BackgroundTask = PeriodicTask | QueueTask;

export interface Runner {
  /** Stops every task: waits for the rounds and jobs in flight (jobs up to pg-boss's timeout). */
  stop(): Promise<void>;
}

/** How often each instance looks for the period's job of a once-per-period task (a longer period: this). */
const ONCE_CHECK_MAX_MS = 60_000;

/** The pg-boss queue that records a once-per-period task's periods. */
export function periodQueue(task: Pick<PeriodicTask, "name">): string {
  return `period-${task.name}`;
}

/**
 * Starts the tasks (the queue's workers first, so that the first rounds' wake-ups find them). The job
 * queue is started when a task needs it.
 */
export async function startRunner(tasks: readonly BackgroundTask[]): Promise<Runner> {
  let stopping = false;
  const ctx: RoundContext = { stopping: () => stopping };
  const periodic = tasks.filter((t): t is PeriodicTask => t.kind === "periodic" && t.everyMs() > 0);
  const queued = tasks.filter((t): t is QueueTask => t.kind === "queue");
  const once = periodic.filter((t) => t.instances === "once-per-period");
  const usesQueue = queued.length > 0 || once.length > 0;

  if (usesQueue) {
    const q = jobQueue();
    await q.ready;
    if (once.length) await ensureQueues(q.boss, once.map(periodQueuePolicy));
    for (const task of queued) {
      q.workerIds[task.queue] = await q.boss.work<object>(task.queue, { batchSize: task.batchSize, pollingIntervalSeconds: task.pollSeconds }, (jobs) =>
        onBackgroundPool(() => task.handle(jobs)),
      );
    }
  }
  const loops = periodic.map((task) => startLoop(task, ctx));
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(loops.map((loop) => loop.stop()));
      // The workers stop with the queue: pg-boss's graceful stop waits for their jobs in flight.
      if (usesQueue) await stopJobQueue();
    },
  };
}

function periodQueuePolicy(task: PeriodicTask): PgBoss.Queue {
  const seconds = task.everyMs() / 1000;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > KEEP_COMPLETED_JOBS_SECONDS) {
    throw new Error(`${task.name}: a once-per-period task's period is whole seconds, 1 s to ${KEEP_COMPLETED_JOBS_SECONDS} s`);
  }
  // A round that failed, or whose process died (its job expires), is retried by the next instance to look.
  return { name: periodQueue(task), retryLimit: 3, retryDelay: 30, expireInSeconds: task.maxRoundSeconds ?? 15 * 60 };
}

/** One task's loop: a round, then a timer for the next; a wake-up runs one at once. */
function startLoop(task: PeriodicTask, ctx: RoundContext): { stop(): Promise<void> } {
  const periodMs = task.everyMs();
  const round = task.instances === "once-per-period" ? oncePerPeriod(task, periodMs / 1000) : task.round;
  const tickMs = task.instances === "once-per-period" ? Math.min(periodMs, ONCE_CHECK_MAX_MS) : periodMs;
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(run, tickMs);
    // Background work never keeps a process alive by itself: the server, or a script's own work, does.
    timer.unref();
  };
  const run = (): void => {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    clearTimeout(timer);
    inFlight = onBackgroundPool(async () => {
      try {
        await round(ctx);
      } catch (err) {
        if (!stopped) logError(`[${task.name}] round failed`, err);
      }
    }).finally(() => {
      inFlight = null;
      if (again) {
        again = false;
        run();
      } else schedule();
    });
  };

  const waker = task.wakeUp?.(run) ?? null;
  if (task.runAtStart) run();
  else schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await waker?.close();
      await inFlight;
    },
  };
}

/**
 * The round of a once-per-period task: every instance offers the period's job (one per period: pg-boss's
 * unique index on the job's period), and the one that takes it runs the round. A round that fails, or
 * is cut short by a stop, fails its job: pg-boss retries it on whichever instance looks next.
 */
function oncePerPeriod(task: PeriodicTask, periodSeconds: number): (ctx: RoundContext) => Promise<void> {
  const queue = periodQueue(task);
  return async (ctx) => {
    const { boss } = jobQueue();
    await boss.sendThrottled(queue, {}, {}, periodSeconds);
    const [job] = await boss.fetch(queue);
    if (!job) return;
    try {
      await task.round(ctx);
    } catch (err) {
      await boss.fail(queue, job.id, { message: String((err as Error)?.message ?? err) });
      throw err;
    }
    if (ctx.stopping()) await boss.fail(queue, job.id, { message: "stopped before the round finished" });
    else await boss.complete(queue, job.id);
  };
}

/** A round that takes batches of `batch` while they come back full (a backlog), until the runner stops. */
export async function drainBatches(ctx: RoundContext, batch: number, take: () => Promise<number>): Promise<void> {
  while (!ctx.stopping() && (await take()) === batch);
}
