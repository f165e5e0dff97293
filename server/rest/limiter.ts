// The process's rate limiter, on the backend the configuration names (CONTRACT §8).
import { config } from "../config.ts";
import type { Identity } from "../auth/identity.ts";
import { createRateLimiter, type RateLimiter, type RateLimitResult } from "../ratelimit/index.ts";

const globalForLimiter = globalThis as unknown as { __claimsLimiter?: RateLimiter };

export function rateLimiter(): RateLimiter {
  if (!globalForLimiter.__claimsLimiter) {
    const cfg = config();
    globalForLimiter.__claimsLimiter = createRateLimiter({
      scale: cfg.RATE_LIMIT_SCALE,
      redisUrl: cfg.REDIS_URL,
      upstash: cfg.UPSTASH_REDIS_REST_URL
        ? { url: cfg.UPSTASH_REDIS_REST_URL, token: cfg.UPSTASH_REDIS_REST_TOKEN! }
        : undefined,
      prefix: process.env.RATE_LIMIT_PREFIX,
    });
  }
  return globalForLimiter.__claimsLimiter;
}

export async function closeRateLimiter(): Promise<void> {
  const l = globalForLimiter.__claimsLimiter;
  globalForLimiter.__claimsLimiter = undefined;
  await l?.close();
}

/** The general limit of one request: an agent by id and tier, anyone else (an invalid token included) by IP. */
export function limitCaller(identity: Identity, ip: string): Promise<RateLimitResult> {
  return rateLimiter().limitRequest(
    identity.kind === "agent" ? { agentId: identity.agent.id, tier: identity.agent.tier } : { ip },
  );
}

/** The brute-force limit of a login, registration or refresh: per IP and per the email the input names. */
export function limitAuthAttempt(ip: string, input: unknown): Promise<RateLimitResult> {
  const email = (input as { email?: unknown } | null)?.email;
  return rateLimiter().limitAuthAttempt(ip, typeof email === "string" ? email.trim().toLowerCase() : undefined);
}
