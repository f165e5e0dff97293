// The authorization server for MCP clients (docs/features/mcp.md#oauth), on `oidc-provider`: it does
// the protocol work — dynamic registration of public clients, authorization code with PKCE (S256), the
// resource indicator, refresh tokens, revocation — and keeps what it issues in the database
// (mcp_oauth_artifacts) so that every instance answers for every token. The service decides who may
// consent (the web UI's consent page, signed in and not suspended) and what a token may do: it names
// the MCP endpoint as its only resource, and /mcp alone accepts it (server/auth/identity.ts).
import { createHash, createHmac, createPrivateKey } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import Provider, { errors, type Adapter, type AdapterPayload, type Configuration } from "oidc-provider";
import { Prisma } from "../db/generated/client.ts";
import { db, readSql } from "../db/client.ts";
import { config } from "../config.ts";
import { hasInvisibleCharacters, withoutInvisibleCharacters } from "../domain/display-name.ts";
import { API_KEY_SCOPES, type ApiKeyScope } from "../domain/scopes.ts";
import { isStorableText } from "../domain/text-guard.ts";
import { logError } from "../log/logger.ts";
import { processSingleton } from "../process-singleton.ts";

/** Where the provider's endpoints live; the node-level guard hands these paths to it. */
export const OAUTH_PREFIX = "/oauth";
export const OAUTH_ROUTES = {
  authorization: `${OAUTH_PREFIX}/authorize`,
  token: `${OAUTH_PREFIX}/token`,
  registration: `${OAUTH_PREFIX}/register`,
  revocation: `${OAUTH_PREFIX}/revoke`,
  jwks: `${OAUTH_PREFIX}/jwks`,
  introspection: `${OAUTH_PREFIX}/introspect`,
  userinfo: `${OAUTH_PREFIX}/userinfo`,
  end_session: `${OAUTH_PREFIX}/end-session`,
  pushed_authorization_request: `${OAUTH_PREFIX}/par`,
  code_verification: `${OAUTH_PREFIX}/device`,
  device_authorization: `${OAUTH_PREFIX}/device/auth`,
  backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
  challenge: `${OAUTH_PREFIX}/challenge`,
  credential: `${OAUTH_PREFIX}/credential`,
} as const;
/** The web UI's consent page; the provider sends the browser there with the interaction's id. */
export const CONSENT_PATH = "/consent";
/** The provider's cookie naming the interaction, set for the consent page's path. */
export const INTERACTION_COOKIE = "_interaction";
/** The resource every token is issued for, relative to the service's origin. */
export const MCP_RESOURCE_PATH = "/mcp";

const DAY = 24 * 60 * 60;
const ACCESS_TOKEN_TTL = 60 * 60;
const REFRESH_TOKEN_TTL = 30 * DAY;
const GRANT_TTL = 365 * DAY;
/**
 * A registered client nobody uses expires: 30 days after its registration or its last use (a grant, a
 * code, a token, a refresh), and never before a grant given to it ends (docs/features/mcp.md#oauth).
 */
export const CLIENT_UNUSED_TTL = 30 * DAY;

/** The largest body an OAuth request may have (a registration is well under 1 KiB; the guard reads it). */
export const OAUTH_MAX_BODY_BYTES = 16 * 1024;
/** What one registration may hold: a name a consent page can show, a few redirect URIs, all under 4 KiB stored. */
export const CLIENT_NAME_MAX_CHARS = 100;
export const REDIRECT_URIS_MAX = 10;
export const CLIENT_METADATA_MAX_BYTES = 4 * 1024;

/** The metadata documents (rewritten from /.well-known/) are the web app's routes. */
const WEB_APP_DOCUMENTS = new Set([`${OAUTH_PREFIX}/protected-resource`, `${OAUTH_PREFIX}/authorization-server`]);

/** Paths the provider answers (the protected-resource document under /oauth is the web app's). */
export function isOAuthEndpoint(path: string): boolean {
  return path.startsWith(`${OAUTH_PREFIX}/`) && !WEB_APP_DOCUMENTS.has(path);
}

// ---------------------------------------------------------------------------------------------------
// Persistence: one row per artifact, the library's payload as JSON.

type Row = { payload: AdapterPayload; consumed_at: Date | null };

/** Artifacts issued for a client: saving one is a use of the client, which keeps it (CLIENT_UNUSED_TTL). */
const ISSUED_FOR_A_CLIENT = new Set(["Grant", "AuthorizationCode", "AccessToken", "RefreshToken"]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function found(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : row.payload;
}

/**
 * Whether an artifact (`artifact`, an alias of mcp_oauth_artifacts) was made before its account's
 * cut-off, agents.sessions_valid_after (a completed password reset, "sign out everywhere", a
 * suspension), by its own time (`madeAt`, Unix seconds in its payload). Those actions delete the
 * account's rows, but the provider saves by upsert: a request that had loaded a row before writes it
 * back when it ends (the browser's session on every request; a grant and an answered consent from a
 * consent page being answered). What was made before the cut-off stays ended all the same. Whole
 * seconds, as web sessions are judged (docs/security.md#which-action-ends-which-credential).
 */
const madeBeforeCutOff = (artifact: string, madeAt: string) =>
  Prisma.raw(`EXISTS (
    SELECT 1 FROM agents cut WHERE cut.id = ${artifact}.agent_id
      AND cut.sessions_valid_after > to_timestamp((${artifact}.${madeAt})::double precision))`);

/** When each kind was made: a session's sign-in, an answered consent's sign-in (finishConsent), a grant's first save. */
const MADE_AT: Record<string, string> = {
  Session: "payload->>'loginTs'",
  Interaction: "payload->'result'->'login'->>'ts'",
  Grant: "payload->>'iat'",
};

/** What is issued under a grant (grant_id): it stands only while its grant does. */
const ISSUED_UNDER_A_GRANT = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/**
 * What a stored artifact of `kind` needs besides a live row to count, checked in its own look-up (one
 * statement): a session, an answered consent and a grant, not to predate the account's cut-off; a
 * token or code, a grant that counts — a token minted by a request in flight as its grant was deleted
 * (a refresh) is written after the deletion and would otherwise outlive it.
 */
function stillStanding(kind: string): Prisma.Sql {
  if (MADE_AT[kind]) return Prisma.sql`NOT ${madeBeforeCutOff("m", MADE_AT[kind])}`;
  if (ISSUED_UNDER_A_GRANT.has(kind)) {
    return Prisma.sql`EXISTS (
      SELECT 1 FROM mcp_oauth_artifacts g
      WHERE g.kind = 'Grant' AND g.id = m.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
        AND NOT ${madeBeforeCutOff("g", MADE_AT.Grant)})`;
  }
  return Prisma.sql`TRUE`;
}

class DbAdapter implements Adapter {
  constructor(private readonly kind: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    // Every parameter was checked on the way in (refuseUnfitParameters); this is the last word before
    // the database, which cannot store a NUL or an unpaired surrogate: a 400, never a failed INSERT.
    const unfit = !isStorableText(id) ? "id" : firstUnstorableString(payload);
    if (unfit) throw new errors.InvalidRequest(`${unfit}: must not contain control characters`);
    const now = Date.now();
    // The provider gives a client no lifetime; ours starts at its registration.
    const lifetime = this.kind === "Client" ? CLIENT_UNUSED_TTL : expiresIn;
    const expiresAt = lifetime ? new Date(now + lifetime * 1000) : null;
    // The person it speaks for: an answered consent names them in its result only.
    const person = this.kind === "Interaction" ? (payload.result as { login?: { accountId?: unknown } } | undefined)?.login?.accountId : payload.accountId;
    const accountId = typeof person === "string" && UUID.test(person) ? person : null;
    const json = JSON.stringify(payload);
    await db().$executeRaw`
      INSERT INTO mcp_oauth_artifacts (kind, id, payload, grant_id, uid, user_code, agent_id, expires_at)
      VALUES (${this.kind}, ${id}, ${json}::jsonb, ${payload.grantId ?? null}, ${payload.uid ?? null}, ${payload.userCode ?? null},
              ${accountId}::uuid, ${expiresAt})
      ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        user_code = EXCLUDED.user_code, agent_id = EXCLUDED.agent_id, expires_at = EXCLUDED.expires_at`;
    if (ISSUED_FOR_A_CLIENT.has(this.kind) && typeof payload.clientId === "string") {
      // A use of the client: it lives CLIENT_UNUSED_TTL from now, and at least as long as what was issued.
      const unusedUntil = new Date(now + CLIENT_UNUSED_TTL * 1000);
      await db().$executeRaw`
        UPDATE mcp_oauth_artifacts SET expires_at = GREATEST(expires_at, ${unusedUntil}, ${expiresAt})
        WHERE kind = 'Client' AND id = ${payload.clientId}`;
    }
    await pruneOAuthArtifactsNowAndThen(now);
  }

  private async findWhere(where: Prisma.Sql): Promise<AdapterPayload | undefined> {
    const [row] = await readSql<Row>`
      SELECT m.payload, m.consumed_at FROM mcp_oauth_artifacts m
      WHERE m.kind = ${this.kind} AND ${where} AND (m.expires_at IS NULL OR m.expires_at > now()) AND ${stillStanding(this.kind)}`;
    return found(row);
  }

  // An id the database cannot hold (a NUL, from a cookie or a header) names nothing stored.
  async find(id: string) {
    return isStorableText(id) ? this.findWhere(Prisma.sql`m.id = ${id}`) : undefined;
  }

  async findByUid(uid: string) {
    return isStorableText(uid) ? this.findWhere(Prisma.sql`m.uid = ${uid}`) : undefined;
  }

  async findByUserCode(userCode: string) {
    return isStorableText(userCode) ? this.findWhere(Prisma.sql`m.user_code = ${userCode}`) : undefined;
  }

  async consume(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await db().$executeRaw`UPDATE mcp_oauth_artifacts SET consumed_at = now() WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async destroy(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (!isStorableText(grantId)) return;
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE grant_id = ${grantId}`;
  }
}

/** How many expired artifacts one pruning deletes at most, and how often (per process) one runs. */
export const OAUTH_PRUNE_BATCH = 1000;
export const OAUTH_PRUNE_EVERY_MS = 60_000;

/**
 * Deletes up to OAUTH_PRUNE_BATCH artifacts past their expiry — clients nobody used (CLIENT_UNUSED_TTL),
 * tokens, codes, grants, interactions and sessions — which the provider no longer finds anyway (the
 * adapter reads only live rows). Clients registered before they had a lifetime (expires_at null) go
 * once CLIENT_UNUSED_TTL has passed since their registration and no live grant names them. SKIP
 * LOCKED: two instances pruning at once take different rows.
 */
export async function pruneOAuthArtifacts(now = new Date()): Promise<number> {
  const unusedSince = new Date(now.getTime() - CLIENT_UNUSED_TTL * 1000);
  return db().$executeRaw`
    DELETE FROM mcp_oauth_artifacts WHERE (kind, id) IN (
      SELECT a.kind, a.id FROM mcp_oauth_artifacts a
      WHERE a.expires_at < ${now}
         OR (a.kind = 'Client' AND a.expires_at IS NULL AND a.created_at < ${unusedSince} AND NOT EXISTS (
              SELECT 1 FROM mcp_oauth_artifacts g
              WHERE g.kind = 'Grant' AND g.payload->>'clientId' = a.id AND (g.expires_at IS NULL OR g.expires_at > ${now})))
      LIMIT ${OAUTH_PRUNE_BATCH}
      FOR UPDATE SKIP LOCKED
    )`;
}

/** When this process last pruned (ms since the epoch): the OAuth server's writes prune at most once a minute. */
export const oauthPruneClock = () => processSingleton("claims.oauthPruneClock", () => ({ lastAt: 0 }));

/**
 * Prunes if a minute has passed since this process last did: the table stays bounded by what lives,
 * without a timer or a second process, and a write pays for a pruning (one bounded DELETE) at most
 * once a minute. A failed pruning is logged; the write that triggered it stands.
 */
async function pruneOAuthArtifactsNowAndThen(now: number): Promise<void> {
  const clock = oauthPruneClock();
  if (now - clock.lastAt < OAUTH_PRUNE_EVERY_MS) return;
  clock.lastAt = now;
  await pruneOAuthArtifacts(new Date(now)).catch((err) => logError("[mcp-oauth] pruning expired artifacts failed", err));
}

/** The path of the first string in `value` the database cannot store, or null (iterative: payloads nest). */
function firstUnstorableString(value: unknown, fits: (text: string) => boolean = isStorableText): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.value === "string") {
      if (!fits(entry.value)) return entry.path || "value";
    } else if (entry.value !== null && typeof entry.value === "object") {
      for (const [key, child] of Object.entries(entry.value).reverse()) stack.push({ value: child, path: entry.path ? `${entry.path}.${key}` : key });
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Keys: derived from JWT_SECRET (required in production, generated once in development), so every
// instance signs and checks the same cookies and keys without another secret to distribute.

function derived(label: string): Buffer {
  return createHmac("sha256", config().JWT_SECRET).update(`mcp-oauth:${label}`).digest();
}

/** An Ed25519 signing key from a 32-byte seed (PKCS#8 wraps the seed after a fixed prefix). */
function signingJwk() {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), derived("signing-key")]);
  const jwk = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  const kid = createHash("sha256").update(String(jwk.x)).digest("base64url").slice(0, 16);
  return { ...jwk, kid, alg: "EdDSA", use: "sig" };
}

// ---------------------------------------------------------------------------------------------------
// The provider, one per issuer origin (the origin is the configured NEXTAUTH_URL, or the request's).

const SCOPES: readonly string[] = API_KEY_SCOPES;

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

/** Registration accepts https redirect URIs and loopback ones on any port (RFC 8252), nothing else. */
function checkRedirectUris(value: unknown): void {
  if (!Array.isArray(value)) return;
  if (value.length > REDIRECT_URIS_MAX) throw new errors.InvalidClientMetadata(`redirect_uris: at most ${REDIRECT_URIS_MAX}`);
  for (const uri of value) {
    const parsed = typeof uri === "string" ? URL.parse(uri) : null;
    if (!parsed) throw new errors.InvalidRedirectUri("redirect_uris must only contain valid uris");
    if (parsed.protocol === "https:") continue;
    if (parsed.protocol === "http:" && isLoopback(parsed.hostname)) continue;
    throw new errors.InvalidRedirectUri("redirect_uris must use https, or http on a loopback address (localhost, 127.0.0.1)");
  }
}

/**
 * The consent page and the settings list show the name a client gives itself: it is refused as a
 * display name is (docs/security.md, "Display names") when it holds invisible format or control
 * characters — a right-to-left override would show "Claims" for "smialC" — and kept short.
 */
function checkClientName(value: unknown): void {
  if (value === undefined || typeof value !== "string") return;
  if (hasInvisibleCharacters(value)) {
    throw new errors.InvalidClientMetadata("client_name: must not contain invisible format or control characters (such as right-to-left overrides)");
  }
  if ([...value].length > CLIENT_NAME_MAX_CHARS) throw new errors.InvalidClientMetadata(`client_name: at most ${CLIENT_NAME_MAX_CHARS} characters`);
}

/**
 * Metadata that would make this server fetch a URL the client names (sector_identifier_uri is fetched
 * at registration: a request into our own network), or keys and request objects a public client
 * without keys has no use for.
 */
const REFUSED_METADATA = ["sector_identifier_uri", "jwks_uri", "jwks", "request_uris"] as const;

/** The whole registration: nothing fetched on the client's word, every string printable, and small. */
function checkClientMetadata(metadata: Record<string, unknown>): void {
  for (const key of REFUSED_METADATA) {
    if (metadata[key] !== undefined) throw new errors.InvalidClientMetadata(`${key}: not supported (public clients only)`);
  }
  const unfit = firstUnstorableString(metadata, isParameterText);
  if (unfit) throw new errors.InvalidClientMetadata(`${unfit}: must not contain control characters`);
  if (Buffer.byteLength(JSON.stringify(metadata)) > CLIENT_METADATA_MAX_BYTES) {
    throw new errors.InvalidClientMetadata(`client metadata: at most ${CLIENT_METADATA_MAX_BYTES / 1024} KiB`);
  }
}

function providerConfiguration(origin: string): Configuration {
  const resource = `${origin}${MCP_RESOURCE_PATH}`;
  const keys = [derived("cookie-key").toString("base64url")];
  return {
    adapter: DbAdapter,
    clients: [],
    jwks: { keys: [signingJwk()] },
    cookies: { keys, long: { signed: true }, short: { signed: true } },
    routes: OAUTH_ROUTES,
    // read, vote, write and webhooks are the MCP resource's scopes (getResourceServerInfo). The one
    // OpenID scope is openid (the account's id as `sub`); the consent grants it when asked (finishConsent).
    scopes: ["openid"],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    // Public clients only (RFC 7591 registration by desktop and hosted MCP clients): PKCE protects the code.
    clientAuthMethods: ["none"],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    // Listed to be validated (at registration, and again whenever a stored client is loaded): the
    // provider calls the validator once per property named here, with the whole metadata.
    extraClientMetadata: {
      properties: ["redirect_uris", "client_name"],
      validator(_ctx, key, value, metadata) {
        if (key === "redirect_uris") {
          checkClientMetadata(metadata as Record<string, unknown>);
          checkRedirectUris(value);
        }
        if (key === "client_name") checkClientName(value);
      },
    },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: nothing reads or updates a registration afterwards (RFC 7592).
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets the MCP endpoint; naming any other is refused.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource is ${resource}`);
          return { scope: SCOPES.join(" "), audience: resource, accessTokenFormat: "opaque", accessTokenTTL: ACCESS_TOKEN_TTL };
        },
      },
    },
    // Public clients only, and a refresh token for each (no offline_access dance).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // Tokens live by their own expiry and their grant, not by the provider's browser session.
    expiresWithSession: async () => false,
    async findAccount(_ctx, sub) {
      if (!UUID.test(sub) || !(await mayConsent(sub))) return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL,
      Grant: GRANT_TTL,
      Interaction: 60 * 60,
      Session: 14 * 24 * 60 * 60,
      IdToken: 60 * 60,
    },
    clientBasedCORS: () => true,
    async renderError(ctx, out) {
      ctx.type = "json";
      ctx.body = { detail: out.error_description ?? out.error, ...out };
    },
  };
}

/**
 * One provider per issuer origin. In production that is one provider: the origin is always
 * NEXTAUTH_URL's, which config.ts requires there. Only a development server without it takes the
 * origin from the Host header (server/http/public-origin.ts), so the map is bounded.
 */
const MAX_PROVIDERS = 16;

interface ServingProvider {
  provider: Provider;
  serve: ReturnType<Provider["callback"]>;
}

function servingProvider(origin: string): ServingProvider {
  const providers = processSingleton("claims.oauthProviders", () => new Map<string, ServingProvider>());
  let serving = providers.get(origin);
  if (!serving) {
    if (providers.size >= MAX_PROVIDERS) providers.delete(providers.keys().next().value as string);
    const provider = new Provider(origin, providerConfiguration(origin));
    // The provider (Koa) reads the scheme and host of absolute URLs (the consent's return address) and
    // whether its cookies are Secure from X-Forwarded-Proto and X-Forwarded-Host, which
    // handleOAuthRequest sets from the public origin, whatever the client or a proxy sent. The client
    // IP is the node-level guard's decision; the provider does not use one (no device flow).
    provider.proxy = true;
    serving = { provider, serve: provider.callback() };
    providers.set(origin, serving);
  }
  return serving;
}

export function oauthProvider(origin: string): Provider {
  return servingProvider(origin).provider;
}

/** Characters no OAuth parameter carries: control characters (NUL, line breaks…), or text the database cannot store. */
function isParameterText(value: string): boolean {
  return isStorableText(value) && !/\p{Cc}/u.test(value);
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
    const answer = JSON.stringify({ error: registration ? "invalid_client_metadata" : "invalid_request", error_description: description, detail: description });
    res.writeHead(400, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(answer), "Cache-Control": "no-store" });
    res.end(answer);
    return true;
  }
  return false;
}

/** The public origin in the forwarded headers the provider trusts, whatever the client or a proxy sent. */
function withPublicOrigin(req: IncomingMessage, origin: string): IncomingMessage {
  const { protocol, host } = new URL(origin);
  req.headers["x-forwarded-proto"] = protocol.slice(0, -1);
  req.headers["x-forwarded-host"] = host;
  return req;
}

/**
 * The request as the provider reads it: its body (already read by the guard, bounded) replayed as a
 * stream, and the public origin in the forwarded headers the provider trusts (provider.proxy).
 */
function providerRequest(req: IncomingMessage, body: Buffer, origin: string): IncomingMessage {
  withPublicOrigin(req, origin);
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
 * Hands one request to the provider. The guard has checked the client IP and the rate limit and read
 * the body (at most OAUTH_MAX_BODY_BYTES); parameters with control characters are refused here.
 * Without `body` (the provider mounted on its own, as some tests do) the provider reads the body
 * itself, and the adapter's own check is what keeps a NUL from the database.
 */
export async function handleOAuthRequest(origin: string, req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<void> {
  if (refuseUnfitParameters(req, body ?? Buffer.alloc(0), res)) return;
  await servingProvider(origin).serve(body ? providerRequest(req, body, origin) : withPublicOrigin(req, origin), res);
}

/** RFC 8414 metadata: what an MCP client reads to find the endpoints. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${OAUTH_ROUTES.authorization}`,
    token_endpoint: `${origin}${OAUTH_ROUTES.token}`,
    registration_endpoint: `${origin}${OAUTH_ROUTES.registration}`,
    revocation_endpoint: `${origin}${OAUTH_ROUTES.revocation}`,
    jwks_uri: `${origin}${OAUTH_ROUTES.jwks}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    resource_indicators_supported: true,
    service_documentation: `${origin}/llms.txt`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Who may consent, and what the tokens are worth at /mcp.

const NOT_SUSPENDED = `NOT (suspended_at IS NOT NULL AND (suspended_until IS NULL OR suspended_until > now()))`;

/** An account that exists and is not suspended. */
export async function mayConsent(agentId: string): Promise<boolean> {
  const [row] = await readSql<{ ok: boolean }>(Prisma.sql`SELECT (${Prisma.raw(NOT_SUSPENDED)}) AS ok FROM agents WHERE id = ${agentId}::uuid`, { prepared: true });
  return row?.ok === true;
}

export interface McpTokenGrant {
  agentId: string;
  grantId: string;
  clientId: string;
  scopes: ApiKeyScope[];
}

/**
 * An access token the provider issued for this origin's MCP endpoint, or null: unknown, expired,
 * revoked, issued for another resource, or its grant gone (deleted, expired, or from before the
 * account's cut-off). The grant is checked in the token's own look-up (the adapter's stillStanding):
 * one statement per /mcp call, as before.
 */
export async function verifyMcpAccessToken(origin: string, token: string): Promise<McpTokenGrant | null> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
  const found = await oauthProvider(origin).AccessToken.find(token);
  if (!found || found.isExpired || !found.accountId || !found.grantId) return null;
  if (found.aud !== `${origin}${MCP_RESOURCE_PATH}`) return null;
  const scopes = String(found.scope ?? "")
    .split(" ")
    .filter((s): s is ApiKeyScope => (SCOPES as string[]).includes(s));
  return { agentId: found.accountId, grantId: found.grantId, clientId: found.clientId ?? "", scopes };
}

// ---------------------------------------------------------------------------------------------------
// Consent: the web UI's page reads the interaction and records the person's answer.

export interface ConsentRequest {
  uid: string;
  clientId: string;
  clientName: string;
  redirectUri: string;
  /** Where the browser goes with the answer: the redirect URI's host (IDN in its ASCII form), shown prominently. */
  returnHost: string;
  /** The redirect URI is on this computer (a desktop client's loopback listener). */
  returnsToLoopback: boolean;
  scopes: ApiKeyScope[];
  /** OpenID scopes asked for (openid: the account's id as `sub`), granted with the answer. */
  openIdScopes: string[];
  returnTo: string;
}

export async function consentRequest(origin: string, uid: string): Promise<ConsentRequest | null> {
  const provider = oauthProvider(origin);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const clientId = String(interaction.params.client_id ?? "");
  // A stored client that no longer passes registration's rules (registered before them) is refused.
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) return null;
  const asked = String(interaction.params.scope ?? "").split(" ");
  const scopes = API_KEY_SCOPES.filter((s) => asked.includes(s));
  const redirectUri = String(interaction.params.redirect_uri ?? "");
  const parsed = URL.parse(redirectUri);
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectUri,
    returnHost: parsed?.host ?? redirectUri,
    returnsToLoopback: parsed !== null && isLoopback(parsed.hostname),
    // A client that asks for no scope of ours asks for reading.
    scopes: scopes.length > 0 ? scopes : ["read"],
    openIdScopes: asked.filter((s) => s === "openid"),
    returnTo: interaction.returnTo,
  };
}

/** Records the answer; returns where the browser goes next (back into the provider), or null. */
export async function finishConsent(origin: string, uid: string, agentId: string, approve: boolean): Promise<string | null> {
  // The sign-in the answer carries into the OAuth server's session: now, when the person answers, not
  // when the browser comes back. An answer given before the account's cut-off and written back after
  // it (the cut-off deletes answered consents) is then found no more (stillStanding).
  const answeredAt = Math.floor(Date.now() / 1000);
  const provider = oauthProvider(origin);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const request = await consentRequest(origin, uid);
  if (!request) return null;
  if (!approve || !(await mayConsent(agentId))) {
    interaction.result = { error: "access_denied", error_description: "The person refused the request" };
  } else {
    const resource = `${origin}${MCP_RESOURCE_PATH}`;
    const grant = interaction.grantId
      ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId: agentId, clientId: request.clientId }))
      : new provider.Grant({ accountId: agentId, clientId: request.clientId });
    grant.addResourceScope(resource, request.scopes.join(" "));
    // Without it the provider finds openid still missing and asks for consent again, forever.
    if (request.openIdScopes.length > 0) grant.addOIDCScope(request.openIdScopes.join(" "));
    const grantId = await grant.save();
    interaction.result = { login: { accountId: agentId, ts: answeredAt }, consent: { grantId } };
  }
  await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
  return interaction.returnTo;
}

// ---------------------------------------------------------------------------------------------------
// Granted clients, as settings lists them.

export interface McpGrantSummary {
  grant_id: string;
  client_id: string;
  client_name: string;
  scopes: ApiKeyScope[];
  created_at: Date;
}

export async function listMcpGrants(agentId: string): Promise<McpGrantSummary[]> {
  const rows = await readSql<{ id: string; payload: AdapterPayload; created_at: Date; client: AdapterPayload | null }>(Prisma.sql`
    SELECT g.id, g.payload, g.created_at, c.payload AS client
    FROM mcp_oauth_artifacts g LEFT JOIN mcp_oauth_artifacts c ON c.kind = 'Client' AND c.id = g.payload->>'clientId'
    WHERE g.agent_id = ${agentId}::uuid AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > now()) AND NOT ${madeBeforeCutOff("g", MADE_AT.Grant)}
    ORDER BY g.created_at DESC`, { prepared: true });
  return rows.map((row) => {
    const resources = (row.payload.resources ?? {}) as Record<string, string>;
    const granted = Object.values(resources).join(" ").split(" ");
    return {
      grant_id: row.id,
      client_id: String(row.payload.clientId ?? ""),
      // A name registered before registration refused hidden characters shows without them.
      client_name: withoutInvisibleCharacters(String(row.client?.client_name ?? row.payload.clientId ?? "")),
      scopes: API_KEY_SCOPES.filter((s) => granted.includes(s)),
      created_at: new Date(row.created_at),
    };
  });
}

/** Deletes the grant and every code and token issued under it: the next /mcp call with them is 401. */
export async function revokeMcpGrant(agentId: string, grantId: string): Promise<boolean> {
  const count = await db().$executeRaw`
    DELETE FROM mcp_oauth_artifacts
    WHERE (grant_id = ${grantId} OR (kind = 'Grant' AND id = ${grantId})) AND agent_id = ${agentId}::uuid`;
  return count > 0;
}
