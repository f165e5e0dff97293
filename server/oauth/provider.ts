// The authorization server for MCP clients (docs/features/mcp.md#oauth), on `oidc-provider`: it does
// the protocol work — dynamic registration of public clients and Client ID Metadata Documents,
// authorization code with PKCE (S256), the resource indicator, refresh tokens, revocation — with its
// storage in the database (artifacts.ts) and its keys derived from JWT_SECRET. One provider per
// process, named by one issuer (oauthIssuer).
import { createHash, createHmac, createPrivateKey } from "node:crypto";
import Provider, { errors, type Configuration, type Grant, type KoaContextWithOIDC } from "oidc-provider";
import { config } from "../config.ts";
import { getPublic } from "../outbound/public-agent.ts";
import { processSingleton } from "../process-singleton.ts";
import { mayConsent } from "./accounts.ts";
import { DbAdapter, UUID } from "./artifacts.ts";
import { clientMetadataRules, withApplicationType } from "./registration.ts";
import { CONSENT_PATH, MCP_RESOURCE_PATH, OAUTH_ROUTES } from "./routes.ts";
import { MCP_SCOPES, mcpScopesIn, OPENID_SCOPES, scopesAskedFor, withMcpScopes } from "./scopes.ts";

const DAY = 24 * 60 * 60;
const ACCESS_TOKEN_TTL = 60 * 60;
const REFRESH_TOKEN_TTL = 30 * DAY;
const GRANT_TTL = 365 * DAY;

/**
 * The one origin the authorization server names itself and every address it hands out by:
 * NEXTAUTH_URL's, which production requires (server/config.ts), whatever Host or X-Forwarded-*
 * headers a request carries. A development server without it answers on http://localhost:<PORT>
 * (what `next dev` prints), and that is its issuer.
 */
export function oauthIssuer(): string {
  const cfg = config();
  return cfg.NEXTAUTH_URL ? new URL(cfg.NEXTAUTH_URL).origin : `http://localhost:${cfg.PORT}`;
}

/** The resource every token is issued for: the MCP endpoint at the issuer. */
export const mcpResource = () => `${oauthIssuer()}${MCP_RESOURCE_PATH}`;

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

/** The most of a Client ID Metadata Document read (the provider's own limit is 5 KiB), and how long its fetch may take. */
const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
const METADATA_DOCUMENT_TIMEOUT_MS = 2500;

/**
 * How the provider fetches a Client ID Metadata Document: through the webhooks' public-only agent
 * (server/outbound/public-agent.ts: public addresses only, checked on the connection), https only, no
 * redirects, a small body, 2.5 s. The provider caches what it fetched (30 s to a day, by the
 * document's Cache-Control) and asks again after that.
 */
async function fetchMetadataDocument(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const fetched = await getPublic(url, {
    maxBytes: METADATA_DOCUMENT_MAX_BYTES,
    timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
    allowPrivate: config().WEBHOOK_ALLOW_PRIVATE,
    headers: { accept: "application/json", "user-agent": "claims-oauth/1" },
    signal: init?.signal,
  });
  if (fetched.status !== 200) return fetched;
  // A document that does not say what the client is: a native app when its redirect URIs say so, as at
  // registration (registration.ts). Anything that is not a JSON object goes to the provider as it came.
  const text = await fetched.text();
  let typed: unknown;
  try {
    typed = withApplicationType(JSON.parse(text));
  } catch {
    typed = undefined;
  }
  const headers = new Headers(fetched.headers);
  headers.delete("content-length");
  return new Response(typed === undefined ? text : JSON.stringify(typed), { status: 200, headers });
}

/** The MCP scopes a grant gives `resource`. */
function grantedScopes(grant: Grant | undefined, resource: string) {
  return mcpScopesIn(grant?.getResourceScope(resource) ?? "");
}

/**
 * The provider's loadExistingGrant (its default, the grant of this browser's session for the client),
 * and where a request that names none of the MCP scopes gets them: a reconnect without `scope` asks
 * for what the person granted this client before; a first request, for what the client registered or
 * DEFAULT_SCOPES (scopes.ts). A request that reaches the consent page without a session gets the same
 * from consent.ts.
 */
function loadExistingGrant(resource: string) {
  return async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { client, params, result, session } = ctx.oidc;
    if (!client) return undefined;
    const grantId = (result?.consent as { grantId?: string } | undefined)?.grantId ?? session?.grantIdFor(client.clientId);
    const grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
    if (params && mcpScopesIn(params.scope).length === 0) {
      params.scope = withMcpScopes(params.scope, scopesAskedFor(params.scope, { granted: grantedScopes(grant, resource), registered: client.scope }));
    }
    return grant;
  };
}

function providerConfiguration(resource: string): Configuration {
  const keys = [derived("cookie-key").toString("base64url")];
  return {
    adapter: DbAdapter,
    clients: [],
    jwks: { keys: [signingJwk()] },
    cookies: { keys, long: { signed: true }, short: { signed: true } },
    routes: OAUTH_ROUTES,
    // read, vote, write and webhooks are the MCP resource's scopes (getResourceServerInfo); they are
    // listed here too so that a client may register with them (RFC 7591 `scope`, checked against this
    // list) and is then held to what it registered. openid gives the account's id as `sub`. The consent
    // grants each asked for both ways (consent.ts).
    scopes: [...OPENID_SCOPES, ...MCP_SCOPES],
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
    extraClientMetadata: clientMetadataRules,
    loadExistingGrant: loadExistingGrant(resource),
    fetch: fetchMetadataDocument,
    features: {
      devInteractions: { enabled: false },
      // Open registration (RFC 7591); the answer carries registration_client_uri and a registration
      // access token that reads the registration back (RFC 7592), while the client lives. Nothing
      // changes a registration afterwards (no registrationManagement).
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: true },
      // A client may instead be known by the https URL of its metadata document (the 2025-11-25
      // revision's recommended registration): fetched under the webhooks' rules (fetchMetadataDocument),
      // then held to the same registration rules (registration.ts).
      clientIdMetadataDocument: { enabled: true, ack: "draft-02", allowFetch: (_ctx, clientId) => clientId.startsWith("https://") },
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
          return { scope: MCP_SCOPES.join(" "), audience: resource, accessTokenFormat: "opaque", accessTokenTTL: ACCESS_TOKEN_TTL };
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

interface ServingProvider {
  provider: Provider;
  serve: ReturnType<Provider["callback"]>;
}

/** The process's provider and its request handler, made on first use for oauthIssuer(). */
export function servingProvider(): ServingProvider {
  return processSingleton("claims.oauthProvider", () => {
    const issuer = oauthIssuer();
    const provider = new Provider(issuer, providerConfiguration(`${issuer}${MCP_RESOURCE_PATH}`));
    // The provider (Koa) reads the scheme and host of absolute URLs (the consent's return address) and
    // whether its cookies are Secure from X-Forwarded-Proto and X-Forwarded-Host, which the endpoint
    // (endpoint.ts) sets from the issuer, whatever the client or a proxy sent. The client IP is the
    // node-level guard's decision; the provider does not use one (no device flow).
    provider.proxy = true;
    return { provider, serve: provider.callback() };
  });
}

export function oauthProvider(): Provider {
  return servingProvider().provider;
}

/** RFC 8414 metadata: what an MCP client reads to find the endpoints, named by `origin` (the issuer). */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${OAUTH_ROUTES.authorization}`,
    token_endpoint: `${origin}${OAUTH_ROUTES.token}`,
    registration_endpoint: `${origin}${OAUTH_ROUTES.registration}`,
    revocation_endpoint: `${origin}${OAUTH_ROUTES.revocation}`,
    jwks_uri: `${origin}${OAUTH_ROUTES.jwks}`,
    scopes_supported: [...MCP_SCOPES],
    client_id_metadata_document_supported: true,
    // The provider sends `iss` with every authorization response (RFC 9207).
    authorization_response_iss_parameter_supported: true,
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
