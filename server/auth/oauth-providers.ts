// The OAuth providers this service knows (docs/api.md#sign-in), the names a client may use for them, and
// which ones this deployment has credentials for. No NextAuth here: the sign-in page, the REST
// route and the NextAuth options all ask this module.
import { config, type Config } from "../config.ts";
import type { PROVIDER_PARAMS } from "../contract/oauth.ts";

export const OAUTH_PROVIDER_IDS = ["github", "google", "twitter"] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

export const OAUTH_PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  github: "GitHub",
  google: "Google",
  twitter: "Twitter",
};

/** Path names accepted by GET /auth/oauth/{provider}: `x` is Twitter's new name. */
const PROVIDER_BY_PARAM: Record<(typeof PROVIDER_PARAMS)[number], OAuthProviderId> = {
  github: "github",
  google: "google",
  twitter: "twitter",
  x: "twitter",
};

export function providerFromParam(param: string): OAuthProviderId | null {
  const name = param.toLowerCase();
  return Object.hasOwn(PROVIDER_BY_PARAM, name) ? PROVIDER_BY_PARAM[name as keyof typeof PROVIDER_BY_PARAM] : null;
}

export interface ProviderCredentials {
  clientId: string;
  clientSecret: string;
}

/** The client credentials of a provider, or null when it is not configured (both values are needed). */
export function providerCredentials(id: OAuthProviderId, cfg: Config = config()): ProviderCredentials | null {
  const pairs: Record<OAuthProviderId, [string | undefined, string | undefined]> = {
    github: [cfg.GITHUB_CLIENT_ID, cfg.GITHUB_CLIENT_SECRET],
    google: [cfg.GOOGLE_CLIENT_ID, cfg.GOOGLE_CLIENT_SECRET],
    twitter: [cfg.TWITTER_CLIENT_ID, cfg.TWITTER_CLIENT_SECRET],
  };
  const [clientId, clientSecret] = pairs[id];
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/** The providers a person can sign in with on this deployment, in display order. */
export function enabledOAuthProviders(cfg: Config = config()): { id: OAuthProviderId; name: string }[] {
  return OAUTH_PROVIDER_IDS.filter((id) => providerCredentials(id, cfg)).map((id) => ({ id, name: OAUTH_PROVIDER_NAMES[id] }));
}
