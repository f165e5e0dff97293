// Two backends and the rule between them, for whatever keeps state a shared store should hold for every
// instance (the rate limits, the cache; docs/operating.md#redis):
//   - the choice: Upstash when its URL and token are both set, else a plain Redis when REDIS_URL is,
//     else process memory alone;
//   - the failover: a call the shared store fails (an error, or no answer in time) is answered by the
//     in-process one, the failure is logged at most once per 10 s (./throttled-log.ts), and the store
//     is left alone for a cool-down, so a dead or black-holed store does not cost every call a timeout;
//     after it, the next call tries the store again.
import { config } from "../config.ts";
import { logWarn } from "../log/logger.ts";
import { throttledLogger, type StoreLogger } from "./throttled-log.ts";

export type Backend = "upstash" | "redis" | "memory";

/** Where the shared store is; neither set: process memory only. */
export interface SharedStoreSettings {
  redisUrl?: string;
  upstash?: { url: string; token: string };
}

/** The shared store the configuration names (docs/operating.md#configuration). */
export function sharedStoreSettings(): SharedStoreSettings {
  const cfg = config();
  return {
    redisUrl: cfg.REDIS_URL,
    upstash: cfg.UPSTASH_REDIS_REST_URL ? { url: cfg.UPSTASH_REDIS_REST_URL, token: cfg.UPSTASH_REDIS_REST_TOKEN! } : undefined,
  };
}

/** After a failure, how long the shared store is left alone unless the caller says otherwise. */
export const DEFAULT_COOLDOWN_MS = 2000;

export interface FailoverOptions<S> extends SharedStoreSettings {
  /** Names the log lines: `[tag] …`. */
  tag: string;
  /** Opens the shared store on the backend chosen; `log` is the throttled one, for connection errors. */
  open: { upstash(url: string, token: string, log: StoreLogger): S; redis(url: string, log: StoreLogger): S };
  /** The in-process store: the memory backend, and the fallback of the shared ones. */
  local: S;
  /** Bounds each call on the shared store as a whole (unset: the caller's calls bound themselves). */
  timeoutMs?: number;
  /** After a failure, calls go to `local` for this long (default 2000 ms). */
  cooldownMs?: number;
  /** What the failure line says happens instead, e.g. "using process memory". */
  fallback: string;
  /** Receives the throttled failure lines; default: a warning through the process's logger. */
  logger?: StoreLogger;
}

export interface Failover<S> {
  readonly backend: Backend;
  /** The shared store, when there is one. */
  readonly shared: S | undefined;
  /** The throttled logger of this pair (for the caller's own failure lines). */
  readonly log: StoreLogger;
  /** Runs `op` on the shared store, or on the local one when there is none, it fails or it is cooling down. */
  run<R>(op: (store: S) => Promise<R>): Promise<R>;
}

export function failover<S>(opts: FailoverOptions<S>): Failover<S> {
  const log = throttledLogger(opts.tag, opts.logger ?? logWarn);
  const cooldownMs = opts.cooldownMs ?? DEFAULT_COOLDOWN_MS;
  let backend: Backend = "memory";
  let shared: S | undefined;
  if (opts.upstash?.url && opts.upstash.token) {
    backend = "upstash";
    shared = opts.open.upstash(opts.upstash.url, opts.upstash.token, log);
  } else if (opts.redisUrl) {
    backend = "redis";
    shared = opts.open.redis(opts.redisUrl, log);
  }
  let downUntil = -Infinity;
  const { local, timeoutMs } = opts;
  return {
    backend,
    shared,
    log,
    async run(op) {
      if (shared !== undefined && performance.now() >= downUntil) {
        try {
          const call = op(shared);
          return await (timeoutMs === undefined ? call : withTimeout(call, timeoutMs, `${backend} ${opts.tag}`));
        } catch (err) {
          downUntil = performance.now() + cooldownMs;
          log(`${backend} store failed; ${opts.fallback}`, err);
        }
      }
      return op(local);
    },
  };
}

/** `promise`, or a rejection `${what} did not answer within ${ms} ms` once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
