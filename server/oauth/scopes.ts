// The scopes an MCP client asks for and gets (docs/features/mcp.md#oauth, "Scopes"): the MCP
// resource's scopes are the API keys' (read, vote, write, webhooks); a client may register with any of
// them, and a request that names none of them asks for what the client is known to need, never for
// `read` alone behind the person's back.
import { API_KEY_SCOPES, type ApiKeyScope } from "../domain/scopes.ts";

/** The scopes of the MCP resource: the API keys' scopes. */
export const MCP_SCOPES: readonly ApiKeyScope[] = API_KEY_SCOPES;

/** The OpenID scopes the provider knows: openid (the account's id as `sub`) and offline_access (refresh tokens, issued anyway). */
export const OPENID_SCOPES = ["openid", "offline_access"] as const;

/**
 * What a client that registered no scope and asks for none is asking for: every scope a tool needs
 * (docs/features/mcp.md#tools). The person sees them on the consent page and may deny.
 */
export const DEFAULT_SCOPES: readonly ApiKeyScope[] = ["read", "vote", "write"];

/** The MCP scopes named in a space-separated scope string, in their canonical order. */
export function mcpScopesIn(scope: unknown): ApiKeyScope[] {
  const named = typeof scope === "string" ? scope.split(" ") : [];
  return MCP_SCOPES.filter((s) => named.includes(s));
}

/**
 * The MCP scopes a request asks for: the ones it names; when it names none (a reconnect without
 * `scope`, as ChatGPT's), those of the grant the person already gave this client, else those the
 * client registered, else DEFAULT_SCOPES.
 */
export function scopesAskedFor(asked: unknown, { granted, registered }: { granted?: readonly ApiKeyScope[]; registered?: unknown }): ApiKeyScope[] {
  const named = mcpScopesIn(asked);
  if (named.length > 0) return named;
  if (granted && granted.length > 0) return [...granted];
  const fromRegistration = mcpScopesIn(registered);
  return fromRegistration.length > 0 ? fromRegistration : [...DEFAULT_SCOPES];
}

/** `scope` with the MCP scopes replaced by `mcp` (its other values, such as openid, kept). */
export function withMcpScopes(scope: unknown, mcp: readonly ApiKeyScope[]): string {
  const others = (typeof scope === "string" ? scope.split(" ") : []).filter((s) => s && !(MCP_SCOPES as readonly string[]).includes(s));
  return [...mcp, ...others].join(" ");
}
