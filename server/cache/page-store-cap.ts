// The size cap of the kept pages' store (docs/features/page-cache.md#the-stores-size): at most
// PAGE_STORE_MAX_MB of renders; past it the entries written longest ago go first. Next's stores keep
// whatever they are handed for as long as they may (the file system forever, Redis a week after the
// last render), and every claim and every profile — under its id and under its username — is a page
// of its own, so nothing else bounds them.
//
// A ledger records each kept page's size in the order it was written and names what must go; the
// store removes it (server/cache/page-store.ts). On the file system the ledger is in process memory
// (each instance keeps its own pages), read back from the folder when the process starts; in Redis it
// is beside the pages, shared by every instance and changed by one script at a time.
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type IORedis from "ioredis";

/** Where a kept page lives among Next's keys: the route cache (next/dist/server/lib/route-cache-key). */
const ROUTE_CACHE_PREFIX = "/route-cache/";

/** Whether a write is a kept page the cap counts: a page render (the build's own files are not). */
export function isCountedEntry(key: string, data: unknown): boolean {
  return key.startsWith(ROUTE_CACHE_PREFIX) && (data as { kind?: string } | null)?.kind === "APP_PAGE";
}

interface PageValue {
  html?: string | Buffer;
  rscData?: Buffer;
  postponed?: string;
  segmentData?: Map<string, Buffer>;
}

/** The bytes of a page render as Next holds it: its HTML, RSC payload and segments (as Next's memory cache counts). */
export function entryBytes(data: unknown): number {
  const value = data as PageValue;
  let bytes = 0;
  if (typeof value.html === "string") bytes += Buffer.byteLength(value.html);
  else if (value.html) bytes += value.html.length;
  bytes += value.rscData?.length ?? 0;
  bytes += value.postponed ? Buffer.byteLength(value.postponed) : 0;
  for (const [segment, buffer] of value.segmentData ?? []) bytes += segment.length + buffer.length;
  return Math.max(1, bytes);
}

export interface PageLedger {
  /** Records a write of `key` (`bytes` large); resolves to the keys to remove, oldest first. */
  wrote(key: string, bytes: number): Promise<string[]>;
}

/** The ledger of one process's file-system store: writes in order, with their sizes. */
export class MemoryLedger implements PageLedger {
  private readonly sizes = new Map<string, number>();
  private total = 0;

  // A plain field, not a parameter property: Next's cache handler loads this file with Node's type
  // stripping, which refuses parameter properties.
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  async wrote(key: string, bytes: number): Promise<string[]> {
    this.forget(key);
    this.sizes.set(key, bytes);
    this.total += bytes;
    return this.overflow();
  }

  /**
   * Entries found in the store when the process started, oldest first: placed before everything
   * written since (those are newer), then the overflow is named.
   */
  seeded(found: { key: string; bytes: number }[]): string[] {
    const since = [...this.sizes];
    this.sizes.clear();
    this.total = 0;
    for (const { key, bytes } of found) this.add(key, bytes);
    for (const [key] of since) this.forget(key);
    for (const [key, bytes] of since) this.add(key, bytes);
    return this.overflow();
  }

  /** What the ledger holds, in bytes. */
  get bytes(): number {
    return this.total;
  }

  private add(key: string, bytes: number): void {
    this.sizes.set(key, bytes);
    this.total += bytes;
  }

  private forget(key: string): void {
    const had = this.sizes.get(key);
    if (had === undefined) return;
    this.sizes.delete(key);
    this.total -= had;
  }

  private overflow(): string[] {
    const out: string[] = [];
    for (const [key, bytes] of this.sizes) {
      if (this.total <= this.maxBytes) break;
      this.sizes.delete(key);
      this.total -= bytes;
      out.push(key);
    }
    return out;
  }
}

/** The files Next's file-system cache writes for a page (next/dist/server/lib/incremental-cache/file-system-cache). */
const PAGE_FILES = [".html", ".rsc", ".meta"];
const SEGMENTS_DIR = ".segments";

/** Removes a kept page's files from the file-system store's folder. */
export async function removePageFiles(dir: string, key: string): Promise<void> {
  const base = path.join(dir, key);
  if (!base.startsWith(dir + path.sep)) return;
  await Promise.all([...PAGE_FILES, SEGMENTS_DIR].map((suffix) => rm(base + suffix, { recursive: true, force: true })));
}

async function treeBytes(target: string): Promise<number> {
  const info = await stat(target).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let bytes = 0;
  for (const entry of await readdir(target, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0;
  }
  return bytes;
}

/** The kept pages in the folder, oldest written first, with their sizes on disk. */
export async function pagesOnDisk(dir: string): Promise<{ key: string; bytes: number }[]> {
  const root = path.join(dir, ROUTE_CACHE_PREFIX);
  const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  const found: { key: string; bytes: number; at: number }[] = [];
  for (const name of names) {
    if (!name.endsWith(".meta") || name.includes(`${SEGMENTS_DIR}${path.sep}`)) continue;
    const base = path.join(root, name.slice(0, -".meta".length));
    const meta = await stat(`${base}.meta`).catch(() => null);
    if (!meta) continue;
    let bytes = 0;
    for (const suffix of [...PAGE_FILES, SEGMENTS_DIR]) bytes += await treeBytes(base + suffix);
    found.push({ key: `/${path.relative(dir, base).split(path.sep).join("/")}`, bytes, at: meta.mtimeMs });
  }
  return found.sort((a, b) => a.at - b.at).map(({ key, bytes }) => ({ key, bytes }));
}

/**
 * One write recorded in Redis, atomically: the key's size replaces its previous one in the total, it
 * becomes the newest, and while the total is over the cap the oldest are taken out of the ledger and
 * returned for removal. The ledger's keys live as long as the pages may (refreshed on each write).
 */
const RECORD_WRITE = `
local previous = redis.call('HGET', KEYS[2], ARGV[1])
local total = redis.call('INCRBY', KEYS[3], tonumber(ARGV[2]) - tonumber(previous or '0'))
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
local removed = {}
while total > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[1])
  if #oldest == 0 then break end
  local bytes = redis.call('HGET', KEYS[2], oldest[1])
  redis.call('HDEL', KEYS[2], oldest[1])
  total = redis.call('DECRBY', KEYS[3], tonumber(bytes or '0'))
  removed[#removed + 1] = oldest[1]
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
return removed`;

/** The ledger of a Redis store whose page keys start with `prefix`. */
export class RedisLedger implements PageLedger {
  private readonly client: () => IORedis | undefined;
  private readonly prefix: string;
  private readonly maxBytes: number;
  private readonly keepSeconds: number;

  constructor(client: () => IORedis | undefined, prefix: string, maxBytes: number, keepSeconds: number) {
    this.client = client;
    this.prefix = prefix;
    this.maxBytes = maxBytes;
    this.keepSeconds = keepSeconds;
  }

  async wrote(key: string, bytes: number): Promise<string[]> {
    const client = this.client();
    if (!client) return [];
    const keys = ["order", "bytes", "total"].map((name) => `${this.prefix}__kept_${name}__`);
    return (await client.eval(RECORD_WRITE, keys.length, ...keys, key, bytes, Date.now(), this.maxBytes, this.keepSeconds)) as string[];
  }
}
