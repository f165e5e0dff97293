// The /api/v1 REST adapter, one of the doors (docs/architecture.md#the-door): one module, built once per
// process, mounted both by the production HTTP server (server/main.ts, bare node:http) and by the Next
// route handler (app/api/v1, `next dev`). It translates a request into (identity, procedure, input) and
// the answer back; what every way in does is the door's (server/door).
//
// Per request: who is calling → the route → the charge (a 404 or 405 still costs one) → body
// (413/415/400) → the account attempts → the tRPC procedure through trpc-to-openapi → the door's answer:
// trpc-to-openapi's own error body is replaced by the contract's, and the headers are the door's.
import { appRouter } from "../api/root.ts";
import type { Context } from "../api/trpc.ts";
import { ANONYMOUS, identityFromAuthorization, type Identity } from "../auth/identity.ts";
import { config } from "../config.ts";
import { clientIpOf } from "../http/client-ip.ts";
import { ClientGoneError, MAX_BODY_BYTES, TOO_LARGE, type BoundedBody } from "../http/body-limit.ts";
import { dbReady } from "../db/client.ts";
import {
  API_HEADERS,
  bodyTooLarge,
  errorAnswer,
  errorBodyFromShape,
  failureBody,
  INTERNAL,
  invalidField,
  METHOD_NOT_ALLOWED,
  NOT_FOUND,
  NOT_JSON,
  PREFLIGHT_HEADERS,
  rateLimitHeaders,
  type Answer,
  type ErrorBody,
} from "../door/answers.ts";
import { chargeAttempts, chargeCalls, peekBudget, type Caller } from "../door/budgets.ts";
import { ignoresCredentials, refusal, type Call } from "../door/calls.ts";
import type { RateLimitResult } from "../ratelimit/index.ts";
import { openApiCaller, type ProcedureCaller } from "./openapi-call.ts";
import { openApiDocument } from "./openapi.ts";
import { platformStatsBody } from "./stats-bytes.ts";
import { buildRouteTable, type RestRoute } from "./routes.ts";
import { registerRestRouteMatcher } from "../http/route-label.ts";
import { logError } from "../log/logger.ts";
import { liveness, readiness } from "./health.ts";
import { chooseCoding, COMPRESS_MIN_BYTES, encode, varyOnEncoding } from "../http/compression.ts";
import { processSingleton } from "../process-singleton.ts";

export const API_PREFIX = "/api/v1";
const STATS_PATH = "/stats/platform";
export { MAX_BODY_BYTES };

export interface RestRequest {
  method: string;
  /** Path and query, with or without the /api/v1 prefix. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The peer address of the connection (not a header). */
  remoteAddress: string;
  /** The client IP when the node-level guard already decided it (server/http/client-ip.ts). */
  clientIp?: string;
  /** Reads the body (server/http/body-limit.ts); resolves "too-large" as soon as it exceeds MAX_BODY_BYTES. */
  readBody(): Promise<BoundedBody>;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or its encoded bytes when Content-Encoding says so. */
  body: string | Buffer | null;
  /** Set-Cookie values (only the OAuth redirect sets cookies: NextAuth's state and PKCE verifier). */
  setCookies?: string[];
}

interface Built {
  call: ProcedureCaller<Context>;
  routes: ReturnType<typeof buildRouteTable>;
}

function build(): Built {
  const call = openApiCaller<Context>(appRouter, ({ error, path }) => {
    if (error.code === "INTERNAL_SERVER_ERROR") {
      logError(`[api] ${path ?? "?"} failed`, error.cause ?? error);
    }
  });
  const routes = buildRouteTable(appRouter, [
    { method: "GET", path: "/openapi.json" },
    { method: "GET", path: "/health/live" },
    { method: "GET", path: "/health/ready" },
  ]);
  registerRestRouteMatcher((method, path) => {
    const m = routes.match(method, path);
    return "route" in m ? m.route.path : undefined;
  });
  return { call, routes };
}

function built(): Built {
  return processSingleton("claims.rest", build);
}

function header(req: RestRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The client's IP (see server/http/client-ip.ts). */
export function clientIp(req: RestRequest): string {
  return req.clientIp ?? clientIpOf(req.headers["x-forwarded-for"], req.remoteAddress, config().TRUST_PROXY);
}

function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf("?");
  let path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? "" : url.slice(q);
  if (path.startsWith(API_PREFIX)) path = path.slice(API_PREFIX.length) || "/";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return { path, search };
}

type ParsedBody = { ok: true; value: unknown } | { ok: false; response: Answer };

async function parseBody(req: RestRequest): Promise<ParsedBody> {
  let raw: Awaited<ReturnType<RestRequest["readBody"]>>;
  try {
    raw = await req.readBody();
  } catch (err) {
    // Nobody reads this answer; it is logged as the client's doing (400), not as a server failure.
    if (err instanceof ClientGoneError) return refused(invalidField("body", "the connection closed before the body arrived"));
    throw err;
  }
  if (raw === TOO_LARGE) return { ok: false, response: bodyTooLarge() };
  // An empty body is an empty object: bookmark/follow take none, and clients may send none.
  if (raw.length === 0 || raw.toString("utf8").trim() === "") return { ok: true, value: {} };
  const contentType = header(req, "content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) return refused(NOT_JSON);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString("utf8"));
  } catch {
    return refused(invalidField("body", "malformed JSON", { rule: "format", format: "json" }));
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return refused(invalidField("body", "must be a JSON object", { rule: "type" }));
  // Deep nesting overflows the stack of the recursive code downstream (JSON.stringify in tRPC's
  // node adapter): a 500. No request of this API nests more than a few levels.
  if (exceedsDepth(value, MAX_BODY_DEPTH)) return refused(invalidField("body", `nested more than ${MAX_BODY_DEPTH} levels deep`, { rule: "too_big", max: MAX_BODY_DEPTH }));
  return { ok: true, value };
}

const refused = (body: ErrorBody): ParsedBody => ({ ok: false, response: errorAnswer(body) });

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

/** A procedure's error, as trpc-to-openapi hands it over (the error formatter's shape): the door's answer to it. */
function procedureError(raw: string): Answer {
  const body = errorBodyFromShape(raw);
  if (body) return errorAnswer(body);
  logError("[api] an error without the contract's shape", raw.slice(0, 200));
  return errorAnswer(INTERNAL);
}

/** A procedure with successStatus 302 returns {location, set_cookies}: sent as a redirect, no body. */
function redirectResponse(raw: string): RestResponse {
  const { location, set_cookies } = JSON.parse(raw) as { location: string; set_cookies: string[] };
  return { status: 302, headers: { Location: location }, body: null, setCookies: set_cookies };
}

export interface RestOptions {
  /**
   * Encode large bodies here (the production server, which answers /api/v1 before Next). Off where
   * Next hosts the adapter (app/api/v1 under `next dev` / `next start`): Next compresses those answers
   * itself, and a second layer would reach clients as binary junk (docs/features/friction.md).
   */
  compress?: boolean;
}

/**
 * Every answer of the adapter: a body of COMPRESS_MIN_BYTES or more is encoded when the client accepts
 * it (server/http/compression.ts) and `compress` is on; every answer varies on Accept-Encoding.
 */
export async function handleRest(req: RestRequest, { compress = true }: RestOptions = {}): Promise<RestResponse> {
  const out = await handleRestPlain(req);
  const headers = { ...out.headers, Vary: varyOnEncoding(out.headers.Vary) };
  const coding = compress && typeof out.body === "string" ? chooseCoding(header(req, "accept-encoding")) : null;
  if (coding === null || typeof out.body !== "string" || Buffer.byteLength(out.body) < COMPRESS_MIN_BYTES) return { ...out, headers };
  const body = await encode(Buffer.from(out.body, "utf8"), coding);
  return { ...out, headers: { ...headers, "Content-Encoding": coding }, body };
}

async function handleRestPlain(req: RestRequest): Promise<RestResponse> {
  // The budget of this request once known: every answer, a failure's included, carries its headers.
  const state: { limit?: RateLimitResult } = {};
  try {
    return await handle(req, state);
  } catch (err) {
    // Outside a procedure (identity look-up, rate limiter): the door's answer, as inside one.
    const limit = state.limit ?? (await peekBudget({ identity: ANONYMOUS, ip: clientIp(req) }).catch(() => undefined));
    return errorAnswer(failureBody(err, "[api] unexpected failure"), { limit, headers: API_HEADERS });
  }
}

async function handle(req: RestRequest, state: { limit?: RateLimitResult }): Promise<RestResponse> {
  const b = built();
  const method = req.method.toUpperCase();
  const { path, search } = splitUrl(req.url);

  if (method === "OPTIONS") {
    // A preflight does no work and is not charged; it still tells the caller where its address's limit
    // stands. It carries no credentials (browsers never send them on one), so none is read: resolving
    // one (a token verified, an API key looked up and its last use written) would be uncharged work.
    const limit = await peekBudget({ identity: ANONYMOUS, ip: clientIp(req) });
    return { status: 204, headers: { ...API_HEADERS, ...PREFLIGHT_HEADERS, ...rateLimitHeaders(limit) }, body: null };
  }

  // Probes: answered before the database is waited for and never rate limited (a load balancer and
  // an orchestrator call them every few seconds from one address).
  if ((method === "GET" || method === "HEAD") && (path === "/health/live" || path === "/health/ready")) {
    const out = path === "/health/live" ? liveness() : await readiness();
    return { status: out.status, headers: { ...API_HEADERS, "Content-Type": "application/json" }, body: method === "HEAD" ? null : JSON.stringify(out.body) };
  }

  await dbReady();
  // HEAD is answered as GET without a body.
  const routeMethod = method === "HEAD" ? "GET" : method;
  const matched = b.routes.match(routeMethod, path);
  const meta = "route" in matched ? matched.route.meta : undefined;
  // The credential endpoints ignore any Authorization header: a client sending its expired access
  // token along with every call must still be able to log in or refresh.
  const identity: Identity = ignoresCredentials(meta) ? ANONYMOUS : await identityFromAuthorization(header(req, "authorization"));
  const caller: Caller = { identity, ip: clientIp(req) };
  // One unit, or what the procedure declares from the query as sent (docs/security.md#what-a-call-costs).
  const call: Call = { meta, input: Object.fromEntries(new URLSearchParams(search)) };
  const charged = await chargeCalls(caller, [call]);
  let limit = charged.limit;
  state.limit = limit;
  const finish = (res: RestResponse): RestResponse => ({
    ...res,
    headers: { ...API_HEADERS, ...res.headers, ...rateLimitHeaders(limit) },
  });
  if (charged.refused) return finish(charged.refused);

  if ("status" in matched) {
    if (matched.status === 404) return finish(errorAnswer(NOT_FOUND));
    return finish(errorAnswer(METHOD_NOT_ALLOWED, { headers: { Allow: matched.allow.join(", ") } }));
  }
  const route: RestRoute = matched.route;
  if (route.path === "/openapi.json") {
    return finish({ status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" }, body: openApiDocument() });
  }

  // The cached statistics: the kept bytes, when the caller may read them and the request has no
  // query (an input for the procedure to check); anything else goes through the procedure.
  if (route.path === STATS_PATH && routeMethod === "GET" && search === "" && refusal(identity, route.meta, "query") === null) {
    const stats = await platformStatsBody();
    if (stats !== undefined) return finish({ status: 200, headers: { "Content-Type": "application/json" }, body: method === "HEAD" ? null : stats });
  }

  let body: unknown = undefined;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    const parsed = await parseBody(req);
    if (!parsed.ok) return finish(parsed.response);
    body = parsed.value;
    const attempts = await chargeAttempts(caller, [call], limit);
    limit = attempts.limit;
    state.limit = limit;
    if (attempts.refused) return finish(attempts.refused);
  }

  const ctx: Context = { identity, ip: caller.ip, http: { ifModifiedSince: header(req, "if-modified-since") } };
  const out = await b.call(routeMethod, path + search, body, ctx);
  if (out.status >= 400) return finish(procedureError(out.body));
  if (ctx.http?.lastModified) {
    const lastModified = { "Last-Modified": ctx.http.lastModified };
    if (ctx.http.notModified) return finish({ status: 304, headers: lastModified, body: null });
    return finish({ status: route.successStatus, headers: { "Content-Type": "application/json", ...lastModified }, body: method === "HEAD" ? null : out.body });
  }
  if (route.successStatus === 204) return finish({ status: 204, headers: {}, body: null });
  if (route.successStatus === 302) return finish(redirectResponse(out.body));
  if (ctx.http?.plainText !== undefined) {
    return finish({ status: route.successStatus, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: method === "HEAD" ? null : ctx.http.plainText });
  }
  return finish({ status: route.successStatus, headers: { "Content-Type": "application/json" }, body: method === "HEAD" ? null : out.body });
}
