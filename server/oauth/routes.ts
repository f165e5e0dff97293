// Where the authorization server for MCP clients (docs/features/mcp.md#oauth) lives: the provider's
// endpoints under /oauth (served at the node level: server/http/guard.ts), the web UI's consent page,
// and the one resource its tokens are for.

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
