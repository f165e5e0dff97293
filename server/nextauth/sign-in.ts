// Starting an OAuth sign-in for an API client (GET /api/v1/auth/oauth/{provider}) through NextAuth
// itself: state, PKCE and their cookies are NextAuth's, and its callback finishes the flow.
import { notImplemented, notFound } from "../errors.ts";
import { withQueryParam } from "../domain/redirect.ts";
import { providerCredentials, providerFromParam, type OAuthProviderId } from "../auth/oauth-providers.ts";
import { HAND_OFF_PATH } from "../auth/pages.ts";
import { callNextAuth } from "./handler-call.ts";
import { getAuthOptions } from "./options.ts";

export interface OAuthRedirect {
  location: string;
  set_cookies: string[];
}

/**
 * The provider's authorization URL for `GET /auth/oauth/{provider}`, produced by NextAuth. After the
 * provider, NextAuth's callback signs the browser in and sends it to the hand-off, then `redirectTo`.
 * `redirectTo` must already be a same-origin path (the input schema checks it).
 */
export async function startOAuthSignIn(providerParam: string, redirectTo = "/"): Promise<OAuthRedirect> {
  const provider = providerFromParam(providerParam);
  if (!provider) throw notFound("Unknown provider");
  if (!providerCredentials(provider)) throw notImplemented(`${providerParam.toLowerCase()} sign-in is not configured`);
  const callbackUrl = withQueryParam(HAND_OFF_PATH, "redirect_to", redirectTo);
  const { location, setCookies } = await nextAuthSignInRedirect(provider, callbackUrl);
  return { location, set_cookies: setCookies };
}

function cookiePair(setCookie: string): [string, string] {
  const pair = setCookie.split(";")[0];
  const eq = pair.indexOf("=");
  return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))];
}

/**
 * What NextAuth answers to "sign in with <provider>, then go to callbackUrl": the provider's
 * authorization URL (with state, and a PKCE challenge) and the cookies that must reach the browser
 * so NextAuth's callback can check them. NextAuth's sign-in POST needs its CSRF token and cookie,
 * so the token is fetched from NextAuth first, exactly as its browser client does.
 */
export async function nextAuthSignInRedirect(
  provider: OAuthProviderId,
  callbackUrl: string,
): Promise<{ location: string; setCookies: string[] }> {
  const csrf = await callNextAuth({ method: "GET", route: ["csrf"] }, getAuthOptions());
  const csrfToken = (csrf.body as { csrfToken?: string } | undefined)?.csrfToken;
  const csrfCookie = csrf.setCookies.map(cookiePair).find(([name]) => name.endsWith("next-auth.csrf-token"));
  if (!csrfToken || !csrfCookie) throw new Error("NextAuth returned no CSRF token");

  const signIn = await callNextAuth({
    method: "POST",
    route: ["signin", provider],
    body: { csrfToken, callbackUrl },
    cookies: { [csrfCookie[0]]: csrfCookie[1] },
  }, getAuthOptions());
  if (!signIn.location) throw new Error(`NextAuth did not redirect (status ${signIn.status})`);
  // The browser needs state, PKCE verifier and callback URL; its own CSRF cookie is left alone.
  const setCookies = signIn.setCookies.filter((c) => !cookiePair(c)[0].endsWith("next-auth.csrf-token"));
  return { location: signIn.location, setCookies };
}
