// The related-sets refresher (docs/api.md#discovery): recomputes the related sets marked stale — by a vote on their
// claim, a change of its tags, or a read of a set older than RELATED_REFRESH_SECONDS — oldest first, a
// bounded batch per tick, off the request path. Several instances may run it: a set's computation
// takes a lock on its row, so two of them take turns and the second finds it fresh work anyway.
// Claims without a set get one on their first read; the refresher does not fill them in by itself:
// on a large database that walk kept a core of PostgreSQL busy for hours after every start, on every
// instance (`npm run related:backfill` does it once, when an operator wants it).
import { refreshStaleRelatedSets } from "../services/discovery.ts";
import { logError } from "../log/logger.ts";

/** Sets recomputed per tick at most (each ≈ one former related request): bounds the CPU it takes. */
export const RELATED_REFRESH_BATCH = 20;
export const RELATED_REFRESH_TICK_MS = 2_000;

export interface RelatedRefresher {
  stop(): Promise<void>;
}

export function startRelatedRefresher(tickMs = RELATED_REFRESH_TICK_MS): RelatedRefresher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const tick = () => {
    running = (async () => {
      try {
        // A full batch means a backlog: go again at once (still one batch at a time).
        while (!stopped && (await refreshStaleRelatedSets(RELATED_REFRESH_BATCH)) === RELATED_REFRESH_BATCH);
      } catch (err) {
        if (!stopped) logError("[related] refresh failed", err);
      }
    })().finally(() => {
      running = null;
      if (!stopped) timer = setTimeout(tick, tickMs);
    });
  };
  timer = setTimeout(tick, tickMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
