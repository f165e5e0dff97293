// Sign-in with Google, GitHub and Twitter/X for API clients, and the code-for-tokens exchange.
// The literal /auth/oauth/exchange is defined before /auth/oauth/{provider} (routes match in order).
import { startOAuthSignIn } from "../../nextauth/sign-in.ts";
import * as oauth from "../../services/oauth.ts";
import { tokenPairSchema } from "../../contract/auth.ts";
import { exchangeInput, oauthRedirectSchema, oauthStartInput } from "../../contract/oauth.ts";
import { publicProcedure, router } from "../trpc.ts";

const TAG = ["auth"];

export const oauthRouter = router({
  exchange: publicProcedure
    .meta({
      credentials: "ignored",
      errors: ["account_suspended"],
      openapi: {
        method: "POST",
        path: "/auth/oauth/exchange",
        tags: TAG,
        protect: false,
        summary: "Exchange the one-time code from an OAuth sign-in for a token pair",
        description: "The code arrives as `?code=` on `redirect_to` after an OAuth sign-in. It is valid 60 seconds and works once.",
      },
    })
    .input(exchangeInput)
    .output(tokenPairSchema)
    .mutation(({ input }) => oauth.exchangeCode(input.code)),

  start: publicProcedure
    .meta({
      errors: ["not_configured"],
      successStatus: 302,
      openapi: {
        method: "GET",
        path: "/auth/oauth/{provider}",
        tags: TAG,
        protect: false,
        summary: "Sign in with google, github or twitter (x): redirects to the provider",
        description:
          "Answers 302 to the provider's authorization page (with state and PKCE). After the provider, the browser is signed in to the web UI and lands on `redirect_to` with `?code=` for POST /auth/oauth/exchange.",
      },
    })
    .input(oauthStartInput)
    .output(oauthRedirectSchema)
    .query(({ input }) => startOAuthSignIn(input.provider, input.redirect_to)),
});
