// The /api/v1 REST adapter: one module, built once per process, mounted both by the production HTTP
// server (server/http/main.ts, bare node:http) and by the Next route handler (app/api/v1, `next dev`).
//
// Per request: who is calling → rate limit → route (404/405) → body (413/415/400) → the tRPC
// procedure through trpc-to-openapi → the contract's body and headers. trpc-to-openapi's own error
// body ({message, code, issues}) is replaced by {"detail": ...}; rate-limit, CORS and security
// headers are attached here and nowhere else.
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { appRouter } from "../api/root.ts";
import type { Context } from "../api/trpc.ts";
import { identityFromAuthorization, type Identity } from "../auth/identity.ts";
import { config } from "../config.ts";
import { clientIpOf } from "../http/client-ip.ts";
import { dbReady } from "../db/client.ts";
import { mostRestrictive, type RateLimitResult } from "../ratelimit/index.ts";
import { limitAuthAttempt, limitCaller } from "./limiter.ts";
import { openApiDocument } from "./openapi.ts";
import { buildRouteTable, type RestRoute } from "./routes.ts";

export const API_PREFIX = "/api/v1";
export const MAX_BODY_BYTES = 256 * 1024;

export interface RestRequest {
  method: string;
  /** Path and query, with or without the /api/v1 prefix. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The peer address of the connection (not a header). */
  remoteAddress: string;
  /** Reads the body; resolves "too-large" as soon as it exceeds MAX_BODY_BYTES. */
  readBody(): Promise<Buffer | "too-large">;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
  /** Set-Cookie values (only the OAuth redirect sets cookies: NextAuth's state and PKCE verifier). */
  setCookies?: string[];
}

const AUTH_ATTEMPT_PATHS = new Set(["/auth/login", "/auth/register", "/auth/refresh"]);

const BASE_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  // Bearer tokens only, never cookies: any origin may call, no credentials are shared.
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After",
  Vary: "Authorization",
};

interface Built {
  handle: ReturnType<typeof createOpenApiNodeHttpHandler>;
  routes: ReturnType<typeof buildRouteTable>;
  contexts: WeakMap<object, Context>;
}

const globalForRest = globalThis as unknown as { __claimsRest?: Built };

function build(): Built {
  const contexts = new WeakMap<object, Context>();
  const handle = createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req }) => contexts.get(req)!,
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") {
        console.error(`[api] ${path ?? "?"} failed:`, error.cause ?? error);
      }
    },
  });
  const routes = buildRouteTable(appRouter, [{ method: "GET", path: "/openapi.json" }]);
  return { handle, routes, contexts };
}

function built(): Built {
  return (globalForRest.__claimsRest ??= build());
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): RestResponse {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

function rateLimitHeaders(r: RateLimitResult): Record<string, string> {
  const h: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(r.reset),
  };
  if (!r.success) h["Retry-After"] = String(r.retryAfter);
  return h;
}

function header(req: RestRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The client's IP (see server/http/client-ip.ts). */
export function clientIp(req: RestRequest): string {
  return clientIpOf(req.headers["x-forwarded-for"], req.remoteAddress, config().TRUST_PROXY);
}

function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf("?");
  let path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? "" : url.slice(q);
  if (path.startsWith(API_PREFIX)) path = path.slice(API_PREFIX.length) || "/";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return { path, search };
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; response: RestResponse };

async function parseBody(req: RestRequest): Promise<ParsedBody> {
  const raw = await req.readBody();
  if (raw === "too-large") {
    return { ok: false, response: json(413, { detail: `Request body too large (limit ${MAX_BODY_BYTES / 1024} KiB)` }) };
  }
  // An empty body is an empty object: bookmark/follow take none, and clients may send none.
  if (raw.length === 0 || raw.toString("utf8").trim() === "") return { ok: true, value: {} };
  const contentType = header(req, "content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
    return { ok: false, response: json(415, { detail: "Content-Type must be application/json" }) };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, response: json(400, { detail: "body: malformed JSON" }) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, response: json(400, { detail: "body: must be a JSON object" }) };
  }
  // Deep nesting overflows the stack of the recursive code downstream (JSON.stringify in tRPC's
  // node adapter): a 500. No request of this API nests more than a few levels.
  if (exceedsDepth(value, MAX_BODY_DEPTH)) {
    return { ok: false, response: json(400, { detail: `body: nested more than ${MAX_BODY_DEPTH} levels deep` }) };
  }
  return { ok: true, value };
}

const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests objects/arrays deeper than `max` (iterative: it may be very deep). */
function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The body, already parsed and checked here, is JSON as far as trpc-to-openapi is concerned. */
const JSON_HEADERS = { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : null) };

/**
 * Runs the procedure through trpc-to-openapi with a minimal request/response pair. The request's
 * prototype is the Fetch API's Request: for a node request, trpc-to-openapi builds a whole Fetch
 * Request (headers copied, an AbortController) only to read its `signal` — 10–20 % of the CPU of a
 * cheap call. Of a Request it reads `method`, `url`, `headers.get`, `body` and `signal`, given here.
 */
function runProcedure(b: Built, method: string, url: string, body: unknown, ctx: Context): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const noop = () => {};
    const req: object = Object.create(Request.prototype, {
      method: { value: method },
      url: { value: url },
      headers: { value: JSON_HEADERS },
      body: { value: body },
      signal: { value: new AbortController().signal },
    });
    const res = {
      statusCode: 200,
      setHeader: noop,
      once: noop,
      off: noop,
      on: noop,
      writableEnded: false,
      end(chunk?: string) {
        this.writableEnded = true;
        resolve({ status: this.statusCode, body: chunk ?? "" });
      },
    };
    b.contexts.set(req, ctx);
    // @ts-expect-error: the adapter only touches the members provided above.
    b.handle(req, res).catch(reject);
  });
}

function reshapeError(status: number, raw: string): RestResponse {
  let detail = "Request failed";
  let errors: unknown;
  try {
    const parsed = JSON.parse(raw) as { detail?: unknown; errors?: unknown; message?: unknown };
    if (typeof parsed.detail === "string") detail = parsed.detail;
    else if (typeof parsed.message === "string") detail = parsed.message;
    errors = parsed.errors;
  } catch {
    /* keep the generic detail */
  }
  // 501 carries a deliberate message ("github sign-in is not configured"); other 5xx never leak detail.
  if (status >= 500 && status !== 501) detail = "Internal server error";
  return json(status, errors ? { detail, errors } : { detail });
}

/** A procedure with successStatus 302 returns {location, set_cookies}: sent as a redirect, no body. */
function redirectResponse(raw: string): RestResponse {
  const { location, set_cookies } = JSON.parse(raw) as { location: string; set_cookies: string[] };
  return { status: 302, headers: { Location: location }, body: null, setCookies: set_cookies };
}

export async function handleRest(req: RestRequest): Promise<RestResponse> {
  try {
    return await handle(req);
  } catch (err) {
    console.error("[api] unexpected failure:", err);
    return json(500, { detail: "Internal server error" }, BASE_HEADERS);
  }
}

async function handle(req: RestRequest): Promise<RestResponse> {
  const b = built();
  const method = req.method.toUpperCase();
  const { path, search } = splitUrl(req.url);

  if (method === "OPTIONS") {
    return {
      status: 204,
      headers: {
        ...BASE_HEADERS,
        "Access-Control-Allow-Methods": "GET, POST, PATCH, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
        "Access-Control-Max-Age": "600",
      },
      body: null,
    };
  }

  await dbReady();
  const ip = clientIp(req);
  const identity: Identity = await identityFromAuthorization(header(req, "authorization"));
  let limit = await limitCaller(identity, ip);
  const finish = (res: RestResponse): RestResponse => ({
    ...res,
    headers: { ...BASE_HEADERS, ...res.headers, ...rateLimitHeaders(limit) },
  });
  if (!limit.success) return finish(json(429, { detail: "Rate limit exceeded" }));

  // HEAD is answered as GET without a body.
  const routeMethod = method === "HEAD" ? "GET" : method;
  const matched = b.routes.match(routeMethod, path);
  if ("status" in matched) {
    if (matched.status === 404) return finish(json(404, { detail: "Not found" }));
    return finish(json(405, { detail: "Method not allowed" }, { Allow: matched.allow.join(", ") }));
  }
  const route: RestRoute = matched.route;
  if (route.path === "/openapi.json") {
    return finish({ status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" }, body: openApiDocument() });
  }

  let body: unknown = undefined;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    const parsed = await parseBody(req);
    if (!parsed.ok) return finish(parsed.response);
    body = parsed.value;
    if (AUTH_ATTEMPT_PATHS.has(route.path)) {
      const attempt = await limitAuthAttempt(ip, body);
      limit = mostRestrictive([limit, attempt]);
      if (!attempt.success) return finish(json(429, { detail: "Rate limit exceeded" }));
    }
  }

  const ctx: Context = { identity, ip };
  const out = await runProcedure(b, routeMethod, path + search, body, ctx);
  if (out.status >= 400) return finish(reshapeError(out.status, out.body));
  if (route.successStatus === 204) return finish({ status: 204, headers: {}, body: null });
  if (route.successStatus === 302) return finish(redirectResponse(out.body));
  return finish({ status: route.successStatus, headers: { "Content-Type": "application/json" }, body: method === "HEAD" ? null : out.body });
}
