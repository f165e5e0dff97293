/**
 * Rate limiting (docs/security.md#every-way-in): a sliding window of 60 s for the API (per agent by tier,
 * per IP for anonymous callers) and 10 attempts per 15 minutes per IP and per e-mail for the
 * auth endpoints. `scale` (RATE_LIMIT_SCALE) multiplies every limit.
 *
 * The algorithm is @upstash/ratelimit's `slidingWindow` on every backend:
 *   - "upstash": the library with an @upstash/redis REST client;
 *   - "redis":   the library with ./ioredis-store (ioredis adapter: call shapes, shebang, NOSCRIPT);
 *   - "memory":  the library with ./memory-store (JS ports of the library's two sliding-window Lua
 *                scripts) — single instance only.
 *
 * Failure rule (server/store/failover.ts, the cache's too): the shared store has a short timeout
 * (default 500 ms). When it fails or times out (including the library's own `reason: "timeout"`
 * fail-open result, which carries limit 0 / remaining 0), the call is answered by an in-process
 * fallback limiter (the memory backend), so the request goes through when it would be allowed locally
 * and the headers stay honest. The failure is logged at most once per 10 s, and after a failure the
 * store is left alone for `failureCooldownMs` (default 2 s) so a dead or black-holed store does not
 * cost every request a timeout.
 */
import { Ratelimit } from "@upstash/ratelimit";
import { Redis as UpstashRedis } from "@upstash/redis";
import { IORedisStore, type UpstashLikeStore } from "./ioredis-store";
import { MemoryStore } from "./memory-store";
import { failover, withTimeout, type Backend, type SharedStoreSettings } from "../store/failover.ts";
import { clientKey, DEFAULT_IPV6_PREFIX } from "./client-key.ts";

import { TIERS, type Tier } from "../domain/reputation.ts";

export type { Tier };

export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix time in SECONDS at which the current window resets */
  reset: number;
  /** seconds; >= 1 when !success, else 0 */
  retryAfter: number;
}

export interface RateLimiterOptions extends SharedStoreSettings {
  /** RATE_LIMIT_SCALE: multiplies every limit (default 1); must be > 0 */
  scale?: number;
  /** timeout for one call to the shared store (default 500 ms) */
  timeoutMs?: number;
  /** key prefix (default "claims-rl") */
  prefix?: string;
  /** receives store failures (throttled to one line per 10 s); default: a warning through the process's logger */
  logger?: (msg: string, err?: unknown) => void;
  /** after a store failure, answer from the in-process limiter for this long (default 2000 ms) */
  failureCooldownMs?: number;
  /** PAGE_RATE_LIMIT: page renders per IP per 60 s, before scaling (default 600) */
  pageLimit?: number;
  /** MCP_REGISTRATION_LIMIT: MCP client registrations per IP per hour, before scaling (default 30) */
  registrationLimit?: number;
  /** RATE_LIMIT_IPV6_PREFIX: an IPv6 client is limited by this prefix of its address (default 64) */
  ipv6Prefix?: number;
}

/** Who is charged: an agent by id and tier, anyone else by IP. */
export type Caller = { agentId: string; tier: Tier } | { ip: string };

export interface RateLimiter {
  backend: Backend;
  /** general API limit: agents by id per tier (new 120, established 300, trusted 1000 per 60 s), anonymous by IP (60) */
  limitRequest(who: Caller, cost?: number): Promise<RateLimitResult>;
  /** the caller's general limit as it stands, without counting anything (OPTIONS, failures before the limit was checked) */
  peekRequest(who: Caller): Promise<RateLimitResult>;
  /** page renders: a separate per-IP budget (PAGE_RATE_LIMIT, default 600 per 60 s) */
  limitPage(ip: string): Promise<RateLimitResult>;
  /** MCP client registrations (POST /oauth/register): a per-IP budget of their own (MCP_REGISTRATION_LIMIT, default 30 per hour) */
  limitRegistration(ip: string): Promise<RateLimitResult>;
  /** account attempts (login, registration, refresh, web sign-in): 10 per 15 minutes per client */
  limitAuthAttempt(ip: string): Promise<RateLimitResult>;
  /**
   * Whether this client may try a password for this account now (nothing counted): refused after
   * 5 failures on the account from this client, and — once the account has had 10 failures from
   * anyone — for every client that has failed on it at all. A client that has not failed on it
   * (the owner on their own device) still gets its try. docs/security.md, "Limits".
   */
  passwordTryAllowed(email: string, ip: string): Promise<RateLimitResult>;
  /** Counts a wrong password for this account from this client (both budgets above). */
  recordPasswordFailure(email: string, ip: string): Promise<void>;
  /** a mailed link (password reset, verification) to this address: 3 per hour, whoever asks */
  limitMailTo(address: string): Promise<RateLimitResult>;
  close(): Promise<void>;
}

/** Unscaled limits (docs/security.md#every-way-in). */
export const BASE_LIMITS = {
  anonymous: 60,
  new: 120,
  established: 300,
  trusted: 1000,
  auth: 10,
  page: 600,
  /** MCP client registrations per client, per hour */
  registration: 30,
  /** wrong passwords for one account from one client, per 15 minutes */
  passwordPerClient: 5,
  /** wrong passwords for one account from anyone, per 15 minutes, before it is guarded (see passwordTryAllowed) */
  passwordPerAccount: 10,
  /** mailed links (password reset and verification together) to one address, per hour */
  mailPerAddress: 3,
} as const;
export const API_WINDOW = "60 s";
export const AUTH_WINDOW = "15 m";
export const MAIL_WINDOW = "1 h";
export const REGISTRATION_WINDOW = "1 h";

const DEFAULT_PREFIX = "claims-rl";
const DEFAULT_TIMEOUT_MS = 500;

type LimiterName = "anonymous" | Tier | "auth" | "page" | "registration" | "passwordPerClient" | "passwordPerAccount" | "mailPerAddress";
type LimiterSet = Record<LimiterName, Ratelimit>;
type RawResult = Awaited<ReturnType<Ratelimit["limit"]>>;

/** A limit times the scale, rounded down (float noise tolerated), never below 1. */
export function scaleLimit(base: number, scale: number): number {
  return Math.max(1, Math.floor(base * scale + 1e-9));
}

function buildLimiters(store: UpstashLikeStore | UpstashRedis, prefix: string, scale: number, timeoutMs: number, pageLimit: number, registrationLimit: number): LimiterSet {
  // The library's config type wants an @upstash/redis client; it only calls evalsha/eval/get/set.
  const redis = store as unknown as UpstashRedis;
  const make = (name: "api" | "auth" | "page" | "registration" | "pw-client" | "pw-account" | "mail", tokens: number, window: typeof API_WINDOW | typeof AUTH_WINDOW | typeof MAIL_WINDOW) =>
    new Ratelimit({
      redis,
      // one key space per limit kind: an agent's count survives a tier change
      prefix: `${prefix}:${name}`,
      limiter: Ratelimit.slidingWindow(tokens, window),
      timeout: timeoutMs,
      analytics: false,
      // The ephemeral cache would block an identifier until the end of the bucket, which differs from
      // the sliding window's own answer; keep the three backends answering identically.
      ephemeralCache: false,
      enableProtection: false,
      enableTelemetry: false,
    });
  return {
    anonymous: make("api", scaleLimit(BASE_LIMITS.anonymous, scale), API_WINDOW),
    new: make("api", scaleLimit(BASE_LIMITS.new, scale), API_WINDOW),
    established: make("api", scaleLimit(BASE_LIMITS.established, scale), API_WINDOW),
    trusted: make("api", scaleLimit(BASE_LIMITS.trusted, scale), API_WINDOW),
    auth: make("auth", scaleLimit(BASE_LIMITS.auth, scale), AUTH_WINDOW),
    page: make("page", scaleLimit(pageLimit, scale), API_WINDOW),
    registration: make("registration", scaleLimit(registrationLimit, scale), REGISTRATION_WINDOW),
    passwordPerClient: make("pw-client", scaleLimit(BASE_LIMITS.passwordPerClient, scale), AUTH_WINDOW),
    passwordPerAccount: make("pw-account", scaleLimit(BASE_LIMITS.passwordPerAccount, scale), AUTH_WINDOW),
    mailPerAddress: make("mail", scaleLimit(BASE_LIMITS.mailPerAddress, scale), MAIL_WINDOW),
  };
}

type RawRemaining = Awaited<ReturnType<Ratelimit["getRemaining"]>>;

/** A remaining-count reading as a result: it would pass while at least `cost` units are left. */
function peekResult(r: RawRemaining, cost: number, nowMs = Date.now()): RateLimitResult {
  const success = r.remaining >= cost;
  return {
    success,
    limit: r.limit,
    remaining: Math.max(0, r.remaining),
    reset: Math.ceil(r.reset / 1000),
    retryAfter: success ? 0 : Math.max(1, Math.ceil((r.reset - nowMs) / 1000)),
  };
}

function toResult(r: RawResult, nowMs = Date.now()): RateLimitResult {
  const resetMs = r.reset;
  return {
    success: r.success,
    limit: r.limit,
    remaining: Math.max(0, r.remaining),
    reset: Math.ceil(resetMs / 1000),
    retryAfter: r.success ? 0 : Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
  };
}

/** Of several results for one request: failed if any failed; the most restrictive one's numbers. */
export function mostRestrictive(results: RateLimitResult[]): RateLimitResult {
  const failed = results.filter((r) => !r.success);
  if (failed.length > 0) {
    return failed.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
  }
  return results.reduce((a, b) => {
    if (b.remaining !== a.remaining) return b.remaining < a.remaining ? b : a;
    return b.reset > a.reset ? b : a;
  });
}

export function createRateLimiter(opts: RateLimiterOptions = {}): RateLimiter {
  const scale = opts.scale ?? 1;
  if (!(typeof scale === "number" && Number.isFinite(scale) && scale > 0)) {
    throw new Error(`RATE_LIMIT_SCALE must be a positive number, got ${String(opts.scale)}`);
  }
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const prefix = opts.prefix ?? DEFAULT_PREFIX;
  const pageLimit = opts.pageLimit ?? BASE_LIMITS.page;
  const registrationLimit = opts.registrationLimit ?? BASE_LIMITS.registration;
  if (!(Number.isInteger(registrationLimit) && registrationLimit > 0)) throw new Error(`MCP_REGISTRATION_LIMIT must be a positive whole number, got ${String(opts.registrationLimit)}`);
  const ipv6Prefix = opts.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
  if (!(Number.isInteger(ipv6Prefix) && ipv6Prefix >= 1 && ipv6Prefix <= 128)) throw new Error(`RATE_LIMIT_IPV6_PREFIX must be a whole number from 1 to 128, got ${String(opts.ipv6Prefix)}`);
  const client = (ip: string) => clientKey(ip, ipv6Prefix);
  if (!(Number.isInteger(pageLimit) && pageLimit > 0)) throw new Error(`PAGE_RATE_LIMIT must be a positive whole number, got ${String(opts.pageLimit)}`);

  // The memory backend, and the fallback of the shared ones.
  const local = buildLimiters(new MemoryStore(), prefix, scale, 0, pageLimit, registrationLimit);
  let closeStore: () => Promise<void> = async () => {};
  // No timeout around a whole check: the library bounds limit() itself, and getRemaining is bounded
  // below; a check of several units makes both calls, each with its own budget.
  const stores = failover<LimiterSet>({
    tag: "ratelimit",
    redisUrl: opts.redisUrl,
    upstash: opts.upstash,
    open: {
      upstash(url, token) {
        const client = new UpstashRedis({
          url,
          token,
          // one quick retry at most. The library's own timeout (below) answers first; this signal only
          // makes sure an abandoned HTTP request does not linger.
          retry: { retries: 1, backoff: () => 20 },
          signal: () => AbortSignal.timeout(timeoutMs + 250),
          enableTelemetry: false,
        });
        return buildLimiters(client, prefix, scale, timeoutMs, pageLimit, registrationLimit);
      },
      redis(url, log) {
        const store = new IORedisStore(url, { timeoutMs, onError: (m, e) => log(m, e) });
        closeStore = () => store.close();
        return buildLimiters(store, prefix, scale, timeoutMs, pageLimit, registrationLimit);
      },
    },
    local,
    cooldownMs: opts.failureCooldownMs,
    fallback: "failing open to the in-process limiter",
    logger: opts.logger,
  });
  const { backend, log } = stores;

  /**
   * Charges `cost` units (one per unit of work: a tRPC batch of 10 calls costs 10). A request whose
   * cost does not fit in what is left is refused and counts nothing, like any refused call: the
   * library's `rate` would count it and still refuse, so a multi-unit charge reads the remaining
   * count first (a concurrent request may make it overshoot by one charge; it is then refused).
   */
  async function charge(limiter: Ratelimit, identifier: string, cost: number): Promise<RateLimitResult> {
    if (cost > 1) {
      const left = await bounded(limiter.getRemaining(identifier));
      if (left.remaining < cost) return peekResult(left, cost);
      const r = await limiter.limit(identifier, { rate: cost });
      if (r.reason === "timeout") throw new Error(`${backend} store did not answer within ${timeoutMs} ms`);
      return toResult(r);
    }
    const r = await limiter.limit(identifier);
    if (r.reason === "timeout") throw new Error(`${backend} store did not answer within ${timeoutMs} ms`);
    return toResult(r);
  }

  async function peek(limiter: Ratelimit, identifier: string): Promise<RateLimitResult> {
    return peekResult(await bounded(limiter.getRemaining(identifier)), 1);
  }

  /** getRemaining has no timeout of its own (limit() does). */
  function bounded<T>(p: Promise<T>): Promise<T> {
    if (!stores.shared || timeoutMs <= 0) return p;
    return withTimeout(p, timeoutMs, `${backend} store`);
  }

  async function check(name: LimiterName, identifier: string, cost = 1, mode: "charge" | "peek" = "charge"): Promise<RateLimitResult> {
    const run = (set: LimiterSet) => (mode === "peek" ? peek(set[name], identifier) : charge(set[name], identifier, cost));
    try {
      return await stores.run(run);
    } catch (err) {
      // Should not happen (the memory store only fails if the library's Lua changed): fail open.
      log("in-process limiter failed; letting the request through", err);
      const limit = scaleLimit(name === "page" ? pageLimit : name === "registration" ? registrationLimit : BASE_LIMITS[name], scale);
      const windowS = name === "mailPerAddress" || name === "registration" ? 3600 : name === "auth" || name.startsWith("password") ? 900 : 60;
      return { success: true, limit, remaining: limit, reset: Math.ceil(Date.now() / 1000) + windowS, retryAfter: 0 };
    }
  }

  const callerKey = (who: Caller): [LimiterName, string] => {
    if ("agentId" in who) return [TIERS.includes(who.tier) ? who.tier : "new", `agent:${who.agentId}`];
    return ["anonymous", `ip:${client(who.ip)}`];
  };

  return {
    backend,
    limitRequest(who, cost = 1) {
      const [name, id] = callerKey(who);
      return check(name, id, Math.max(1, Math.floor(cost)));
    },
    peekRequest(who) {
      const [name, id] = callerKey(who);
      return check(name, id, 1, "peek");
    },
    limitPage(ip) {
      return check("page", `ip:${client(ip)}`);
    },
    limitRegistration(ip) {
      return check("registration", `ip:${client(ip)}`);
    },
    limitAuthAttempt(ip) {
      return check("auth", `ip:${client(ip)}`);
    },
    async passwordTryAllowed(email, ip) {
      const account = email.trim().toLowerCase();
      const [fromClient, onAccount] = await Promise.all([
        check("passwordPerClient", `${client(ip)} ${account}`, 1, "peek"),
        check("passwordPerAccount", account, 1, "peek"),
      ]);
      if (!fromClient.success) return fromClient;
      // The account is being guessed at: only a client with no failure on it may try.
      const failedHere = fromClient.remaining < fromClient.limit;
      if (!onAccount.success && failedHere) return onAccount;
      return mostRestrictive([fromClient, { ...onAccount, success: true, retryAfter: 0 }]);
    },
    async recordPasswordFailure(email, ip) {
      const account = email.trim().toLowerCase();
      await Promise.all([check("passwordPerClient", `${client(ip)} ${account}`), check("passwordPerAccount", account)]);
    },
    limitMailTo(address) {
      return check("mailPerAddress", address.trim().toLowerCase());
    },
    close: () => closeStore(),
  };
}
