import type IORedis from "ioredis";
import { closeRedis, openRedis, redisReady } from "../store/redis.ts";
import { isNoScriptError, prepareScript, serializeArg, sha1, type PreparedScript } from "./lua";

/**
 * The subset of the @upstash/redis client that @upstash/ratelimit 2.x calls for the single-region
 * algorithms: `evalsha(sha, keys, args)`, `eval(script, keys, args)` (its NOSCRIPT fallback), and
 * `get`/`set` (only for its optional dynamic limits, unused here but cheap to provide).
 */
export interface UpstashLikeStore {
  evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
}

export interface IORedisStoreOptions {
  timeoutMs: number;
  onError: (msg: string, err?: unknown) => void;
}

/**
 * Runs @upstash/ratelimit against a plain Redis through ioredis.
 *
 * - maps Upstash's call shape `evalsha(sha, keys[], args[])` to Redis' `EVALSHA sha numkeys k.. a..`;
 * - strips the `#!lua flags=allow-key-locking` shebang Redis 7.0 rejects (see ./lua.ts) and keeps
 *   a map from the library's hard-coded hash to the stripped script, so steady state is one EVALSHA;
 * - NOSCRIPT (script cache flushed, Redis restarted, first call) falls back to EVAL;
 * - never waits on a dead connection: no offline queue, short connect/command timeouts, and a
 *   command issued while the client is reconnecting fails at once (the caller falls back).
 */
export class IORedisStore implements UpstashLikeStore {
  readonly client: IORedis;
  private readonly scripts = new Map<string, PreparedScript>();
  private readonly timeoutMs: number;

  constructor(url: string, opts: IORedisStoreOptions) {
    this.timeoutMs = opts.timeoutMs;
    this.client = openRedis(url, opts.timeoutMs, opts.onError);
  }

  /** Register a script without running it (lets tests exercise the NOSCRIPT path). */
  register(script: string): PreparedScript {
    const prepared = prepareScript(script);
    this.scripts.set(prepared.originalSha, prepared);
    return prepared;
  }

  async evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown> {
    await this.ready();
    const prepared = this.scripts.get(sha);
    if (!prepared) {
      // Not seen yet: ask Redis as is. For a shebang script this answers NOSCRIPT and the library
      // retries with eval(script), which registers it below.
      return this.client.evalsha(sha, keys.length, ...keys, ...args.map(serializeArg));
    }
    return this.run(prepared, keys, args);
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    await this.ready();
    const prepared = this.scripts.get(sha1(script)) ?? this.register(script);
    return this.run(prepared, keys, args);
  }

  async get(key: string): Promise<unknown> {
    await this.ready();
    const raw = await this.client.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw); // @upstash/redis deserialises JSON by default
    } catch {
      return raw;
    }
  }

  async set(key: string, value: unknown): Promise<unknown> {
    await this.ready();
    return this.client.set(key, serializeArg(value));
  }

  close(): Promise<void> {
    return closeRedis(this.client);
  }

  private async run(p: PreparedScript, keys: string[], args: unknown[]): Promise<unknown> {
    const a = args.map(serializeArg);
    try {
      return await this.client.evalsha(p.sha, keys.length, ...keys, ...a);
    } catch (err) {
      if (!isNoScriptError(err)) throw err;
      return this.client.eval(p.script, keys.length, ...keys, ...a);
    }
  }

  private ready(): Promise<void> {
    return redisReady(this.client, this.timeoutMs);
  }
}
