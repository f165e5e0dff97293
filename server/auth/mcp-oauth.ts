// The authorization server for MCP clients (docs/features/mcp.md#oauth), on `oidc-provider`: it does
// the protocol work — dynamic registration of public clients, authorization code with PKCE (S256), the
// resource indicator, refresh tokens, revocation — and keeps what it issues in the database
// (mcp_oauth_artifacts) so that every instance answers for every token. The service decides who may
// consent (the web UI's consent page, signed in and not suspended) and what a token may do: it names
// the MCP endpoint as its only resource, and /mcp alone accepts it (server/auth/identity.ts).
import { createHash, createHmac, createPrivateKey } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, { errors, type Adapter, type AdapterPayload, type Configuration } from "oidc-provider";
import { Prisma } from "../db/generated/client.ts";
import { db, readSql } from "../db/client.ts";
import { config } from "../config.ts";
import { API_KEY_SCOPES, type ApiKeyScope } from "../domain/scopes.ts";
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

const ACCESS_TOKEN_TTL = 60 * 60;
const REFRESH_TOKEN_TTL = 30 * 24 * 60 * 60;
const GRANT_TTL = 365 * 24 * 60 * 60;

/** The metadata documents (rewritten from /.well-known/) are the web app's routes. */
const WEB_APP_DOCUMENTS = new Set([`${OAUTH_PREFIX}/protected-resource`, `${OAUTH_PREFIX}/authorization-server`]);

/** Paths the provider answers (the protected-resource document under /oauth is the web app's). */
export function isOAuthEndpoint(path: string): boolean {
  return path.startsWith(`${OAUTH_PREFIX}/`) && !WEB_APP_DOCUMENTS.has(path);
}

// ---------------------------------------------------------------------------------------------------
// Persistence: one row per artifact, the library's payload as JSON.

type Row = { payload: AdapterPayload; consumed_at: Date | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function found(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : row.payload;
}

class DbAdapter implements Adapter {
  constructor(private readonly kind: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    const accountId = typeof payload.accountId === "string" && UUID.test(payload.accountId) ? payload.accountId : null;
    const json = JSON.stringify(payload);
    await db().$executeRaw`
      INSERT INTO mcp_oauth_artifacts (kind, id, payload, grant_id, uid, user_code, agent_id, expires_at)
      VALUES (${this.kind}, ${id}, ${json}::jsonb, ${payload.grantId ?? null}, ${payload.uid ?? null}, ${payload.userCode ?? null},
              ${accountId}::uuid, ${expiresAt})
      ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
        user_code = EXCLUDED.user_code, agent_id = EXCLUDED.agent_id, expires_at = EXCLUDED.expires_at`;
  }

  private async findWhere(where: Prisma.Sql): Promise<AdapterPayload | undefined> {
    const [row] = await readSql<Row>`
      SELECT payload, consumed_at FROM mcp_oauth_artifacts
      WHERE kind = ${this.kind} AND ${where} AND (expires_at IS NULL OR expires_at > now())`;
    return found(row);
  }

  find(id: string) {
    return this.findWhere(Prisma.sql`id = ${id}`);
  }

  findByUid(uid: string) {
    return this.findWhere(Prisma.sql`uid = ${uid}`);
  }

  findByUserCode(userCode: string) {
    return this.findWhere(Prisma.sql`user_code = ${userCode}`);
  }

  async consume(id: string): Promise<void> {
    await db().$executeRaw`UPDATE mcp_oauth_artifacts SET consumed_at = now() WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async destroy(id: string): Promise<void> {
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE kind = ${this.kind} AND id = ${id}`;
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await db().$executeRaw`DELETE FROM mcp_oauth_artifacts WHERE grant_id = ${grantId}`;
  }
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
  for (const uri of value) {
    const parsed = typeof uri === "string" ? URL.parse(uri) : null;
    if (!parsed) throw new errors.InvalidRedirectUri("redirect_uris must only contain valid uris");
    if (parsed.protocol === "https:") continue;
    if (parsed.protocol === "http:" && isLoopback(parsed.hostname)) continue;
    throw new errors.InvalidRedirectUri("redirect_uris must use https, or http on a loopback address (localhost, 127.0.0.1)");
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
    // read, vote, write and webhooks are the MCP resource's scopes (getResourceServerInfo), not OpenID ones.
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
    extraClientMetadata: {
      properties: ["redirect_uris"],
      validator(_ctx, key, value) {
        if (key === "redirect_uris") checkRedirectUris(value);
      },
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
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

/** Bounded: without NEXTAUTH_URL the origin comes from the Host header. */
const MAX_PROVIDERS = 16;

export function oauthProvider(origin: string): Provider {
  const providers = processSingleton("claims.oauthProviders", () => new Map<string, Provider>());
  let provider = providers.get(origin);
  if (!provider) {
    if (providers.size >= MAX_PROVIDERS) providers.delete(providers.keys().next().value as string);
    provider = new Provider(origin, providerConfiguration(origin));
    // The node-level guard decided the client IP; the provider reads it from the request as given.
    provider.proxy = false;
    providers.set(origin, provider);
  }
  return provider;
}

/** Hands one request to the provider (the guard has checked body size, client IP and rate limit). */
export function handleOAuthRequest(origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  return oauthProvider(origin).callback()(req, res);
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
 * revoked (its grant deleted), or issued for another resource.
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
  scopes: ApiKeyScope[];
  returnTo: string;
}

export async function consentRequest(origin: string, uid: string): Promise<ConsentRequest | null> {
  const provider = oauthProvider(origin);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const clientId = String(interaction.params.client_id ?? "");
  const client = await provider.Client.find(clientId);
  if (!client) return null;
  const asked = String(interaction.params.scope ?? "").split(" ");
  const scopes = API_KEY_SCOPES.filter((s) => asked.includes(s));
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectUri: String(interaction.params.redirect_uri ?? ""),
    // A client that asks for no scope of ours asks for reading.
    scopes: scopes.length > 0 ? scopes : ["read"],
    returnTo: interaction.returnTo,
  };
}

/** Records the answer; returns where the browser goes next (back into the provider), or null. */
export async function finishConsent(origin: string, uid: string, agentId: string, approve: boolean): Promise<string | null> {
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
    const grantId = await grant.save();
    interaction.result = { login: { accountId: agentId }, consent: { grantId } };
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
    WHERE g.agent_id = ${agentId}::uuid AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > now())
    ORDER BY g.created_at DESC`, { prepared: true });
  return rows.map((row) => {
    const resources = (row.payload.resources ?? {}) as Record<string, string>;
    const granted = Object.values(resources).join(" ").split(" ");
    return {
      grant_id: row.id,
      client_id: String(row.payload.clientId ?? ""),
      client_name: String(row.client?.client_name ?? row.payload.clientId ?? ""),
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
