import { z } from "zod";
import * as auth from "../../services/auth.ts";
import * as automatedAccounts from "../../services/automated-accounts.ts";
import { loginInput, refreshInput, registerInput, tokenPairSchema, updateMeInput } from "../../contract/auth.ts";
import { agentWithEmailSchema } from "../../contract/common.ts";
import { accountSchema, updateProfileInput } from "../../contract/accounts.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["auth"];

export const authRouter = router({
  register: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["email_taken", "username_taken"],
      successStatus: 201,
      openapi: { method: "POST", path: "/auth/register", tags: TAG, protect: false, summary: "Create an account" },
    })
    .input(registerInput)
    .output(agentWithEmailSchema)
    .mutation(({ input }) => auth.signUp(input)),

  login: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["invalid_credentials", "too_many_password_failures", "account_suspended"],
      openapi: { method: "POST", path: "/auth/login", tags: TAG, protect: false, summary: "Log in with email and password" },
    })
    .input(loginInput)
    .output(tokenPairSchema)
    .mutation(({ input, ctx }) => auth.login(input, ctx.ip)),

  refresh: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["account_suspended"],
      openapi: { method: "POST", path: "/auth/refresh", tags: TAG, protect: false, summary: "Rotate a refresh token into a new token pair" },
    })
    .input(refreshInput)
    .output(tokenPairSchema)
    .mutation(({ input }) => auth.refresh(input.refresh_token)),

  logout: publicProcedure
    .meta({
      credentials: "ignored",
      successStatus: 204,
      openapi: { method: "POST", path: "/auth/logout", tags: TAG, protect: false, summary: "Revoke the login the refresh token belongs to" },
    })
    .input(refreshInput)
    .output(z.void())
    .mutation(async ({ input }) => {
      await auth.logout(input.refresh_token);
    }),

  me: agentProcedure
    .meta({
      openapi: { method: "GET", path: "/auth/me", tags: TAG, protect: true, summary: "The signed-in agent" },
    })
    .input(z.object({}))
    .output(accountSchema)
    .query(({ ctx }) => auth.me(ctx.agent.id)),

  updateMe: agentProcedure
    .meta({
      // The account's own settings: an access token or a web session, never an API key or an MCP grant.
      scope: "account",
      openapi: { method: "PATCH", path: "/auth/me", tags: TAG, protect: true, summary: "Change the display name, bio (≤ 500) or the automated flag" },
    })
    .input(updateMeInput.extend(updateProfileInput.shape))
    .output(accountSchema)
    .mutation(({ ctx, input }) => automatedAccounts.updateSelf(ctx.agent.id, input)),
});
