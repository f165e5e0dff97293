// Who can sign in to the web UI: Google, GitHub, Twitter (OAuth 2.0) and email + password.
// - A provider is on when both of its credentials are set; its endpoints come from the configuration,
//   so tests can point them at a local OAuth server (server/config.ts).
// - GitHub email: used only when GitHub's email list marks the primary address verified; if that list
//   cannot be read the account is treated as having no verified email. Google: the `email_verified`
//   claim. Twitter: no email at all.
import type { GithubEmail, GithubProfile } from "next-auth/providers/github";
import type { GoogleProfile } from "next-auth/providers/google";
import type { TwitterProfile } from "next-auth/providers/twitter";
import type { Provider } from "next-auth/providers/index";
import { loginInput } from "../contract/auth.ts";
import type { Config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { clientIpFromHeaders } from "../http/client-ip.ts";
import { chargeSignIn } from "../door/budgets.ts";
import { verifyCredentials } from "../services/auth.ts";
import { agentSuspended } from "../services/moderation.ts";
import { AppError } from "../errors.ts";
import { providerCredentials } from "../auth/oauth-providers.ts";
import { CredentialsProvider, GitHubProvider, GoogleProvider, TwitterProvider } from "./library.ts";

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

export function oauthProviders(cfg: Config): Provider[] {
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

export const credentialsProvider = (cfg: Config) =>
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
      // The same limits as POST /auth/login: per client, and password guesses per account.
      const client = clientIpFromHeaders(req?.headers);
      if (!(await chargeSignIn(client))) throw new Error("RateLimited");
      await dbReady();
      let agent: { id: string } | null;
      try {
        agent = await verifyCredentials(parsed.data, client);
      } catch (err) {
        if (err instanceof AppError && err.code === "too_many_password_failures") throw new Error("RateLimited");
        throw err;
      }
      if (!agent) return null;
      // NextAuth turns an error thrown here into `?error=AccountSuspended` for the sign-in form.
      if (await agentSuspended(agent.id)) throw new Error("AccountSuspended");
      return { id: agent.id };
    },
  });

