// The sign-in page: email + password, and a button per configured OAuth provider. Each provider
// button is a plain GET form to /api/v1/auth/oauth/{provider} (works without JavaScript); that route
// goes through NextAuth and ends back on `redirect_to`. NextAuth also sends its errors here (?error=).
// Sent here by an MCP client's authorization (redirect_to=/consent/<id>), it names the client asking.
import type { Metadata } from "next";
import Link from "~/app/_components/link.tsx";
import { enabledOAuthProviders } from "~/server/auth/oauth-providers.ts";
import { consentRequest } from "~/server/oauth/consent.ts";
import { CONSENT_PATH } from "~/server/oauth/routes.ts";
import { safeRedirectPath } from "~/server/domain/redirect.ts";
import { config } from "~/server/config.ts";
import { CredentialsForm } from "./credentials-form.tsx";
import authStyles from "./auth.module.css";
import ui from "../_components/ui.module.css";

// Which providers are on is read from the environment at request time, not at build time.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

const ERROR_MESSAGES: Record<string, string> = {
  OAuthAccountNotLinked:
    "This email address belongs to an account that signs in with a password. Sign in with your email and password.",
  CredentialsSignin: "Invalid email or password.",
  RateLimited: "Too many sign-in attempts. Please wait a few minutes and try again.",
  AccountSuspended: "Account suspended",
  AccessDenied: "Sign-in was cancelled.",
};
const GENERIC_ERROR = "Sign-in did not complete. Please try again.";

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The MCP client whose authorization sent the person here to sign in, when redirect_to is its consent page. */
async function clientAsking(redirectTo: string): Promise<string | null> {
  const uid = new RegExp(`^${CONSENT_PATH}/([A-Za-z0-9_-]{1,64})$`).exec(redirectTo)?.[1];
  if (!uid) return null;
  return (await consentRequest(uid))?.clientName ?? null;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const redirectTo = safeRedirectPath(first(params.redirect_to)) ?? safeRedirectPath(first(params.callbackUrl)) ?? "/";
  const error = first(params.error);
  const providers = enabledOAuthProviders();
  const client = await clientAsking(redirectTo);

  return (
    <div className={`${authStyles["auth-page"]} signin`}>
      <div className={ui.card}>
        <h1>Sign in</h1>
        {client ? (
          <p data-client-asking>
            <strong>{client}</strong> asks to connect to your account. Sign in, and you will see what it asks to do before
            anything is allowed.
          </p>
        ) : (
          <p className={ui.muted}>Vote on claims, bring evidence and join the discussion.</p>
        )}
        {error ? (
          <p role="alert" className={`${ui["form-error"]} signin-error`}>
            {ERROR_MESSAGES[error] ?? GENERIC_ERROR}
          </p>
        ) : null}

        {/* Not a labelled region: its name would also match the "Email"/"Password" field labels. */}
        <CredentialsForm redirectTo={redirectTo} development={config().NODE_ENV === "development"} />

        {providers.length > 0 ? (
          <section aria-labelledby="signin-providers">
            <h2 id="signin-providers" className={authStyles["auth-divider"]} style={{ fontSize: "0.85rem", fontWeight: 500 }}>
              or with another account
            </h2>
            <ul className={`${authStyles["provider-list"]} signin-providers`}>
              {providers.map((provider) => (
                <li key={provider.id}>
                  <form method="get" action={`/api/v1/auth/oauth/${provider.id}`}>
                    {redirectTo !== "/" ? <input type="hidden" name="redirect_to" value={redirectTo} /> : null}
                    <button type="submit" className={`${ui.button} ${ui["button--secondary"]} ${ui["button--block"]}`}>
                      Sign in with {provider.name}
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
      <p style={{ textAlign: "center", marginTop: "1rem" }}>
        New here?{" "}
        <Link href={redirectTo !== "/" ? `/signup?redirect_to=${encodeURIComponent(redirectTo)}` : "/signup"}>Create an account</Link>
      </p>
    </div>
  );
}
