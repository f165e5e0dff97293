// NextAuth v4: how people sign in to the web UI — Google, GitHub, Twitter (OAuth 2.0) and email +
// password — and the one place that talks to NextAuth's internals.
//
// - Sessions are NextAuth JWTs (encrypted cookie) whose `sub` is the agent id. No database adapter:
//   the signIn callback creates or links the agent in our own tables (services/oauth-accounts.ts).
// - A provider is on when both of its credentials are set; its endpoints come from the configuration,
//   so tests can point them at a local OAuth server (server/config.ts).
// - GET /api/v1/auth/oauth/{provider} starts sign-in through NextAuth itself (`nextAuthSignInRedirect`):
//   state, PKCE and their cookies are NextAuth's, and its callback finishes the flow.
// - GitHub email: used only when GitHub's email list marks the primary address verified; if that list
//   cannot be read the account is treated as having no verified email. Google: the `email_verified`
//   claim. Twitter: no email at all.
import NextAuthImport, { type AuthOptions, type DefaultSession } from "next-auth";
import { getToken } from "next-auth/jwt";
import CredentialsProviderImport from "next-auth/providers/credentials";
import GitHubProviderImport, { type GithubEmail, type GithubProfile } from "next-auth/providers/github";
import GoogleProviderImport, { type GoogleProfile } from "next-auth/providers/google";
import TwitterProviderImport, { type TwitterProfile } from "next-auth/providers/twitter";
import type { Provider } from "next-auth/providers/index";
import { loginInput } from "../api/schemas/auth.ts";
import { isUuid } from "../api/schemas/common.ts";
import { config, type Config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { clientIpOf, lastForwardedHop } from "../http/client-ip.ts";
import { limitAuthAttempt } from "../rest/limiter.ts";
import { verifyCredentials } from "../services/auth.ts";
import { agentIdForProviderAccount, signInWithProvider } from "../services/oauth-accounts.ts";
import { ANONYMOUS, identityOfAgent, type Identity } from "./identity.ts";
import { providerCredentials, type OAuthProviderId } from "./oauth-providers.ts";

declare module "next-auth" {
  interface User {
    /** A login or handle the provider knows the person by: the first choice for their username. */
    usernameHint?: string | null;
  }
  interface Session {
    user: { id: string } & DefaultSession["user"];
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    /** When this session signed in (seconds): the OAuth hand-off only follows a fresh sign-in. */
    authTime?: number;
  }
}

// next-auth is CommonJS: bundlers hand over its default export, Node's ESM loader (tsx) the module.
function interopDefault<T>(value: T): T {
  return (value as { default?: T }).default ?? value;
}
const NextAuth = interopDefault(NextAuthImport);
const CredentialsProvider = interopDefault(CredentialsProviderImport);
const GitHubProvider = interopDefault(GitHubProviderImport);
const GoogleProvider = interopDefault(GoogleProviderImport);
const TwitterProvider = interopDefault(TwitterProviderImport);

export const SIGN_IN_PAGE = "/signin";
/** Where NextAuth sends the browser after an OAuth sign-in; it mints the one-time code. */
export const HAND_OFF_PATH = "/auth/complete";
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

function useSecureCookies(cfg: Config): boolean {
  return (cfg.NEXTAUTH_URL ?? "").startsWith("https://");
}

function sessionCookieName(cfg: Config): string {
  return useSecureCookies(cfg) ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** GitHub's verified primary address, or null (unknown counts as unverified). */
async function githubVerifiedPrimaryEmail(emailsUrl: string, accessToken: string): Promise<string | null> {
  try {
    const res = await fetch(emailsUrl, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/vnd.github+json", "User-Agent": "claims-service" },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return null;
    const emails = (await res.json()) as GithubEmail[];
    return (Array.isArray(emails) && emails.find((e) => e.primary && e.verified)?.email) || null;
  } catch {
    return null;
  }
}

type GithubProfileWithEmail = GithubProfile & { verified_primary_email?: string | null };

function oauthProviders(cfg: Config): Provider[] {
  const providers: Provider[] = [];
  const github = providerCredentials("github", cfg);
  if (github) {
    providers.push(
      GitHubProvider<GithubProfileWithEmail>({
        ...github,
        authorization: { url: cfg.GITHUB_AUTHORIZATION_URL, params: { scope: "read:user user:email" } },
        token: cfg.GITHUB_TOKEN_URL,
        userinfo: {
          url: cfg.GITHUB_USERINFO_URL,
          async request({ client, tokens }) {
            const profile = await client.userinfo(tokens.access_token!);
            profile.verified_primary_email = await githubVerifiedPrimaryEmail(cfg.GITHUB_EMAILS_URL, tokens.access_token!);
            return profile;
          },
        },
        // GitHub accepts PKCE (S256) on OAuth apps.
        checks: ["pkce", "state"],
        profile: (p) => ({
          id: String(p.id),
          name: p.name ?? p.login,
          email: p.verified_primary_email ?? null,
          image: p.avatar_url,
          usernameHint: p.login,
        }),
      }),
    );
  }
  const google = providerCredentials("google", cfg);
  if (google) {
    const issuer = cfg.GOOGLE_ISSUER.replace(/\/+$/, "");
    providers.push(
      GoogleProvider<GoogleProfile>({
        ...google,
        issuer,
        wellKnown: `${issuer}/.well-known/openid-configuration`,
        profile: (p) => ({
          id: p.sub,
          name: p.name ?? null,
          email: p.email_verified === true || String(p.email_verified) === "true" ? p.email : null,
          image: p.picture ?? null,
          usernameHint: p.email?.split("@")[0] ?? null,
        }),
      }),
    );
  }
  const twitter = providerCredentials("twitter", cfg);
  if (twitter) {
    providers.push(
      TwitterProvider({
        ...twitter,
        version: "2.0",
        authorization: { url: cfg.TWITTER_AUTHORIZATION_URL, params: { scope: "users.read tweet.read offline.access" } },
        token: { url: cfg.TWITTER_TOKEN_URL },
        userinfo: { url: cfg.TWITTER_USERINFO_URL, params: { "user.fields": "profile_image_url" } },
        profile: ({ data }: TwitterProfile) => ({
          id: data.id,
          name: data.name,
          email: null,
          image: data.profile_image_url ?? null,
          usernameHint: data.username,
        }),
      }),
    );
  }
  return providers;
}

/** The client IP of a request that reached NextAuth or the web tRPC endpoint through Next, which puts the peer last in X-Forwarded-For. */
export function clientIpFromHeaders(headers: Record<string, unknown> | undefined, cfg: Config): string {
  const forwardedFor = headers?.["x-forwarded-for"] as string | string[] | undefined;
  return clientIpOf(forwardedFor, lastForwardedHop(forwardedFor), cfg.TRUST_PROXY);
}

const credentialsProvider = (cfg: Config) =>
  CredentialsProvider({
    id: "credentials",
    name: "Email and password",
    credentials: {
      email: { label: "Email", type: "email" },
      password: { label: "Password", type: "password" },
    },
    async authorize(credentials, req) {
      const parsed = loginInput.safeParse(credentials ?? {});
      if (!parsed.success) return null;
      // The same brute-force limit as POST /auth/login: per IP and per email.
      const attempt = await limitAuthAttempt(clientIpFromHeaders(req?.headers, cfg), parsed.data);
      if (!attempt.success) throw new Error("RateLimited");
      await dbReady();
      const agent = await verifyCredentials(parsed.data);
      return agent ? { id: agent.id } : null;
    },
  });

function logger(cfg: Config): AuthOptions["logger"] {
  return {
    error: (code, metadata) => {
      if (cfg.LOG_LEVEL !== "silent") console.error(`[auth] ${code}`, metadata);
    },
    warn: (code) => {
      if (cfg.LOG_LEVEL === "info") console.warn(`[auth] ${code}`);
    },
    debug: () => {},
  };
}

function buildAuthOptions(cfg: Config): AuthOptions {
  return {
    secret: cfg.NEXTAUTH_SECRET,
    useSecureCookies: useSecureCookies(cfg),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: SIGN_IN_PAGE, error: SIGN_IN_PAGE },
    providers: [...oauthProviders(cfg), credentialsProvider(cfg)],
    logger: logger(cfg),
    callbacks: {
      // Create or link the agent before NextAuth issues a session; refusing returns to the sign-in page.
      async signIn({ user, account }) {
        if (account?.type !== "oauth") return true;
        await dbReady();
        const outcome = await signInWithProvider({
          provider: account.provider as OAuthProviderId,
          providerAccountId: account.providerAccountId,
          verifiedEmail: user.email ?? null,
          name: user.name ?? null,
          image: user.image ?? null,
          usernameHints: [user.usernameHint, user.name, user.email?.split("@")[0]],
          scope: account.scope ?? null,
        });
        if (outcome.kind === "email-needs-password-sign-in") return `${SIGN_IN_PAGE}?error=OAuthAccountNotLinked`;
        return true;
      },
      // Only at sign-in (`account` set): the session token becomes {sub: agent id, authTime}.
      async jwt({ token, user, account }) {
        if (!account) return token;
        const agentId =
          account.type === "credentials" ? user.id : await agentIdForProviderAccount(account.provider, account.providerAccountId);
        if (!agentId) throw new Error("Signed-in account has no agent");
        return { sub: agentId, authTime: Math.floor(Date.now() / 1000) };
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub! } };
      },
    },
  };
}

let cachedOptions: AuthOptions | undefined;

/** NextAuth's options for this process (read from the configuration on first use, never at import). */
export function getAuthOptions(): AuthOptions {
  return (cachedOptions ??= buildAuthOptions(config()));
}

// ---- Calling NextAuth from the server ----

interface NextAuthCall {
  method: "GET" | "POST";
  /** e.g. ["csrf"], ["signin", "github"] */
  route: string[];
  body?: Record<string, string>;
  cookies?: Record<string, string>;
}

interface NextAuthReply {
  status: number;
  location: string | null;
  body: unknown;
  setCookies: string[];
}

/** Runs NextAuth's own request handler (its Pages-API form) on an in-memory request and response. */
async function callNextAuth(call: NextAuthCall): Promise<NextAuthReply> {
  const reply: NextAuthReply = { status: 200, location: null, body: undefined, setCookies: [] };
  const headers = new Map<string, unknown>();
  const req = {
    method: call.method,
    query: { nextauth: call.route },
    body: call.body ?? {},
    cookies: call.cookies ?? {},
    headers: {},
  };
  const res = {
    status(code: number) {
      reply.status = code;
      return res;
    },
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), value);
      return res;
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    end: () => {},
    json: (body: unknown) => void (reply.body = body),
    send: (body: unknown) => void (reply.body = body),
  };
  // @ts-expect-error: NextAuth's Pages-API handler only uses the members provided above.
  await NextAuth(req, res, getAuthOptions());
  const cookies = headers.get("set-cookie");
  reply.setCookies = cookies === undefined ? [] : ([] as string[]).concat(cookies as string | string[]);
  reply.location = (headers.get("location") as string | undefined) ?? null;
  return reply;
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
  const csrf = await callNextAuth({ method: "GET", route: ["csrf"] });
  const csrfToken = (csrf.body as { csrfToken?: string } | undefined)?.csrfToken;
  const csrfCookie = csrf.setCookies.map(cookiePair).find(([name]) => name.endsWith("next-auth.csrf-token"));
  if (!csrfToken || !csrfCookie) throw new Error("NextAuth returned no CSRF token");

  const signIn = await callNextAuth({
    method: "POST",
    route: ["signin", provider],
    body: { csrfToken, callbackUrl },
    cookies: { [csrfCookie[0]]: csrfCookie[1] },
  });
  if (!signIn.location) throw new Error(`NextAuth did not redirect (status ${signIn.status})`);
  // The browser needs state, PKCE verifier and callback URL; its own CSRF cookie is left alone.
  const setCookies = signIn.setCookies.filter((c) => !cookiePair(c)[0].endsWith("next-auth.csrf-token"));
  return { location: signIn.location, setCookies };
}

// ---- Reading the web session ----

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function cookieHeader(headers: HeaderBag): string {
  const value = headers instanceof Headers ? headers.get("cookie") : headers.cookie ?? headers.Cookie;
  return Array.isArray(value) ? value.join("; ") : (value ?? "");
}

function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      cookies[name] = part.slice(eq + 1).trim();
    }
  }
  return cookies;
}

export interface WebSession {
  agentId: string;
  /** Unix seconds of the sign-in that created the session. */
  authTime: number | null;
}

/** The NextAuth session carried by the request's cookies, or null (absent, forged, expired). */
export async function readNextAuthSession(headers: HeaderBag): Promise<WebSession | null> {
  const cfg = config();
  // Only the cookie counts: getToken would otherwise also accept the session JWT as a Bearer header.
  const token = await getToken({
    req: { cookies: parseCookies(cookieHeader(headers)), headers: {} } as never,
    secret: cfg.NEXTAUTH_SECRET,
    cookieName: sessionCookieName(cfg),
  });
  if (!token?.sub || !isUuid(token.sub)) return null;
  return { agentId: token.sub, authTime: typeof token.authTime === "number" ? token.authTime : null };
}

/** The web UI's caller: the agent of the NextAuth session, or anonymous. For the web tRPC context. */
export async function identityFromNextAuthRequest(headers: HeaderBag): Promise<Identity> {
  const session = await readNextAuthSession(headers);
  if (!session) return ANONYMOUS;
  await dbReady();
  return identityOfAgent(session.agentId);
}
