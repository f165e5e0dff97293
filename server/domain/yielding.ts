// How long a background job pauses after each step so that the API keeps its latency: the job gets the
// time the process's event loop leaves idle. On an idle server it runs flat out; on one whose event
// loop is saturated it pauses 19 times as long as each step took, taking ≈5 % of the time, so a
// closed-loop client sees its latency move by about that much. In between, in proportion to the
// utilisation above IDLE_BELOW.

/** The most a job yields: 19× its step (≈5 % of the time for the job). */
export const MAX_YIELD_FACTOR = 19;
/** No single pause is longer than this, whatever a step took. */
export const MAX_YIELD_MS = 10_000;
/**
 * Utilisation below this counts as idle: an idle server's loop still shows timers, garbage collection
 * and the job's own bookkeeping (a fit on an idle server read ≈5 %, and without this threshold paced
 * itself to half speed).
 */
export const IDLE_BELOW = 0.1;

/**
 * The pause after a step that took `tookMs`, given how busy the event loop was (`busy`: its utilisation,
 * 0 idle … 1 saturated).
 */
export function yieldPauseMs(tookMs: number, busy: number): number {
  const utilisation = Math.min(1, Math.max(0, Number.isFinite(busy) ? busy : 0));
  const share = Math.max(0, (utilisation - IDLE_BELOW) / (1 - IDLE_BELOW));
  return Math.min(MAX_YIELD_MS, Math.max(0, tookMs) * MAX_YIELD_FACTOR * share);
}
