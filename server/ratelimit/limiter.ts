// The process's rate limiter, on the backend the configuration names (docs/security.md#every-way-in).
// Requests are charged at the door (server/door/budgets.ts), its only caller for them; two budgets are
// the services' own business, decided by what a request turns out to be: password guesses per account
// (services/auth.ts: only wrong passwords count, known after the comparison) and mail to one address
// (limitMailTo below: over it nothing is sent, and the answer is the same).
import { config } from "../config.ts";
import { createRateLimiter, type RateLimiter, type RateLimitResult } from "./index.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

export function rateLimiter(): RateLimiter {
  return processSingleton("claims.rateLimiter", () => {
    const cfg = config();
    return createRateLimiter({
      scale: cfg.RATE_LIMIT_SCALE,
      redisUrl: cfg.REDIS_URL,
      upstash: cfg.UPSTASH_REDIS_REST_URL
        ? { url: cfg.UPSTASH_REDIS_REST_URL, token: cfg.UPSTASH_REDIS_REST_TOKEN! }
        : undefined,
      prefix: cfg.RATE_LIMIT_PREFIX,
      pageLimit: cfg.PAGE_RATE_LIMIT,
      registrationLimit: cfg.MCP_REGISTRATION_LIMIT,
      ipv6Prefix: cfg.RATE_LIMIT_IPV6_PREFIX,
    });
  });
}

export async function closeRateLimiter(): Promise<void> {
  const l = processSlot<RateLimiter>("claims.rateLimiter").take();
  await l?.close();
}

/**
 * Mailed links to one address (docs/security.md, "Limits"): whoever asks, from however many clients,
 * an inbox gets at most a few per hour. Over it nothing is sent; the request is answered as usual.
 */
export function limitMailTo(address: string): Promise<RateLimitResult> {
  return rateLimiter().limitMailTo(address);
}
