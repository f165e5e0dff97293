// Tests that count things per time bucket (rate-limit windows, UTC days) must not fail when a bucket
// boundary passes while they run.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until just past an ISO instant (a check's close_at, check_at or dispute deadline). */
export const sleepUntil = (iso: string) => sleep(Math.max(0, new Date(iso).getTime() - Date.now() + 50));

/**
 * Runs `fn` (something that counts exactly within one bucket of `windowMs`, aligned to the epoch: a
 * rate-limit window, a UTC day); if it fails and a bucket boundary passed meanwhile, runs it again
 * (`attempt` lets it use fresh identifiers). A rate-limit burst that straddles a boundary is
 * legitimately allowed a little more than the limit; activity counted "today" may land on yesterday.
 */
export async function inOneBucket(windowMs: number, fn: (attempt: number) => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const before = Math.floor(Date.now() / windowMs);
    try {
      await fn(attempt);
      return;
    } catch (err) {
      if (attempt < 3 && Math.floor(Date.now() / windowMs) !== before) continue;
      throw err;
    }
  }
}

