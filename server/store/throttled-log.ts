// Failure logging for shared stores: a dead store fails every request, so report at most one line per
// interval, with a count of what was left out. A broken logger never breaks the caller.
const LOG_INTERVAL_MS = 10_000;

export type StoreLogger = (msg: string, err?: unknown) => void;

export function throttledLogger(tag: string, logger: StoreLogger): StoreLogger {
  let last = -Infinity;
  let suppressed = 0;
  return (msg, err) => {
    const now = performance.now();
    if (now - last < LOG_INTERVAL_MS) {
      suppressed++;
      return;
    }
    last = now;
    const tail = suppressed > 0 ? ` (${suppressed} similar message(s) suppressed)` : "";
    suppressed = 0;
    try {
      logger(`[${tag}] ${msg}${tail}`, err);
    } catch {
      /* a broken logger must not break the caller */
    }
  };
}
