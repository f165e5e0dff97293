// The process's rate limiter, on the backend the configuration names (docs/security.md#every-way-in).
import { config } from "../config.ts";
import type { Identity } from "../auth/identity.ts";
import { createRateLimiter, type Caller, type RateLimiter, type RateLimitResult } from "./index.ts";
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
      ipv6Prefix: cfg.RATE_LIMIT_IPV6_PREFIX,
    });
  });
}

export async function closeRateLimiter(): Promise<void> {
  const l = processSlot<RateLimiter>("claims.rateLimiter").take();
  await l?.close();
}

function callerOf(identity: Identity, ip: string): Caller {
  return identity.kind === "agent" ? { agentId: identity.agent.id, tier: identity.agent.tier } : { ip };
}

/**
 * The general limit: an agent by id and tier, anyone else (an invalid token included) by IP.
 * `cost` is the units of work the request asks for (one per procedure: a tRPC batch of 10 costs 10).
 */
export function limitCaller(identity: Identity, ip: string, cost = 1): Promise<RateLimitResult> {
  return rateLimiter().limitRequest(callerOf(identity, ip), cost);
}

/** The general limit as it stands, nothing counted (answers that must carry honest headers but do no work). */
export function peekCaller(identity: Identity, ip: string): Promise<RateLimitResult> {
  return rateLimiter().peekRequest(callerOf(identity, ip));
}

/**
 * The per-client budget of a login, registration, refresh or web sign-in. Guessing one account's
 * password from many clients is bounded where the password is checked (services/auth.ts
 * verifyCredentials, with passwordTryAllowed/recordPasswordFailure), so that it never locks the owner out.
 */
export function limitAuthAttempt(ip: string): Promise<RateLimitResult> {
  return rateLimiter().limitAuthAttempt(ip);
}

/**
 * Mailed links to one address (docs/security.md, "Limits"): whoever asks, from however many clients,
 * an inbox gets at most a few per hour. Over it nothing is sent; the request is answered as usual.
 */
export function limitMailTo(address: string): Promise<RateLimitResult> {
  return rateLimiter().limitMailTo(address);
}
