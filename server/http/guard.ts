// The guard every request passes through at the node:http level, before any handler reads a byte:
// `npm start` (server/main.ts) calls it for each request, and under `next start` / `next dev`
// instrumentation.ts installs it on the node http server's request event. It
//   - decides the client IP once (server/http/client-ip.ts) and records it for Next's handlers;
//   - refuses a declared body over the limit with 413 before reading any of it (a chunked body is
//     bounded by the one reader every handler uses: server/http/body-limit.ts);
//   - charges page renders (every request Next answers with a page: server/http/page-routes.ts), and
//     the route handlers outside /api that do not charge themselves, to their own per-client budget
//     (PAGE_RATE_LIMIT), answering a plain 429 page (or the JSON refusal to a client that does not read
//     HTML); the door for pages and the OAuth endpoints (docs/architecture.md#the-door): their charges
//     and every answer written here are the door's (server/door);
//   - keeps the browser's viewer hint in step with its session (server/http/viewer-hint.ts) and answers
//     page views from the page cache when it may (server/http/page-cache.ts).
// /api/v1 answers its own 413 and 429 (with the contract's X-RateLimit-* headers), so it only gets the IP.
import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "../config.ts";
import { BAD_PATH, BAD_PATH_PAGE, bodyTooLarge, errorAnswer, failureBody, writeAnswer, type Answer } from "../door/answers.ts";
import { chargeOAuth, chargePage, chargeRegistration } from "../door/budgets.ts";
import { ClientGoneError, declaresTooLarge, readNodeBody, TOO_LARGE } from "./body-limit.ts";
import { clientIpFromHeaders, stampClientIp } from "./client-ip.ts";
import { runInRequest } from "../log/request-context.ts";
import { observeRequest } from "./request-log.ts";
import { pathOf } from "./route-label.ts";
import { EVERY_PAGE, onAnyLiveEvent } from "../queue/live.ts";
import { FRESH_COOKIE, PageCache } from "./page-cache.ts";
import { isKeptPage, isOwnRerender, noteServedRequest, previewModeId, RENDER_WINDOW_MS, REVALIDATE_HEADER, startPageRegen } from "./page-regen.ts";
import { syncViewerHint } from "./viewer-hint.ts";
import { handleOAuthRequest, isOAuthEndpoint, isRegistrationPost, OAUTH_MAX_BODY_BYTES, REGISTRATION_CORS } from "../oauth/endpoint.ts";
import { publicOriginOfNode } from "./public-origin.ts";
import { isChargedHandler, isPageRender } from "./page-routes.ts";
import { serveStaticBrotli } from "./static-brotli.ts";
import { isStorableText } from "../domain/text-guard.ts";
import { processSingleton } from "../process-singleton.ts";

const GUARDED = Symbol.for("claims.guarded");

const REST_PREFIX = "/api/v1";

function isRest(path: string): boolean {
  return path === REST_PREFIX || path.startsWith(`${REST_PREFIX}/`);
}

/**
 * Whether the path decodes to text: a malformed escape ("%E0%A4%A") makes Next's routing answer 500,
 * and a NUL or an unpaired surrogate ("/profiles/%00") would reach the database as a page's or a tRPC
 * procedure's input (server/domain/text-guard.ts: the same rule for every input).
 */
function decodable(path: string): boolean {
  try {
    return isStorableText(decodeURIComponent(path));
  } catch {
    return false;
  }
}

/** A malformed address: the API's JSON refusal under /api, a page a person can read elsewhere. */
const badPath = (api: boolean): Answer => (api ? errorAnswer(BAD_PATH, { headers: { "X-Content-Type-Options": "nosniff" } }) : BAD_PATH_PAGE);

/** A browser's navigation (a form's POST, a redirect followed) reads the page; a program reads the JSON refusal. */
const acceptsHtml = (req: IncomingMessage) => (req.headers.accept ?? "").includes("text/html");

/**
 * Runs the guard on one request. Resolves true when the request may go on to its handler; false when
 * the guard has answered it. Idempotent (main.ts's server under a Next that also installed the hook).
 */
export async function guardRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const marked = req as IncomingMessage & { [GUARDED]?: boolean };
  if (marked[GUARDED]) return true;
  marked[GUARDED] = true;
  const cfg = config();
  const ip = stampClientIp(req, cfg.TRUST_PROXY);
  const path = pathOf(req.url);
  if (isRest(path)) return true;
  if (!decodable(path)) {
    writeAnswer(res, badPath(path.startsWith("/api/")));
    return false;
  }
  if (declaresTooLarge(req.headers["content-length"])) {
    writeAnswer(res, bodyTooLarge());
    return false;
  }
  // This server's own re-render of a kept page (server/http/page-regen.ts) is not a visitor's view.
  if (isOwnRerender(req) && isPageRender(req.url)) return true;
  // Only we may ask Next to render a kept page anew.
  delete req.headers[REVALIDATE_HEADER];
  // Route handlers outside /api that do not charge themselves cost a page unit too (docs/security.md).
  const handler = isChargedHandler(req.url);
  if (handler || isPageRender(req.url)) {
    const refused = await chargePage(ip, { html: !handler || acceptsHtml(req), method: req.method });
    if (refused) {
      writeAnswer(res, refused);
      return false;
    }
  }
  return true;
}

/** The process's page cache (one per process, also when Next loads this module twice), or null when off. */
export function pageCache(): PageCache | null {
  return processSingleton("claims.pageCache", () => {
    const cfg = config();
    const cache =
      cfg.PAGE_CACHE_SECONDS > 0 ? new PageCache({ ttlMs: cfg.PAGE_CACHE_SECONDS * 1000, maxBytes: cfg.PAGE_CACHE_MAX_MB * 1024 * 1024 }) : null;
    // Every page is rendered anew once moderation hid or restored something (claim and profile pages
    // are kept by Next instead: server/http/page-regen.ts).
    if (cache) onAnyLiveEvent((e) => e.claim_id === EVERY_PAGE && cache.clear());
    return cache;
  });
}

/** How long a copy of a kept page is served: one read of the store per second per hot page and instance. */
const KEPT_COPY_MS = 1000;

/**
 * Copies of kept pages (a claim, a profile) in front of Next's store, for the pages read by many at
 * once: Next serves a kept page at about the yardstick's rate, a copy at many times it. A claim's event
 * drops its copies, and none is taken until its re-render (server/http/page-regen.ts: one per
 * RENDER_WINDOW_MS, and one more at the end of it) has had time to replace the kept page; a copy lives
 * KEPT_COPY_MS, so it never holds a page past the store's own re-render by more than that.
 */
export function keptPageCopies(): PageCache | null {
  return processSingleton("claims.keptPageCopies", () => {
    const cfg = config();
    if (cfg.PAGE_CACHE_SECONDS <= 0) return null;
    const copies = new PageCache({
      ttlMs: Math.min(KEPT_COPY_MS, cfg.PAGE_CACHE_SECONDS * 1000),
      // Hot pages only, for a second: a quarter of the copies' memory.
      maxBytes: (cfg.PAGE_CACHE_MAX_MB * 1024 * 1024) / 4,
      settleMs: 2 * RENDER_WINDOW_MS,
      replayHeaders: { "x-nextjs-cache": "HIT" },
    });
    onAnyLiveEvent((e) => copies.changed(e.claim_id === EVERY_PAGE ? null : `/claims/${e.claim_id}`));
    return copies;
  });
}

/**
 * The authorization server for MCP clients (docs/features/mcp.md#oauth) is a node handler, so it is
 * served here, where `npm start`, `next start` and `next dev` all pass: after the guard's checks, each
 * request costs one unit of the client IP's API budget, as an anonymous REST call does, a registration
 * one of the IP's registrations too (server/door/budgets.ts), and its body is read here by the one
 * bounded reader (at most OAUTH_MAX_BODY_BYTES) for the provider.
 */
async function serveOAuth(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ip = clientIpFromHeaders(req.headers);
  const charged = await chargeOAuth(ip);
  if (charged.refused) return writeAnswer(res, charged.refused);
  if (isRegistrationPost(req.method, pathOf(req.url))) {
    const { refused } = await chargeRegistration(ip);
    if (refused) return writeAnswer(res, { ...refused, headers: { ...refused.headers, ...REGISTRATION_CORS, "Access-Control-Expose-Headers": "Retry-After, WWW-Authenticate" } });
  }
  const body = await readNodeBody(req, OAUTH_MAX_BODY_BYTES).catch((err: unknown) => {
    if (err instanceof ClientGoneError) return null;
    throw err;
  });
  if (body === null) return void res.destroy(); // the client went away: nobody to answer
  if (body === TOO_LARGE) return writeAnswer(res, bodyTooLarge(OAUTH_MAX_BODY_BYTES));
  await handleOAuthRequest(req, res, { origin: publicOriginOfNode(req), body });
}

/**
 * A page render may be answered from the page cache; anything else goes on to its handler. Pages Next
 * keeps itself (a claim, a profile: server/http/page-regen.ts) go straight to Next, and are rendered
 * anew for whoever wrote through the web UI a moment ago (the FRESH_COOKIE promise).
 */
function proceed(req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> | void {
  const path = pathOf(req.url);
  if (isOAuthEndpoint(path)) return serveOAuth(req, res);
  if (serveStaticBrotli(req, res)) return;
  if (!isPageRender(req.url)) return next();
  noteServedRequest(req);
  const kept = isKeptPage(path);
  if (isOwnRerender(req)) {
    if (kept) renderingAnew(req, res);
    return next();
  }
  syncViewerHint(req, res);
  if (kept) {
    const id = previewModeId();
    if (id && (req.method === "GET" || req.method === "HEAD") && req.headers.cookie?.includes(`${FRESH_COOKIE}=`)) {
      req.headers[REVALIDATE_HEADER] = id;
      renderingAnew(req, res);
      return next();
    }
    const copies = keptPageCopies();
    return copies ? copies.handle(req, res, next) : next();
  }
  const cache = pageCache();
  if (cache) return cache.handle(req, res, next);
  next();
}

/**
 * A kept page is being rendered anew (an event's re-render, or its writer's next load): its copies go
 * now, and none is taken until the new render has settled in the store.
 */
function renderingAnew(req: IncomingMessage, res: ServerResponse): void {
  const copies = keptPageCopies();
  if (!copies) return;
  const pagePath = pathOf(req.url);
  copies.changed(pagePath);
  res.once("finish", () => copies.changed(pagePath));
}

/** guardRequest, then `next` unless the guard answered; a guard failure is a plain 500, never a crash. */
export function guarded(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  startPageRegen();
  keptPageCopies(); // listening to the claims' events before the first copy is taken
  // Logged and counted once (a request guarded twice is observed once), with its id on every log line.
  if ((req as IncomingMessage & { [GUARDED]?: boolean })[GUARDED]) return next();
  const requestId = observeRequest(req, res);
  runInRequest({ requestId }, () =>
    guardRequest(req, res).then(
      (pass) => {
        if (pass) return proceed(req, res, next);
      },
      (err) => {
        const answer = errorAnswer(failureBody(err, "[guard] unexpected failure"));
        if (res.headersSent) res.end();
        else writeAnswer(res, answer);
      },
    ),
  );
}
