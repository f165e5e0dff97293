// Request and response shapes of the account endpoints people manage themselves
// (docs/features/accounts.md): profile, password, reset, verification, export, deletion.
import { z } from "zod";
import { agentWithEmailSchema, isoDate } from "./common.ts";
import { displayNameSchema, emailSchema, passwordRules } from "./auth.ts";

export const BIO_MAX = 500;

export const updateProfileInput = z.object({
  display_name: displayNameSchema.optional(),
  // An empty bio (after trimming) removes it.
  bio: z
    .string({ message: "bio: must be a string or null" })
    .trim()
    .max(BIO_MAX, { message: `bio: must be at most ${BIO_MAX} characters` })
    .nullable()
    .optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

const newPasswordSchema = passwordRules("new_password");

export const changePasswordInput = z.object({
  current_password: z
    .string({ message: "current_password: is required" })
    .max(1024, { message: "current_password: must be at most 1024 characters" }),
  new_password: newPasswordSchema,
});

export const passwordResetInput = z.object({ email: emailSchema });

const tokenSchema = z
  .string({ message: "token: is required" })
  .trim()
  .min(1, { message: "token: is required" })
  .max(200, { message: "token: is invalid or expired" });

export const passwordResetConfirmInput = z.object({ token: tokenSchema, new_password: newPasswordSchema });
export const emailVerifyConfirmInput = z.object({ token: tokenSchema });

export const deleteAccountInput = z.object({
  password: z.string({ message: "password: must be a string" }).max(1024, { message: "password: must be at most 1024 characters" }).optional(),
  confirm: z.string({ message: "confirm: must be a string" }).max(100, { message: "confirm: must be at most 100 characters" }).optional(),
});

export const accountSchema = agentWithEmailSchema
  // has_password: false for accounts that only sign in through a provider (they delete with `confirm`).
  .extend({ email_verified: z.boolean(), has_password: z.boolean() })
  .meta({ id: "Account" });
export type AccountOut = z.infer<typeof accountSchema>;

const row = z.record(z.string(), z.unknown());

export const accountExportSchema = z
  .object({
    exported_at: isoDate,
    account: accountSchema.extend({ oauth_providers: z.array(z.string()) }),
    claims: z.array(row),
    evidence: z.array(row),
    comments: z.array(row),
    votes: z.array(row),
    evidence_votes: z.array(row),
    resolved_votes: z.array(row),
    bookmarks: z.array(row),
    follows: z.array(row),
    notifications: z.array(row),
    api_keys: z.array(row),
    webhooks: z.array(row),
    reputation_history: z.array(row),
  })
  .meta({ id: "AccountExport" });
export type AccountExport = z.infer<typeof accountExportSchema>;
