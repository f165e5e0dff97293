// The account its owner manages (docs/features/accounts.md): profile, password, reset by mail, email
// verification, sign out everywhere, export and deletion. Every change needs an access token or the
// web session (scope `account`): an API key can do none of it, nor read the export.
import { z } from "zod";
import * as accounts from "../../services/accounts.ts";
import { deleteAccount } from "../../services/account-deletion.ts";
import { exportAccount } from "../../services/account-export.ts";
import {
  accountExportInput,
  accountExportSchema,
  changePasswordInput,
  deleteAccountInput,
  emailVerifyConfirmInput,
  passwordResetConfirmInput,
  passwordResetInput,
  signOutEverywhereInput,
} from "../../contract/accounts.ts";
import { acceptedSchema } from "../../contract/webhooks.ts";
import { agentProcedure, publicProcedure, router } from "../trpc.ts";

const TAG = ["auth"];
const MAIL_NOTE =
  "Without SMTP on the server: 503 `Mail is not configured`. An address gets at most 3 mailed links an hour (reset and verification together); over that nothing is sent and the answer is still 202.";

export const accountRouter = router({
  changePassword: agentProcedure
    .meta({
      errors: ["confirmation_failed"],
      scope: "account",
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/auth/password",
        tags: TAG,
        protect: true,
        summary: "Change the password: every other login and web session, the OAuth server's sessions and earlier reset links end at once",
      },
    })
    .input(changePasswordInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const own = ctx.identity.kind === "agent" ? { familyId: ctx.identity.familyId, sessionId: ctx.identity.sessionId } : {};
      await accounts.changePassword(ctx.agent.id, input, own);
    }),

  signOutEverywhere: agentProcedure
    .meta({
      scope: "account",
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/auth/logout-everywhere",
        tags: TAG,
        protect: true,
        summary: "End every login, web session, MCP client grant and OAuth server session of the account, this one included",
        description: "`revoke_api_keys: true` revokes every API key too (default: keys keep working).",
      },
    })
    .input(signOutEverywhereInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await accounts.signOutEverywhere(ctx.agent.id, input);
    }),

  requestPasswordReset: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["mail_not_configured", "mail_not_sent"],
      successStatus: 202,
      openapi: {
        method: "POST",
        path: "/auth/password-reset",
        tags: TAG,
        protect: false,
        summary: "Mail a password-reset link (valid 1 hour, once); 202 whether or not the address is known",
        description: MAIL_NOTE,
      },
    })
    .input(passwordResetInput)
    .output(acceptedSchema)
    .mutation(async ({ input }) => {
      await accounts.requestPasswordReset(input.email);
      return { accepted: true as const };
    }),

  confirmPasswordReset: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["invalid_link"],
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/auth/password-reset/confirm",
        tags: TAG,
        protect: false,
        summary: "Set a new password with a mailed token; every credential of the account ends (logins, sessions, API keys, MCP grants)",
      },
    })
    .input(passwordResetConfirmInput)
    .output(z.void())
    .mutation(async ({ input }) => {
      await accounts.confirmPasswordReset({ token: input.token, newPassword: input.new_password });
    }),

  requestEmailVerification: agentProcedure
    .meta({
      errors: ["mail_not_configured", "mail_not_sent"],
      scope: "account",
      successStatus: 202,
      openapi: {
        method: "POST",
        path: "/auth/email/verify",
        tags: TAG,
        protect: true,
        summary: "Mail a link that verifies the account's address (valid 24 hours, once)",
        description: MAIL_NOTE,
      },
    })
    .input(z.object({}))
    .output(acceptedSchema)
    .mutation(async ({ ctx }) => {
      await accounts.requestEmailVerification(ctx.agent.id);
      return { accepted: true as const };
    }),

  confirmEmailVerification: publicProcedure
    .meta({
      attempt: "account",
      credentials: "ignored",
      errors: ["invalid_link"],
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/auth/email/verify/confirm",
        tags: TAG,
        protect: false,
        summary: "Verify the address with a mailed token",
      },
    })
    .input(emailVerifyConfirmInput)
    .output(z.void())
    .mutation(async ({ input }) => {
      await accounts.confirmEmailVerification(input.token);
    }),

  export: agentProcedure
    .meta({
      scope: "account",
      openapi: {
        method: "GET",
        path: "/auth/me/export",
        tags: TAG,
        protect: true,
        summary: "Everything the account holds, as JSON (no secrets), one page at a time",
        description:
          "Each page holds at most 1,000 rows, and ends once its rows reach 1 MB of JSON (the row that crosses it is the last; one evidence text is at most 50,000 characters). Pass `next_cursor` as `cursor` for the next page; it is null on the last.",
      },
    })
    .input(accountExportInput)
    .output(accountExportSchema)
    .query(({ ctx, input }) => exportAccount(ctx.agent.id, input)),

  delete: agentProcedure
    .meta({
      errors: ["confirmation_failed"],
      scope: "account",
      successStatus: 204,
      openapi: {
        method: "POST",
        path: "/auth/me/delete",
        tags: TAG,
        protect: true,
        summary: "Delete the account (password, or `confirm: <username>` for accounts without one)",
        description:
          "Removes the person and their votes (every gradient and reputation they moved is corrected); what they wrote stays, attributed to `deleted`.",
      },
    })
    .input(deleteAccountInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await deleteAccount(ctx.agent.id, input);
    }),
});
