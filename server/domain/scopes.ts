// What an API key may do (docs/api.md#api-keys). A procedure names the scope it needs; a key carries a set of
// scopes; access tokens and web sessions are unrestricted. Pure rules, checked in one middleware
// (server/api/trpc.ts) that every procedure of every entry point passes through.

/** The scopes a key can be given. */
export const API_KEY_SCOPES = ["read", "vote", "write", "webhooks"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * What a procedure may declare: one of the key scopes, or `account` — managing the account's own
 * credentials, which needs an access token or a web session (no key ever holds it, so a leaked key
 * cannot mint itself successors or revoke its owner's other keys).
 */
export type RequiredScope = ApiKeyScope | "account";

export const SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  read: "Every GET, private ones included (bookmarks, following, recommended, notifications)",
  vote: "Vote on claims and evidence, and remove those votes",
  write: "Create claims, evidence and comments; bookmarks and follows",
  webhooks: "Manage webhooks",
};

/**
 * What a scope lets a program do, as a person deciding whether to allow it reads it (the consent page
 * of an MCP client): what it can see and do in their name, not which HTTP methods it may call.
 */
export const SCOPE_IN_PLAIN_WORDS: Record<ApiKeyScope, string> = {
  read: "See everything you can see here, including what only you see: your notifications, the claims you follow or bookmarked, and your recommendations",
  vote: "Vote on claims and evidence in your name, and take those votes back",
  write: "Post claims, evidence and comments in your name; follow, unfollow and bookmark claims; mark your notifications read",
  webhooks: "Set up and remove webhooks that send news of the claims you follow to other web addresses",
};

/**
 * The scope a procedure needs: what it declares, else `read` for a query (every query is a GET) and
 * nothing a key can hold for a mutation — an undeclared write stays closed to keys until its author
 * decides which scope it belongs to.
 */
export function requiredScope(declared: RequiredScope | undefined, type: "query" | "mutation" | "subscription"): RequiredScope {
  if (declared) return declared;
  return type === "query" ? "read" : "account";
}

/** Whether a credential with these scopes (null: an access token or a session, unrestricted) may call it. */
export function scopeAllows(granted: readonly ApiKeyScope[] | null, required: RequiredScope): boolean {
  if (granted === null) return true;
  return required !== "account" && granted.includes(required);
}
