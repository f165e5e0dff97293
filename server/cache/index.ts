// A small key/value cache for computed results (platform statistics). JSON values with a TTL.
//
// Backends and failover, as for the rate limiter (server/store/failover.ts, docs/operating.md#redis):
// Upstash when UPSTASH_REDIS_REST_URL/TOKEN are set, a plain Redis when REDIS_URL is set, else process
// memory. A shared store lets every server instance serve the same value (the same `updated_at`). It
// fails soft: when the store errors or does not answer within `timeoutMs`, the call is answered from
// process memory, the failure is logged at most once per 10 s, and the store is left alone for a short
// cool-down.
import { Redis as UpstashRedis } from "@upstash/redis";
import { closeRedis, openRedis, redisReady } from "../store/redis.ts";
import { failover, sharedStoreSettings, type SharedStoreSettings } from "../store/failover.ts";
import type { StoreLogger } from "../store/throttled-log.ts";
import { config } from "../config.ts";
import { processSingleton, processSlot } from "../process-singleton.ts";

export interface Cache {
  readonly backend: "upstash" | "redis" | "memory";
  get<T>(key: string): Promise<T | undefined>;
  /** The stored JSON text as it is (no parse): lets a caller tell whether the value changed. */
  getText(key: string): Promise<string | undefined>;
  set<T>(key: string, value: T, ttlSeconds: number): Promise<void>;
  /**
   * The cached value, or `compute()` stored for `ttlSeconds`. When several callers (processes
   * included) miss at once, the first value stored wins and every caller returns that one.
   */
  getOrCompute<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T>;
  /** Keys held in process memory (the fallback store): bounded by `maxMemoryEntries`. */
  memoryEntries(): number;
  close(): Promise<void>;
}

export interface CacheOptions extends SharedStoreSettings {
  /** Key namespace in the shared store (default "claims-cache"). */
  prefix?: string;
  /** Budget for one call to the shared store (default 300 ms). */
  timeoutMs?: number;
  /** After a store failure, answer from memory for this long (default 2000 ms). */
  failureCooldownMs?: number;
  logger?: (msg: string, err?: unknown) => void;
  /** Keys kept in process memory at most (default 1000), least recently used evicted first. */
  maxMemoryEntries?: number;
}

/** The three operations a shared store must offer. `setIfAbsent` returns whether it stored. */
interface Store {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Process memory, bounded: at most `maxEntries` keys, least recently used evicted first (a Map keeps
 * insertion order; a read re-inserts), and expired entries are swept on writes, so keys that are never
 * read again (e.g. one per query shape) cannot grow the process without limit.
 */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  /** The earliest expiry among the entries (a sweep is due once it has passed). */
  private nextExpiry = Infinity;

  constructor(private readonly maxEntries = 1000) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | null> {
    const e = this.entries.get(key);
    if (!e) return null;
    this.entries.delete(key);
    if (e.expiresAt <= Date.now()) return null;
    this.entries.set(key, e);
    return e.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const now = Date.now();
    if (now >= this.nextExpiry) {
      // O(entries), only when something has expired; entries are few (maxEntries).
      this.nextExpiry = Infinity;
      for (const [k, e] of this.entries) {
        if (e.expiresAt <= now) this.entries.delete(k);
        else this.nextExpiry = Math.min(this.nextExpiry, e.expiresAt);
      }
    }
    const expiresAt = now + ttlSeconds * 1000;
    this.nextExpiry = Math.min(this.nextExpiry, expiresAt);
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    if ((await this.get(key)) !== null) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

function redisStore(url: string, timeoutMs: number, onError: StoreLogger): Store {
  const client = openRedis(url, timeoutMs, onError);
  const ready = () => redisReady(client, timeoutMs);
  return {
    async get(key) {
      await ready();
      return client.get(key);
    },
    async set(key, value, ttlSeconds) {
      await ready();
      await client.set(key, value, "EX", ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      await ready();
      return (await client.set(key, value, "EX", ttlSeconds, "NX")) === "OK";
    },
    close: () => closeRedis(client),
  };
}

function upstashStore(url: string, token: string, timeoutMs: number): Store {
  const client = new UpstashRedis({
    url,
    token,
    // Values are JSON text already: store and return them verbatim.
    automaticDeserialization: false,
    retry: { retries: 0 },
    signal: () => AbortSignal.timeout(timeoutMs + 250),
    enableTelemetry: false,
  });
  return {
    async get(key) {
      const v = await client.get<string>(key);
      return v ?? null;
    },
    async set(key, value, ttlSeconds) {
      await client.set(key, value, { ex: ttlSeconds });
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await client.set(key, value, { ex: ttlSeconds, nx: true })) === "OK";
    },
    async close() {},
  };
}

export function createCache(opts: CacheOptions = {}): Cache {
  const prefix = opts.prefix ?? "claims-cache";
  const timeoutMs = opts.timeoutMs ?? 300;
  const memory = new MemoryStore(opts.maxMemoryEntries ?? 1000);
  const stores = failover<Store>({
    tag: "cache",
    redisUrl: opts.redisUrl,
    upstash: opts.upstash,
    open: {
      upstash: (url, token) => upstashStore(url, token, timeoutMs),
      redis: (url, log) => redisStore(url, timeoutMs, log),
    },
    local: memory,
    timeoutMs,
    cooldownMs: opts.failureCooldownMs,
    fallback: "using process memory",
    logger: opts.logger,
  });
  const { run } = stores;
  /** In-process single flight: concurrent misses for one key compute once. */
  const inFlight = new Map<string, Promise<unknown>>();

  const k = (key: string) => `${prefix}:${key}`;
  const parse = <T>(raw: string | null): T | undefined => {
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  };

  const cache: Cache = {
    backend: stores.backend,
    async get<T>(key: string) {
      return parse<T>(await run((s) => s.get(k(key))));
    },
    async getText(key: string) {
      return (await run((s) => s.get(k(key)))) ?? undefined;
    },
    async set<T>(key: string, value: T, ttlSeconds: number) {
      await run((s) => s.set(k(key), JSON.stringify(value), ttlSeconds));
    },
    getOrCompute<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T> {
      const pending = inFlight.get(key);
      if (pending) return pending as Promise<T>;
      const work = (async () => {
        const hit = await cache.get<T>(key);
        if (hit !== undefined) return hit;
        const value = await compute();
        const text = JSON.stringify(value);
        // Another instance may have stored its own value meanwhile: theirs wins, so all agree.
        const stored = await run(async (s) => {
          if (await s.setIfAbsent(k(key), text, ttlSeconds)) return text;
          return (await s.get(k(key))) ?? text;
        });
        return parse<T>(stored) ?? value;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, work);
      return work;
    },
    memoryEntries: () => memory.size,
    async close() {
      await stores.shared?.close();
      await memory.close();
    },
  };
  return cache;
}

/** The process's cache, on the backend the configuration names. */
export function cache(): Cache {
  return processSingleton("claims.cache", () => {
    return createCache({ ...sharedStoreSettings(), prefix: config().CACHE_PREFIX });
  });
}

export async function closeCache(): Promise<void> {
  const c = processSlot<Cache>("claims.cache").take();
  await c?.close();
}
