// The HTTP entry of the authorization server (docs/features/mcp.md#oauth, "Guards"): the node-level
// guard (server/http/guard.ts) has checked the client IP and the rate limit and read the body; here a
// request with unfit parameters is refused before the provider sees it, and the rest is handed to the
// process's one provider, named by its issuer whatever the request's headers say.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { firstUnstorableString } from "./artifacts.ts";
import { oauthIssuer, servingProvider } from "./provider.ts";
import { isParameterText, withApplicationType } from "./registration.ts";
import { OAUTH_PREFIX, OAUTH_ROUTES } from "./routes.ts";

/** The largest body an OAuth request may have (a registration is well under 1 KiB; the guard reads it). */
export const OAUTH_MAX_BODY_BYTES = 16 * 1024;

/** The metadata documents (rewritten from /.well-known/) are the web app's routes. */
const WEB_APP_DOCUMENTS = new Set([`${OAUTH_PREFIX}/protected-resource`, `${OAUTH_PREFIX}/authorization-server`]);

/** Paths the provider answers (the protected-resource document under /oauth is the web app's). */
export function isOAuthEndpoint(path: string): boolean {
  return path.startsWith(`${OAUTH_PREFIX}/`) && !WEB_APP_DOCUMENTS.has(path);
}

/**
 * Registration answers any origin (docs/features/mcp.md#oauth, "CORS"): a browser-based client
 * registers itself before it has anything to authenticate with, and nothing here reads cookies. The
 * provider answers CORS itself on the token and revocation endpoints (any origin, as registration
 * allows any client); its registration endpoints have none, so they get it here.
 */
function isRegistration(path: string): boolean {
  return path === OAUTH_ROUTES.registration || path.startsWith(`${OAUTH_ROUTES.registration}/`);
}

/**
 * Whether this request registers a client (POST /oauth/register), as the provider's router matches it:
 * whatever the path's case, with or without one trailing slash. The guard charges it to the client IP's
 * registrations (server/door/budgets.ts chargeRegistration).
 */
export function isRegistrationPost(method: string | undefined, path: string): boolean {
  if (method !== "POST") return false;
  const folded = path.toLowerCase();
  return folded === OAUTH_ROUTES.registration || folded === `${OAUTH_ROUTES.registration}/`;
}

/** CORS of the registration endpoints, also on their refusals (a browser-based client reads the 429). */
export const REGISTRATION_CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate" };
const PREFLIGHT_ALLOWED_HEADERS = "Authorization, Content-Type, MCP-Protocol-Version";

/** A CORS preflight of a registration endpoint: 204 allowing GET (the registration read back) and POST. */
function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const asked = req.headers["access-control-request-headers"];
  res.writeHead(204, {
    ...REGISTRATION_CORS,
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": typeof asked === "string" && asked.length <= 1024 && isParameterText(asked) ? asked : PREFLIGHT_ALLOWED_HEADERS,
    "Access-Control-Max-Age": "3600",
    "Cache-Control": "no-store",
  });
  res.end();
}

/**
 * The CORS preflight of the metadata documents (app/oauth/*): a browser-based client that sends
 * MCP-Protocol-Version with its GET asks first. Any origin may read them; nothing reads cookies.
 */
export function metadataPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, OPTIONS",
      "Access-Control-Allow-Headers": PREFLIGHT_ALLOWED_HEADERS,
      "Access-Control-Max-Age": "3600",
      "Cache-Control": "no-store",
    },
  });
}

/** Every parameter of the request — the query's, and the body's (form or JSON) — as name and value. */
function* parametersOf(req: IncomingMessage, body: Buffer): Generator<[string, unknown]> {
  yield* new URL(req.url ?? "/", "http://x").searchParams;
  if (body.length === 0) return;
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") yield* new URLSearchParams(body.toString("utf8"));
  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return; // the provider answers a body it cannot parse with its own invalid_request
    }
    if (parsed !== null && typeof parsed === "object") yield* Object.entries(parsed);
  }
}

function answerJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}

/**
 * The refusal of a request whose parameters carry control characters (a NUL in a client_id, a token,
 * a registration's JSON), or null. Answered before the provider sees it, so nothing is looked up or
 * stored: 400 with the OAuth error a client expects — invalid_client_metadata for a registration,
 * invalid_request elsewhere — never a redirect (the redirect_uri itself is not trusted yet).
 */
function refuseUnfitParameters(req: IncomingMessage, body: Buffer, res: ServerResponse): boolean {
  for (const [name, value] of parametersOf(req, body)) {
    const unfit = typeof value === "string" ? (isParameterText(value) ? null : name) : firstUnstorableString(value, isParameterText);
    if (unfit === null) continue;
    const field = typeof value === "string" ? name : `${name}.${unfit}`;
    const registration = new URL(req.url ?? "/", "http://x").pathname === OAUTH_ROUTES.registration;
    const description = `${field}: must not contain control characters`;
    answerJson(res, 400, { error: registration ? "invalid_client_metadata" : "invalid_request", error_description: description, detail: description });
    return true;
  }
  return false;
}

/** The issuer in the forwarded headers the provider trusts (provider.proxy), whatever the client or a proxy sent. */
function withIssuerOrigin(req: IncomingMessage, issuer: string): IncomingMessage {
  const { protocol, host } = new URL(issuer);
  req.headers["x-forwarded-proto"] = protocol.slice(0, -1);
  req.headers["x-forwarded-host"] = host;
  return req;
}

/**
 * The request as the provider reads it: its body (already read by the guard, bounded) replayed as a
 * stream, and the issuer in the forwarded headers the provider trusts.
 */
function providerRequest(req: IncomingMessage, body: Buffer, issuer: string): IncomingMessage {
  withIssuerOrigin(req, issuer);
  const replay = Readable.from(body.length > 0 ? [body] : []);
  return Object.assign(replay, {
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    method: req.method,
    url: req.url,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    socket: req.socket,
    connection: req.socket,
    complete: true,
  }) as unknown as IncomingMessage;
}

/**
 * A registration's JSON body as the provider is to read it: a client that does not say what it is and
 * names a loopback or private-use redirect URI registers as the native app it is (registration.ts).
 */
function registrationBody(req: IncomingMessage, body: Buffer): Buffer {
  if (req.method !== "POST" || (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase() !== "application/json") return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return body; // the provider answers it with its own invalid_request
  }
  const typed = withApplicationType(parsed);
  if (typed === parsed) return body;
  const rewritten = Buffer.from(JSON.stringify(typed));
  req.headers["content-length"] = String(rewritten.length);
  return rewritten;
}

/**
 * Hands one request, which reached the service at `origin` (its public origin), to the provider. The
 * guard has checked the client IP and the rate limit and read the body (at most OAUTH_MAX_BODY_BYTES);
 * parameters with control characters are refused here. An origin that is not the issuer (only a
 * development server reached at another address than NEXTAUTH_URL or localhost can see one) is
 * answered 421, naming the issuer: one provider per process answers for one origin. Without `body`
 * (the provider mounted on its own, as some tests do) the provider reads the body itself, and the
 * adapter's own check is what keeps a NUL from the database.
 */
export async function handleOAuthRequest(
  req: IncomingMessage,
  res: ServerResponse,
  { origin, body }: { origin: string; body?: Buffer },
): Promise<void> {
  const issuer = oauthIssuer();
  if (origin !== issuer) {
    const detail = `This server's OAuth endpoints answer at ${issuer} (set NEXTAUTH_URL to the address clients use)`;
    return answerJson(res, 421, { error: "invalid_request", error_description: detail, detail });
  }
  const registration = isRegistration(new URL(req.url ?? "/", "http://x").pathname);
  if (registration) {
    if (req.method === "OPTIONS") return answerPreflight(req, res);
    for (const [name, value] of Object.entries(REGISTRATION_CORS)) res.setHeader(name, value);
  }
  if (refuseUnfitParameters(req, body ?? Buffer.alloc(0), res)) return;
  if (body && registration) body = registrationBody(req, body);
  await servingProvider().serve(body ? providerRequest(req, body, issuer) : withIssuerOrigin(req, issuer), res);
}
