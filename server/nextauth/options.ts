// NextAuth v4's options: sessions are NextAuth JWTs (encrypted cookie) whose `sub` is the agent id.
// No database adapter: the signIn callback creates or links the agent in our own tables
// (services/oauth-accounts.ts). The providers are in providers.ts.
import type { AuthOptions } from "next-auth";
import { config, type Config } from "../config.ts";
import { dbReady } from "../db/client.ts";
import { agentSuspended, applyAdminEmails } from "../services/moderation.ts";
import { agentIdForProviderAccount, signInWithProvider } from "../services/oauth-accounts.ts";
import { endWebSession, startWebSession } from "../services/web-sessions.ts";
import type { OAuthProviderId } from "../auth/oauth-providers.ts";
import { SIGN_IN_PAGE } from "../auth/pages.ts";
import { useSecureCookies } from "./cookies.ts";
import { credentialsProvider, oauthProviders } from "./providers.ts";
import { log } from "../log/logger.ts";

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

function logger(_cfg: Config): AuthOptions["logger"] {
  return {
    // NextAuth's metadata can carry tokens and provider answers: only the code and an error's message.
    error: (code, metadata) => {
      const m = metadata as { message?: unknown; error?: { message?: unknown } } | undefined;
      const detail = m instanceof Error ? m.message : (m?.error?.message ?? m?.message);
      log().error({ code, ...(typeof detail === "string" ? { detail: detail.slice(0, 300) } : {}) }, `[auth] ${code}`);
    },
    warn: (code) => log().warn({ code }, `[auth] ${code}`),
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
    // Signing out ends the session on the server too (docs/features/accounts.md).
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endWebSession(token.sid);
      },
    },
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
        if (outcome.kind === "agent" && (await agentSuspended(outcome.agentId))) return `${SIGN_IN_PAGE}?error=AccountSuspended`;
        return true;
      },
      // Only at sign-in (`account` set): the session token becomes {sub: agent id, authTime}.
      async jwt({ token, user, account }) {
        if (!account) return token;
        const agentId = account.type === "credentials" ? user.id : await agentIdForProviderAccount(account);
        if (!agentId) throw new Error("Signed-in account has no agent");
        // ADMIN_EMAILS applies (to a verified address only). A suspended agent never gets here: authorize
        // and signIn above turn it away with "Account suspended" (an error thrown here would be a 500).
        await applyAdminEmails(agentId);
        return { sub: agentId, authTime: Math.floor(Date.now() / 1000), sid: await startWebSession(agentId) };
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
