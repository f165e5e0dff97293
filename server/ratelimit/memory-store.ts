import type { UpstashLikeStore } from "./ioredis-store";
import { sha1 } from "./lua";

/**
 * An in-process stand-in for Redis that lets the REAL @upstash/ratelimit `slidingWindow` algorithm
 * run in memory.
 *
 * @upstash/ratelimit has no in-memory mode: every algorithm is a Lua script sent with
 * `evalsha(sha, keys, args)`. The library does everything else itself — bucket keys
 * (`<prefix>:<id>:<floor(now / window)>`), `now`, success (`remaining >= 0`), `remaining`
 * (clamped at 0) and `reset` (end of the current bucket). Only the script body runs in the store,
 * so this store implements exactly those scripts, identified by the sha1 of their text (the
 * library's hard-coded hashes), as line-by-line JavaScript ports:
 *
 *   sliding window, limit:   used = floor((1 - (now % window) / window) * previousBucket) + currentBucket
 *                            if used >= limit → {-1, limit}; else currentBucket += 1 → {limit - (currentBucket + weightedPrevious), limit}
 *   sliding window, remaining: {limit - used, limit}
 *
 * so the memory backend has the same algorithm and result semantics as the Redis backends.
 * A script it does not know (a future library version changed its Lua) is rejected with an error
 * naming this file; the test suite runs the memory backend, so an upgrade that breaks this is caught.
 */

// sha1 of the scripts in @upstash/ratelimit 2.2.0 (src/lua-scripts/single.ts) — the same values as
// the library's SCRIPTS table.
const SLIDING_WINDOW_LIMIT = "74740bb3d7792848093cdef586b6b6037c455fd6";
const SLIDING_WINDOW_REMAINING = "7ca36169e0fc9caedd81b4eef8e99854c157f9b5";

interface Entry {
  value: string;
  /** epoch ms; undefined = no expiry */
  expiresAt?: number;
}

type ScriptImpl = (store: MemoryStore, keys: string[], args: unknown[]) => unknown;

const SCRIPTS: Record<string, ScriptImpl> = {
  [SLIDING_WINDOW_LIMIT]: (store, keys, args) => {
    const [currentKey, previousKey, dynamicLimitKey] = keys;
    const tokens = Number(args[0]);
    const now = Number(args[1]);
    const window = Number(args[2]);
    const incrementBy = Number(args[3]);

    const effectiveLimit = dynamicLimit(store, dynamicLimitKey) ?? tokens;
    const requestsInCurrentWindow = store.getNumber(currentKey);
    let requestsInPreviousWindow = store.getNumber(previousKey);
    const percentageInCurrent = (now % window) / window;
    requestsInPreviousWindow = Math.floor((1 - percentageInCurrent) * requestsInPreviousWindow);

    if (incrementBy > 0 && requestsInPreviousWindow + requestsInCurrentWindow >= effectiveLimit) {
      return [-1, toRedisInt(effectiveLimit)];
    }
    const newValue = store.incrby(currentKey, incrementBy);
    if (newValue === incrementBy) store.pexpire(currentKey, window * 2 + 1000);
    return [toRedisInt(effectiveLimit - (newValue + requestsInPreviousWindow)), toRedisInt(effectiveLimit)];
  },
  [SLIDING_WINDOW_REMAINING]: (store, keys, args) => {
    const [currentKey, previousKey, dynamicLimitKey] = keys;
    const tokens = Number(args[0]);
    const now = Number(args[1]);
    const window = Number(args[2]);

    const effectiveLimit = dynamicLimit(store, dynamicLimitKey) ?? tokens;
    const requestsInCurrentWindow = store.getNumber(currentKey);
    const percentageInCurrent = (now % window) / window;
    const requestsInPreviousWindow = Math.floor((1 - percentageInCurrent) * store.getNumber(previousKey));
    const usedTokens = requestsInPreviousWindow + requestsInCurrentWindow;
    return [toRedisInt(effectiveLimit - usedTokens), toRedisInt(effectiveLimit)];
  },
};

function dynamicLimit(store: MemoryStore, key: string | undefined): number | undefined {
  if (!key) return undefined;
  const v = store.getRaw(key);
  return v === null ? undefined : Number(v);
}

/** Redis converts a Lua number reply to an integer by truncation. */
function toRedisInt(n: number): number {
  return Math.trunc(n);
}

const SWEEP_EVERY_MS = 10_000;

export class MemoryStore implements UpstashLikeStore {
  private readonly data = new Map<string, Entry>();
  private lastSweep = 0;

  async evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown> {
    const impl = SCRIPTS[sha];
    if (!impl) throw new Error(`NOSCRIPT No matching script ${sha} in the in-memory rate-limit store`);
    return this.exec(impl, keys, args);
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const sha = sha1(script);
    const impl = SCRIPTS[sha];
    if (!impl) {
      throw new Error(
        `in-memory rate-limit store cannot run @upstash/ratelimit script ${sha}: ` +
          "the library's Lua changed; port it in server/ratelimit/memory-store.ts",
      );
    }
    return this.exec(impl, keys, args);
  }

  async get(key: string): Promise<unknown> {
    const raw = this.getRaw(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }

  async set(key: string, value: unknown): Promise<unknown> {
    this.data.set(key, { value: typeof value === "string" ? value : JSON.stringify(value) });
    return "OK";
  }

  /** number of live keys (for tests / diagnostics) */
  size(): number {
    this.sweep(true);
    return this.data.size;
  }

  // --- the Redis commands the scripts use -------------------------------------------------------

  getRaw(key: string): string | null {
    const e = this.data.get(key);
    if (!e) return null;
    if (e.expiresAt !== undefined && e.expiresAt <= Date.now()) {
      this.data.delete(key);
      return null;
    }
    return e.value;
  }

  /** GET, with Lua's `false → 0` handling the scripts do */
  getNumber(key: string): number {
    const v = this.getRaw(key);
    return v === null ? 0 : Number(v);
  }

  incrby(key: string, by: number): number {
    const current = this.getRaw(key);
    const next = (current === null ? 0 : Number.parseInt(current, 10)) + by;
    const old = this.data.get(key);
    this.data.set(key, { value: String(next), expiresAt: current === null ? undefined : old?.expiresAt });
    return next;
  }

  pexpire(key: string, ms: number): void {
    const e = this.data.get(key);
    if (e) e.expiresAt = Date.now() + ms;
  }

  private exec(impl: ScriptImpl, keys: string[], args: unknown[]): unknown {
    this.sweep(false);
    return impl(this, keys, args);
  }

  private sweep(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS && now >= this.lastSweep) return;
    this.lastSweep = now;
    for (const [k, e] of this.data) {
      if (e.expiresAt !== undefined && e.expiresAt <= now) this.data.delete(k);
    }
  }
}
