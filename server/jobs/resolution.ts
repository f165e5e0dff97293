// The resolution job (docs/features/consensus.md): on every instance, every few seconds, resolves the
// claims that have held consensus_true/consensus_false for RESOLUTION_STABLE_SECONDS with at least 10
// voters. Instances may find the same claim due: services/resolution.ts makes sure one resolves it,
// once.
import { config } from "../config.ts";
import { logError } from "../log/logger.ts";
import { resolveDueClaims, RESOLUTION_BATCH } from "../services/resolution.ts";

/** Often enough that a claim resolves within a quarter of the stable time after it is due (0.5–10 s). */
export function resolutionTickMs(stableSeconds: number): number {
  return Math.min(10_000, Math.max(500, (stableSeconds * 1000) / 4));
}

export interface ResolutionJob {
  stop(): Promise<void>;
}

export function startResolutionJob(stableSeconds = config().RESOLUTION_STABLE_SECONDS): ResolutionJob {
  const tickMs = resolutionTickMs(stableSeconds);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const tick = () => {
    running = (async () => {
      try {
        // A full batch means more may be due: go again at once.
        while (!stopped && (await resolveDueClaims(RESOLUTION_BATCH, stableSeconds)) === RESOLUTION_BATCH);
      } catch (err) {
        if (!stopped) logError("[resolution] round failed", err);
      }
    })().finally(() => {
      running = null;
      if (!stopped) {
        timer = setTimeout(tick, tickMs);
        timer.unref();
      }
    });
  };
  timer = setTimeout(tick, tickMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
