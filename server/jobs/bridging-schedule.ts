// Starts the bridging model's background schedule once per process, whichever way the server was
// started (`npm start` → main.ts; `next start`/`next dev` → instrumentation.ts), and stops it on
// shutdown. The flag is process-wide (process-singleton.ts): Next evaluates modules more than once.
import { config } from "../config.ts";
import { log, logError } from "../log/logger.ts";
import { RESCORE_BATCH, rescorePending, runBridgingFit } from "../services/bridging.ts";
import { processSlot } from "../process-singleton.ts";

const scheduler = processSlot<BridgingScheduler>("claims.bridgingScheduler");

export function startBridgingInBackground(): void {
  if (!scheduler.get()) scheduler.set(startBridgingScheduler(config().BRIDGING_INTERVAL_SECONDS));
}

export async function stopBridgingInBackground(): Promise<void> {
  const s = scheduler.take();
  await s?.stop();
}

export interface BridgingScheduler {
  stop(): Promise<void>;
}

/**
 * The background schedule: every few seconds, drain the pending re-scores; a full fit when the last
 * one (by any instance) is older than `intervalSeconds`. Timers are unref'd; stop() waits for the
 * round in progress. `intervalSeconds` 0 = off.
 */
export function startBridgingScheduler(intervalSeconds: number): BridgingScheduler {
  if (intervalSeconds <= 0) return { stop: async () => {} };
  const tickMs = Math.min(10, intervalSeconds) * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const round = async () => {
    try {
      const summary = await runBridgingFit({ minIntervalSeconds: intervalSeconds });
      if (summary) {
        log().info(
          summary,
          `[bridging] fit: ${summary.fittedVotes}/${summary.votes} votes, ${summary.iterations} sweeps, ` +
            `read ${summary.readMs} ms, fit ${summary.fitMs} ms, write ${summary.writeMs} ms, ` +
            `${summary.changedClaims} claims and ${summary.changedAgents} agents changed`,
        );
      }
      while (!stopped && (await rescorePending()) === RESCORE_BATCH) {
        // a full batch: there may be more
      }
    } catch (err) {
      logError("[bridging] round failed", err);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().finally(schedule);
    }, tickMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
