// Page views from a short-lived copy. Rendering a page is most of the server's CPU (a claim page
// ≈ 40–70 ms of React and Next per view), so one render is shared by all who ask for the same URL within
// PAGE_CACHE_SECONDS (docs/security.md#every-way-in's page budget is still charged for each).
//
// Who may share a render depends on whether it read its viewer (server/api/server-caller.ts marks the
// request when a page uses the session's caller):
//   - a render that did not (home, a claim, a topic, a profile, discover…: the browser fills in the
//     viewer's own fields) is served to everyone, signed in or not;
//   - a render that did is the viewer's: kept only when the viewer was anonymous, and then served only
//     to anonymous visitors.
// Whoever writes through the web UI sees their write on the next load: a web mutation sets a short-lived
// cookie (FRESH_COOKIE) under which their page views render anew; everyone else sees it within
// PAGE_CACHE_SECONDS. Concurrent misses of one URL wait for the one render in progress instead of each
// rendering it (a link shared widely arrives all at once).
//
// Only complete, plain 200 HTML documents are kept: never a response that sets a cookie (the viewer
// hint aside, server/http/viewer-hint.ts), an RSC or prefetch payload, a server action, a bot's render
// (Next streams metadata differently to bots) or a HEAD without its GET. The copy lives in this process
// (bounded by PAGE_CACHE_MAX_BYTES, least recently used out first); each instance keeps its own, which
// bounds staleness the same way.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { currentRequestContext } from "../log/request-context.ts";
import { carriesSession, isViewerHintCookie } from "./viewer-hint.ts";
import { pathOf } from "./route-label.ts";

/** Set by a web mutation (app/api/trpc): its writer's next page views render anew, never from a copy. */
export const FRESH_COOKIE = "claims-fresh";

/**
 * The cookie a successful web mutation sets. It outlives every copy rendered before the write (copies
 * are kept `ttlSeconds` from the start of their render), so no page its writer loads predates the write.
 */
export function freshCookie(ttlSeconds: number): string {
  return `${FRESH_COOKIE}=1; Path=/; Max-Age=${Math.ceil(ttlSeconds) + 1}; HttpOnly; SameSite=Lax`;
}

export interface PageCacheOptions {
  /** How long a render is served to other anonymous visitors, in ms (0: off). */
  ttlMs: number;
  /** Total bytes of HTML kept. */
  maxBytes: number;
  /**
   * After `changed(path)`, no copy of that path is taken for this long: what answers it meanwhile may
   * still be the page from before the change (a kept page's re-render in progress). 0 when unset.
   */
  settleMs?: number;
  /** Headers set on every answer from a copy (a kept page's copy says it is a kept render: HIT). */
  replayHeaders?: OutgoingHttpHeaders;
  now?: () => number;
}

interface Entry {
  /** Rendered without reading its viewer: may be served to anyone, signed in or not. */
  forEveryone: boolean;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  storedAt: number;
}

/** Headers that belong to one response, not to the page: never replayed from a copy. */
const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "set-cookie"]);

/** Request headers that make Next answer something other than the page's full HTML document. */
const NOT_A_DOCUMENT = ["rsc", "next-router-prefetch", "next-router-state-tree", "next-router-segment-prefetch", "next-action", "next-url"];

const BOT = /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|lighthouse|headless/i;

export interface ShareableRequest {
  /** The URL: one copy is kept per URL and content coding (see `codingsAccepted`). */
  key: string;
  /** The content codings this client accepts, most preferred first, "identity" last. */
  accepts: string[];
  /** The request carries a NextAuth session: it may only be served renders that did not read a viewer. */
  signedIn: boolean;
}

/** The cache key of a request that may share a render, or null when it must render itself. */
export function shareableKey(req: IncomingMessage): ShareableRequest | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  const h = req.headers;
  if (h.authorization !== undefined || h["x-api-key"] !== undefined) return null;
  if (h.cookie?.includes(`${FRESH_COOKIE}=`)) return null;
  if (NOT_A_DOCUMENT.some((name) => h[name] !== undefined)) return null;
  if (BOT.test(h["user-agent"] ?? "")) return null;
  // A program asking for JSON at a page's address gets JSON (GET /data: docs/features/open-data.md), never a shared page.
  if (/application\/json/.test(h.accept ?? "") && !/text\/html/.test(h.accept ?? "")) return null;
  const url = req.url ?? "/";
  if (url.length > 2048 || url.includes("_rsc=")) return null;
  return { key: url, accepts: codingsAccepted(h["accept-encoding"]), signedIn: carriesSession(req) };
}

/** The codings a copy can be stored in: whatever Next compressed it with, or none. */
const CODINGS = ["br", "gzip", "deflate", "identity"] as const;

/**
 * The codings an Accept-Encoding header allows (q > 0), in our order of preference, identity last
 * unless refused. A copy is served only in a coding the client accepts: it is stored under the coding
 * it was actually sent in (its Content-Encoding), never under what the request that made it asked for.
 */
export function codingsAccepted(header: string | string[] | undefined): string[] {
  const q = new Map<string, number>();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const star = q.get("*");
  return CODINGS.filter((coding) => (q.get(coding) ?? (coding === "identity" ? (star === 0 ? 0 : 1) : (star ?? 0))) > 0);
}

const storedKey = (coding: string, url: string) => `${coding} ${url}`;

/** `changed` remembers at most this many paths; older changes than `settleMs` are forgotten first. */
const MAX_CHANGES_REMEMBERED = 10_000;

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly rendering = new Map<string, Promise<void>>();
  /** Path → when it last changed (`changed`); "*" for every path. */
  private readonly changes = new Map<string, number>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly opts: PageCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Answers `req` from a fresh copy, or lets `render` answer it (keeping a copy when it may be shared).
   * A request that may not share a render goes straight to `render`.
   */
  async handle(req: IncomingMessage, res: ServerResponse, render: () => void): Promise<void> {
    const shareable = this.opts.ttlMs > 0 ? shareableKey(req) : null;
    if (shareable === null) return render();
    const { key, accepts, signedIn } = shareable;
    if (this.replay(key, accepts, signedIn, req, res)) return;
    const inProgress = this.rendering.get(key);
    if (inProgress) {
      await inProgress;
      if (this.replay(key, accepts, signedIn, req, res)) return;
      return render();
    }
    // A HEAD is answered by rendering; it has no body to keep.
    if (req.method === "HEAD") return render();
    let done!: () => void;
    this.rendering.set(key, new Promise<void>((resolve) => (done = resolve)));
    const finish = () => {
      this.rendering.delete(key);
      done();
    };
    this.record(key, signedIn, res, finish);
    try {
      render();
    } catch (err) {
      finish();
      throw err;
    }
  }

  /** Drops every copy. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /**
   * What the page at `path` shows has changed (null: every page): its copies go, and none is taken for
   * `settleMs` from now, nor from a render that started before this.
   */
  changed(path: string | null): void {
    const now = this.now();
    if (path === null) this.clear();
    else for (const coding of CODINGS) this.dropKey(storedKey(coding, path));
    this.changes.delete(path ?? "*");
    this.changes.set(path ?? "*", now);
    if (this.changes.size > MAX_CHANGES_REMEMBERED) {
      const settle = this.opts.settleMs ?? 0;
      for (const [p, at] of this.changes) if (now - at >= settle || this.changes.size > MAX_CHANGES_REMEMBERED) this.changes.delete(p);
    }
  }

  /** Whether a render that started at `startedAt` may be kept: no change it may predate. */
  private settled(url: string, startedAt: number): boolean {
    const settle = this.opts.settleMs ?? 0;
    for (const key of ["*", pathOf(url)]) {
      const at = this.changes.get(key);
      if (at !== undefined && startedAt - at < settle) return false;
    }
    return true;
  }

  private dropKey(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.drop(key, entry);
  }

  private replay(url: string, accepts: string[], signedIn: boolean, req: IncomingMessage, res: ServerResponse): boolean {
    const coding = accepts.find((c) => this.entries.has(storedKey(c, url)));
    if (coding === undefined) return false;
    const key = storedKey(coding, url);
    const entry = this.entries.get(key)!;
    if (signedIn && !entry.forEveryone) return false;
    if (this.now() - entry.storedAt >= this.opts.ttlMs) {
      this.drop(key, entry);
      return false;
    }
    // Most recently used last: the oldest use is evicted first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const [name, value] of Object.entries(entry.headers)) {
      if (value !== undefined && !res.hasHeader(name)) res.setHeader(name, value);
    }
    for (const [name, value] of Object.entries(this.opts.replayHeaders ?? {})) if (value !== undefined) res.setHeader(name, value);
    res.setHeader("Content-Length", entry.body.length);
    res.setHeader("X-Page-Cache", "hit");
    res.writeHead(entry.status);
    res.end(req.method === "HEAD" ? undefined : entry.body);
    return true;
  }

  /** Tees what `res` sends; keeps it when the render was a complete, shareable HTML document. */
  private record(key: string, signedIn: boolean, res: ServerResponse, finish: () => void): void {
    // The request's context, where the render marks that it read its viewer. Staleness counts from the
    // start of the render: what it read may be that old.
    const context = currentRequestContext();
    const startedAt = this.now();
    const chunks: Buffer[] = [];
    let size = 0;
    let headersArg: OutgoingHttpHeaders = {};
    const tooBig = () => size > this.opts.maxBytes / 4;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || tooBig()) return;
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      chunks.push(buf);
      size += buf.length;
    };
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const last = args[args.length - 1];
      if (last && typeof last === "object" && !Array.isArray(last)) headersArg = last as OutgoingHttpHeaders;
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["writeHead"];
    const write = res.write;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).apply(this, [chunk, ...rest]);
    } as ServerResponse["write"];
    const end = res.end;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      collect(args[0], args[1]);
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse["end"];
    res.setHeader("X-Page-Cache", "miss");

    res.once("finish", () => {
      const headers = { ...lowerCased(headersArg), ...res.getHeaders() };
      const contentType = String(headers["content-type"] ?? "");
      const forEveryone = context !== undefined && context.readViewer !== true;
      const shareable =
        res.statusCode === 200 &&
        !tooBig() &&
        !setsCookies(headers["set-cookie"]) &&
        contentType.startsWith("text/html") &&
        (forEveryone || !signedIn);
      // Kept under the coding it was sent in, whatever the request asked for.
      const coding = String(headers["content-encoding"] ?? "identity").trim().toLowerCase() || "identity";
      if (shareable && (CODINGS as readonly string[]).includes(coding) && this.settled(key, startedAt)) {
        this.store(storedKey(coding, key), { forEveryone, status: 200, headers: kept(headers), body: Buffer.concat(chunks, size), storedAt: startedAt });
      }
      finish();
    });
    res.once("close", finish);
  }

  private store(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    // Expired copies go first, least recently used first: memory holds what may still be served.
    for (const [oldestKey, oldest] of this.entries) {
      if (entry.storedAt - oldest.storedAt < this.opts.ttlMs) break;
      this.drop(oldestKey, oldest);
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.drop(oldestKey, oldest);
    }
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }
}

/** Whether a response sets a cookie of its own (the viewer hint, the same for any viewer's copy, aside). */
function setsCookies(value: OutgoingHttpHeaders[string]): boolean {
  if (value === undefined) return false;
  const cookies = Array.isArray(value) ? value : [String(value)];
  return cookies.some((c) => !isViewerHintCookie(c));
}

function lowerCased(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function kept(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!PER_RESPONSE.has(name) && name !== "x-page-cache") out[name] = value;
  }
  return out;
}
