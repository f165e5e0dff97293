// How long a background job pauses after each step so that the API keeps its latency: the job gets the
// time the process's event loop leaves idle. On an idle server it runs flat out; on one whose event
// loop is saturated it pauses 19 times as long as each step took, taking ≈5 % of the time, so a
// closed-loop client sees its latency move by about that much.

/** The most a job yields: 19× its step (≈5 % of the time for the job). */
export const MAX_YIELD_FACTOR = 19;
/** No single pause is longer than this, whatever a step took. */
export const MAX_YIELD_MS = 10_000;

/**
 * The pause after a step that took `tookMs`, given how busy the event loop was (`busy`: its utilisation,
 * 0 idle … 1 saturated).
 */
export function yieldPauseMs(tookMs: number, busy: number): number {
  const share = Math.min(1, Math.max(0, Number.isFinite(busy) ? busy : 0));
  return Math.min(MAX_YIELD_MS, Math.max(0, tookMs) * MAX_YIELD_FACTOR * share);
}
