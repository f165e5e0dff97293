// Kept pages follow what they show (docs/features/page-cache.md). When a claim's event arrives (a vote,
// evidence, a comment, an argument: the live channel, heard by every instance), its page is rendered
// anew off the request path: this process asks its own server for the page with Next's on-demand
// revalidation header (`x-prerender-revalidate`, the build's preview-mode id, as `res.revalidate`
// does), and Next renders it and replaces the kept copy while viewers keep getting the old one. Only a
// page the store holds is rendered (asked of the store first): nobody pays for pages nobody viewed.
// Never with Next's own "only if generated" header (`x-prerender-revalidate-if-generated`): Next shares
// one render of a page between such a request and a visitor's first view, and that request's render,
// which gives up without a page, left the visitor waiting and then answered a 500.
//
// A page is rendered at most once per RENDER_WINDOW_MS, by one instance: the render takes a lock (in
// Redis when the pages are kept there, SET NX; in this process otherwise, where each instance keeps its
// own pages). An instance whose event finds the lock taken checks when it was taken: after the event,
// the render in progress includes it; before, it tries again when the lock expires. So a burst of
// events makes one render now and at most one more at the end of the window.
//
// Moderation (the EVERY_PAGE event) makes every kept page stale at once: each renders anew on its next
// view, so a hidden claim leaves every page at once.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IncomingMessage } from "node:http";
import type IORedis from "ioredis";
import { config } from "../config.ts";
import { EVERY_PAGE, onAnyLiveEvent } from "../queue/live.ts";
import { dropEveryKeptPage, holdsKeptPage, keptPageRoute } from "../cache/page-store-state.ts";
import { openRedis, redisReady } from "../store/redis.ts";
import { throttledLogger } from "../store/throttled-log.ts";
import { dbSchema } from "../db/client.ts";
import { logWarn } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

/** The header Next's on-demand revalidation reads. */
export const REVALIDATE_HEADER = "x-prerender-revalidate";

/** Events of one write arrive together (a vote and its consensus change): one render for them. */
const DEBOUNCE_MS = 50;
/** At most one render of a page per this long, across instances. */
export const RENDER_WINDOW_MS = 2000;

/** Pages Next keeps between renders (app/claims/[id], app/profiles/[idOrUsername]): the guard copies them for a second at most. */
export function isKeptPage(pathname: string): boolean {
  return keptPageRoute(pathname) !== null;
}

let cachedPreviewId: string | null | undefined;

/** The build's preview-mode id (.next/prerender-manifest.json), or null (development, no build). */
export function previewModeId(): string | null {
  if (cachedPreviewId !== undefined) return cachedPreviewId;
  if (config().NODE_ENV !== "production") return (cachedPreviewId = null);
  try {
    const manifest = JSON.parse(readFileSync(path.join(process.cwd(), ".next", "prerender-manifest.json"), "utf8")) as { preview?: { previewModeId?: string } };
    cachedPreviewId = manifest.preview?.previewModeId ?? null;
  } catch {
    cachedPreviewId = null;
  }
  return cachedPreviewId;
}

/** Whether a request is one of our own re-renders (it carries the build's secret id). */
export function isOwnRerender(req: IncomingMessage): boolean {
  const id = previewModeId();
  return id !== null && req.headers[REVALIDATE_HEADER] === id;
}

// Where this process's server listens: learned from the requests it serves (PORT until the first).
interface RegenState {
  port?: number;
  started?: boolean;
  redis?: IORedis;
  /** Render locks taken in this process (pages on the file system): page → when taken. */
  localLocks: Map<string, number>;
  /** Pages with an event not yet covered by a render, and the time of the earliest such event. */
  pending: Map<string, number>;
}
const state = processSingleton("claims.pageRegen", (): RegenState => ({ localLocks: new Map(), pending: new Map() }));

export function noteServedRequest(req: IncomingMessage): void {
  const port = req.socket?.localPort;
  if (port && !state.port) state.port = port;
}

const warn = throttledLogger("page-regen", logWarn);

/** Asks this server for `pagePath` as Next's on-demand revalidation: rendered anew and kept. */
async function rerender(pagePath: string): Promise<void> {
  const id = previewModeId();
  if (!id) return;
  const port = state.port ?? config().PORT;
  try {
    const res = await fetch(`http://127.0.0.1:${port}${pagePath}`, {
      headers: { [REVALIDATE_HEADER]: id, "user-agent": "claims-page-regen" },
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
  } catch (err) {
    warn(`re-render of ${pagePath} failed`, err);
  }
}

interface Lock {
  won: boolean;
  /** When the holder took it (ms since the epoch). */
  takenAt: number;
  /** How long it is still held. */
  remainingMs: number;
}

const localLocks = state.localLocks;

function takeLocal(key: string, now: number): Lock {
  const takenAt = localLocks.get(key);
  if (takenAt !== undefined && now - takenAt < RENDER_WINDOW_MS) return { won: false, takenAt, remainingMs: RENDER_WINDOW_MS - (now - takenAt) };
  localLocks.set(key, now);
  if (localLocks.size > 10_000) for (const [k, t] of localLocks) if (now - t >= RENDER_WINDOW_MS) localLocks.delete(k);
  return { won: true, takenAt: now, remainingMs: RENDER_WINDOW_MS };
}

async function take(key: string): Promise<Lock> {
  const now = Date.now();
  const redis = state.redis;
  if (!redis) return takeLocal(key, now);
  try {
    await redisReady(redis, 1000);
    const full = `claims-page-regen:${dbSchema() ?? "public"}:${key}`;
    const ok = await redis.set(full, String(now), "PX", RENDER_WINDOW_MS, "NX");
    if (ok === "OK") return { won: true, takenAt: now, remainingMs: RENDER_WINDOW_MS };
    const [value, ttl] = await Promise.all([redis.get(full), redis.pttl(full)]);
    return { won: false, takenAt: Number(value ?? 0), remainingMs: Math.max(ttl, 0) };
  } catch (err) {
    warn("redis lock failed; rendering here", err);
    return takeLocal(key, now);
  }
}

const pending = state.pending;

function onPageChanged(pagePath: string): void {
  // A render is already due here that starts after this event: it covers it.
  if (pending.has(pagePath)) return;
  pending.set(pagePath, Date.now());
  setTimeout(() => void attempt(pagePath), DEBOUNCE_MS).unref();
}

async function attempt(pagePath: string): Promise<void> {
  const since = pending.get(pagePath);
  if (since === undefined) return;
  // A page nobody has viewed is not rendered: its first view renders it. Unknown (no store made yet in
  // this process): rendered, a render that always comes back with a page.
  if ((await holdsKeptPage(pagePath).catch(() => null)) === false) {
    pending.delete(pagePath);
    return;
  }
  const lock = await take(pagePath);
  if (lock.won) {
    pending.delete(pagePath);
    await rerender(pagePath);
    return;
  }
  // Someone else's render started after our event: it shows it.
  if (lock.takenAt >= since) {
    pending.delete(pagePath);
    return;
  }
  setTimeout(() => void attempt(pagePath), lock.remainingMs + 10).unref();
}

/** Starts following the live channel (idempotent; production only: `next dev` keeps no pages). */
export function startPageRegen(): void {
  if (state.started) return;
  state.started = true;
  const cfg = config();
  if (cfg.NODE_ENV !== "production") return;
  if (cfg.REDIS_URL) state.redis = openRedis(cfg.REDIS_URL, 1000, warn);
  onAnyLiveEvent((e) => {
    if (e.claim_id === EVERY_PAGE) {
      pending.clear();
      dropEveryKeptPage().catch((err) => warn("dropping every kept page failed", err));
      return;
    }
    onPageChanged(`/claims/${e.claim_id}`);
  });
}
