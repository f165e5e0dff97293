// The delivery schedule of a webhook message (docs/features/following.md, Standard Webhooks): exponential backoff
// with jitter, at least 8 retries over at least 24 hours at the default base, and when an endpoint is
// disabled instead of retried. Pure functions: the clock and the randomness are arguments.

/** Attempts of one message, the first included: 1 + 8 retries. */
export const MAX_ATTEMPTS = 9;
/** Each retry waits this many times longer than the one before. */
export const BACKOFF_FACTOR = 3;
/** ± this share of the delay, so that retries of many messages do not arrive in lockstep. */
export const JITTER = 0.2;
/** An endpoint that has known nothing but failures for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * The wait before attempt `attempt + 1`, after attempt `attempt` failed (attempt counts from 1), or null
 * when no attempt is left. base · 3^(attempt−1) · (1 ± 20 %): with a base of 60 s the 8 retries span
 * ≈ 55 hours (1 min, 3 min, 9 min, 27 min, 81 min, 4 h, 12 h, 36 h).
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  const delay = baseMs * BACKOFF_FACTOR ** (attempt - 1);
  return Math.round(delay * (1 + JITTER * (2 * random() - 1)));
}

export type AttemptOutcome =
  | { kind: "succeeded"; status: number }
  | { kind: "failed"; status: number | null; error: string };

/** Only a 2xx is success; redirects are not followed and count as failures. */
export function outcomeOf(status: number | null, error?: string): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return { kind: "succeeded", status };
  return { kind: "failed", status, error: error ?? (status === null ? "no response" : `HTTP ${status}`) };
}

/**
 * Whether a failure disables the endpoint: a 410 Gone at once; otherwise when it has failed without a
 * single success since `failingSince` for 3 days or more.
 */
export function disableReason(outcome: AttemptOutcome, failingSince: Date | null, now: Date): string | null {
  if (outcome.kind === "succeeded") return null;
  if (outcome.status === 410) return "endpoint answered 410 Gone";
  if (failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) return "3 days of failed deliveries";
  return null;
}
