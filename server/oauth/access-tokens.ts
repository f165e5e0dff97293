// What an access token the authorization server issued is worth at /mcp (docs/features/mcp.md#oauth,
// "What a token is worth"): the grant it stands on and the scopes granted; server/auth/identity.ts
// accepts it there and nowhere else.
import { API_KEY_SCOPES, type ApiKeyScope } from "../domain/scopes.ts";
import { oauthProvider } from "./provider.ts";
import { MCP_RESOURCE_PATH } from "./routes.ts";

export interface McpTokenGrant {
  agentId: string;
  grantId: string;
  clientId: string;
  scopes: ApiKeyScope[];
}

/**
 * An access token the provider issued for `origin`'s MCP endpoint, or null: unknown, expired, revoked,
 * issued for another resource, or its grant gone (deleted, expired, or from before the account's
 * cut-off). The grant is checked in the token's own look-up (artifacts.ts, stillStanding): one
 * statement per /mcp call.
 */
export async function verifyMcpAccessToken(origin: string, token: string): Promise<McpTokenGrant | null> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
  const found = await oauthProvider().AccessToken.find(token);
  if (!found || found.isExpired || !found.accountId || !found.grantId) return null;
  if (found.aud !== `${origin}${MCP_RESOURCE_PATH}`) return null;
  const scopes = String(found.scope ?? "")
    .split(" ")
    .filter((s): s is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(s));
  return { agentId: found.accountId, grantId: found.grantId, clientId: found.clientId ?? "", scopes };
}
