// Next's incremental cache handler (next.config.mjs `cacheHandler`): where the pages Next renders
// incrementally (a claim, a profile: docs/features/page-cache.md) are kept between renders.
//   - REDIS_URL set: in Redis, through @fortedigital/nextjs-cache-handler's redis-strings handler on an
//     ioredis connection (server/store/redis.ts). Every instance reads and writes the same entries, and
//     they survive a restart.
//   - otherwise: Next's own file-system cache, under DATA_DIR/page-store instead of .next, so that a
//     page rendered against one data directory is never served against another (tests start many
//     servers on one build).
// Both are namespaced by build and database: a page references its build's scripts and styles (a new
// build never serves an old build's pages), and one DATA_DIR or Redis may serve several databases.
// Next imports this module itself (Node's own TypeScript support under `next start`, tsx under
// `npm start`), once per process and sometimes twice: what must be shared is one per process
// (server/cache/page-store-state.ts).
//
// Three rules of ours on top of the stores:
//   - a 404 is never kept: a claim that is hidden, unknown or not yet visible answers 404 from a fresh
//     render each time, so a restored claim comes back at once and random ids fill nothing;
//   - an entry read from Redis carries the lifetime it was rendered with (Next otherwise only knows the
//     lifetime of pages this process rendered itself, and would treat another instance's page as stale);
//   - the store holds at most PAGE_STORE_MAX_MB of pages, the oldest writes removed first
//     (server/cache/page-store-cap.ts).
import path from "node:path";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { CacheHandler as ForteCacheHandler } from "@fortedigital/nextjs-cache-handler";
import createRedisHandler from "@fortedigital/nextjs-cache-handler/redis-strings";
import { ioredisAdapter } from "@fortedigital/nextjs-cache-handler/helpers/ioredisAdapter";
import { config, isNextBuild } from "../config.ts";
import { logWarn } from "../log/logger.ts";
import { openRedis, redisReady } from "../store/redis.ts";
import { throttledLogger } from "../store/throttled-log.ts";
import { keptPageRoute, pageStoreState, type PageStoreBackend, type PageStoreCap } from "./page-store-state.ts";
import { entryBytes, isCountedEntry, MemoryLedger, pagesOnDisk, RedisLedger, removePageFiles } from "./page-store-cap.ts";

/** What Next passes to a cache handler's constructor (the fields we use). */
interface HandlerContext {
  serverDistDir?: string;
  dev?: boolean;
  [key: string]: unknown;
}

interface InnerHandler {
  get(key: string, ctx?: unknown): Promise<unknown>;
  set(key: string, data: unknown, ctx?: unknown): Promise<void>;
  revalidateTag(tags: string | string[], durations?: unknown): Promise<void>;
  resetRequestCache?(): void;
}

/** Next's file-system cache class: its in-process copy of recent entries is a static LRU. */
type FileSystemCacheClass = (new (c: HandlerContext) => InnerHandler) & { memoryCache?: { remove(key: string): void } };

const shared = pageStoreState();

const require = createRequire(import.meta.url);

/** Which store this process keeps pages in (null while building: the build keeps nothing of ours). */
function backendOfProcess(): PageStoreBackend | null {
  if (isNextBuild()) return null;
  return config().REDIS_URL ? "redis" : "file-system";
}

function buildIdOf(serverDistDir: string | undefined): string {
  try {
    if (serverDistDir) return readFileSync(path.join(serverDistDir, "..", "BUILD_ID"), "utf8").trim();
  } catch {
    /* no build: development */
  }
  return "dev";
}

function schemaOf(url: URL | null): string {
  return url?.searchParams.get("schema") || "public";
}

function databaseUrl(): URL | null {
  const url = config().DATABASE_URL;
  try {
    return url ? new URL(url) : null;
  } catch {
    return null;
  }
}

/** The key namespace in Redis: per database schema (test files share one Redis) and per build. */
function redisPrefix(serverDistDir: string | undefined): string {
  return `claims-pages:${schemaOf(databaseUrl())}:${buildIdOf(serverDistDir)}:`;
}

/**
 * The file-system store's folder: DATA_DIR/page-store/<build>/<database>. Folders of other builds are
 * removed when a process of a new build starts (their pages would reference scripts that are gone).
 */
function fileSystemDir(serverDistDir: string | undefined): string {
  if (shared.fileSystemDir) return shared.fileSystemDir;
  const root = path.resolve(config().DATA_DIR, "page-store");
  const buildId = buildIdOf(serverDistDir);
  try {
    for (const entry of readdirSync(root)) if (entry !== buildId) rmSync(path.join(root, entry), { recursive: true, force: true });
  } catch {
    /* nothing kept yet */
  }
  // The database without its credentials: host, name and schema (PGlite: the DATA_DIR itself).
  const url = databaseUrl();
  const database = url ? createHash("sha256").update(`${url.host}${url.pathname}?${schemaOf(url)}`).digest("hex").slice(0, 16) : "pglite";
  return (shared.fileSystemDir = path.join(root, buildId, database, "server"));
}

/** How long an entry stays in Redis after its last render, whatever its revalidate time: a week. */
const KEEP_SECONDS = 7 * 24 * 3600;

/** A page read or write that Redis has not answered in this long is a miss (the page renders). */
const REDIS_TIMEOUT_MS = 1000;

/**
 * The client with its methods bound: the adapter calls `set` detached from the client (3.3.0), which
 * ioredis does not survive.
 */
function bound<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function configureForte(): void {
  if (shared.redisConfigured) return;
  shared.redisConfigured = true;
  ForteCacheHandler.onCreation(async ({ serverDistDir }) => {
    const cfg = config();
    const warn = throttledLogger("page-store", logWarn);
    const client = openRedis(cfg.REDIS_URL!, REDIS_TIMEOUT_MS, warn);
    await redisReady(client, 2 * REDIS_TIMEOUT_MS).catch((err) => warn("redis not ready at start", err));
    const handler = createRedisHandler({
      client: ioredisAdapter(bound(client)),
      keyPrefix: redisPrefix(serverDistDir),
      timeoutMs: REDIS_TIMEOUT_MS,
      keyExpirationStrategy: "EXAT",
    });
    // The cap's ledger and removals go through the same connection and handler.
    shared.redisPages = { client, remove: (key) => handler.delete?.(key) ?? Promise.resolve() };
    return {
      handlers: [handler],
      ttl: { estimateExpireAge: (staleAge: number) => Math.max(staleAge * 2, KEEP_SECONDS) },
    };
  });
}

interface StoredEntry {
  lastModified?: number;
  lifespan?: { revalidate?: number | false } | null;
  cacheControl?: { revalidate: number | false; expire?: number };
  value?: { kind?: string; status?: number } | null;
}

type RouteCacheKey = (pathname: string, owner: { kind: string; sourceRoute: string }) => string;
let routeCacheKey: RouteCacheKey | undefined;

/** The key Next stores a kept page under, or null when `pathname` is not a kept page. */
export function keptPageKey(pathname: string): string | null {
  const source = keptPageRoute(pathname);
  if (!source) return null;
  routeCacheKey ??= (require("next/dist/server/lib/route-cache-key.js") as { getRouteCacheKey: RouteCacheKey }).getRouteCacheKey;
  return routeCacheKey(pathname, { kind: "APP_PAGE", sourceRoute: source });
}

/** A 404 render (an unknown or hidden claim or profile): never kept. */
function isNotFound(data: unknown): boolean {
  const value = data as StoredEntry["value"];
  return value?.kind === "APP_PAGE" && value.status === 404;
}

const capWarn = throttledLogger("page-store", logWarn);

/**
 * The file-system store's cap: the ledger in this process, seeded in the background with what earlier
 * processes left in the folder (older than anything written since). An entry it names goes from the
 * folder and from Next's in-process copy.
 */
function fileSystemCap(dir: string, cache: FileSystemCacheClass): PageStoreCap {
  const ledger = new MemoryLedger(config().PAGE_STORE_MAX_MB * 1024 * 1024);
  const remove = async (key: string) => {
    cache.memoryCache?.remove(key);
    await removePageFiles(dir, key);
  };
  const seeded = pagesOnDisk(dir)
    .then(async (found) => void (await Promise.all(ledger.seeded(found).map(remove))))
    .catch((err) => capWarn("reading the page store's folder failed", err));
  return { ledger, remove, seeded };
}

/** The Redis store's cap: the ledger beside the pages, shared by every instance. */
function redisCap(serverDistDir: string | undefined): PageStoreCap {
  const ledger = new RedisLedger(() => shared.redisPages?.client, redisPrefix(serverDistDir), config().PAGE_STORE_MAX_MB * 1024 * 1024, KEEP_SECONDS);
  return { ledger, remove: async (key) => shared.redisPages?.remove(key) };
}

/** Records a kept page's write and removes what the cap names. A failure keeps the page (the next write catches up). */
async function keepWithinCap(cap: PageStoreCap, key: string, bytes: number): Promise<void> {
  try {
    await Promise.all((await cap.ledger.wrote(key, bytes)).map((old) => cap.remove(old)));
  } catch (err) {
    capWarn("keeping the page store within PAGE_STORE_MAX_MB failed", err);
  }
}

export default class PageStore {
  private readonly inner: InnerHandler;
  private readonly cap: PageStoreCap | undefined;

  constructor(ctx: HandlerContext) {
    const backend = backendOfProcess();
    if (backend === "redis") {
      configureForte();
      this.inner = new ForteCacheHandler(ctx as never) as unknown as InnerHandler;
      this.cap = shared.cap ??= redisCap(ctx.serverDistDir);
    } else {
      // Next's own file-system cache (the build too: its prerendered pages stay where Next puts them).
      const mod = require("next/dist/server/lib/incremental-cache/file-system-cache.js") as { default: FileSystemCacheClass };
      const dir = backend === "file-system" ? fileSystemDir(ctx.serverDistDir) : ctx.serverDistDir;
      this.inner = new mod.default({ ...ctx, serverDistDir: dir });
      if (backend === "file-system" && dir) this.cap = shared.cap ??= fileSystemCap(dir, mod.default);
    }
    if (backend) shared.latest = this;
  }

  async get(key: string, ctx?: unknown): Promise<unknown> {
    const entry = (await this.inner.get(key, ctx)) as StoredEntry | null;
    if (!entry || isNotFound(entry.value)) return null;
    // Redis entries: the lifetime the page was rendered with (see the top of this file).
    if (!entry.cacheControl && entry.lifespan && entry.value?.kind === "APP_PAGE") {
      const revalidate = entry.lifespan.revalidate;
      if (typeof revalidate === "number") return { ...entry, cacheControl: { revalidate } };
    }
    return entry;
  }

  async set(key: string, data: unknown, ctx?: unknown): Promise<void> {
    if (isNotFound(data)) return;
    await this.inner.set(key, data, ctx);
    if (this.cap && isCountedEntry(key, data)) await keepWithinCap(this.cap, key, entryBytes(data));
  }

  /**
   * Whether the store holds a render of the page at `pathname` (its 404s are never held). An event's
   * re-render asks first (server/http/page-regen.ts): a page nobody has viewed is not rendered.
   */
  async holds(pathname: string): Promise<boolean> {
    const key = keptPageKey(pathname);
    if (!key) return false;
    return (await this.get(key, { kind: "APP_PAGE", isRoutePPREnabled: false, isFallback: false })) !== null;
  }

  revalidateTag(tags: string | string[], durations?: unknown): Promise<void> {
    return this.inner.revalidateTag(tags, durations);
  }

  resetRequestCache(): void {
    this.inner.resetRequestCache?.();
  }
}
