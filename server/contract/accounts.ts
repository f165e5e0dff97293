// Request and response shapes of the account endpoints people manage themselves
// (docs/features/accounts.md): profile, password, reset, verification, export, deletion.
import { z } from "zod";
import { agentWithEmailSchema, isoDate, trimmedText } from "./common.ts";
import { displayNameSchema, emailSchema, passwordRules } from "./auth.ts";
import { strictBodyField } from "./claims.ts";

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

const tokenSchema = trimmedText("token: is required", {
  min: 1,
  max: 200,
  minMessage: "token: is required",
  maxMessage: "token: is invalid or expired",
});

export const passwordResetConfirmInput = z.object({ token: tokenSchema, new_password: newPasswordSchema });
export const emailVerifyConfirmInput = z.object({ token: tokenSchema });

/** "Sign out everywhere" ends logins, MCP grants and OAuth sessions; API keys only when asked. */
export const signOutEverywhereInput = z.object({
  revoke_api_keys: strictBodyField(z.boolean({ message: "revoke_api_keys: must be true or false" })).optional(),
});

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

/**
 * The export comes in pages (docs/features/accounts.md#export): each holds the sections in this order,
 * continuing where the previous page stopped, and ends after EXPORT_PAGE_ROWS rows or once its rows
 * reach EXPORT_PAGE_BYTES of JSON (the row that crosses it is the last), whichever comes first.
 */
export const EXPORT_SECTIONS = [
  "claims",
  "evidence",
  "comments",
  "arguments",
  "votes",
  "evidence_votes",
  "relevance_votes",
  "resolved_votes",
  "bookmarks",
  "follows",
  "topic_follows",
  "people_follows",
  "notifications",
  "reports",
  "api_keys",
  "webhooks",
  "reputation_history",
] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];
export const EXPORT_PAGE_ROWS = 1000;
export const EXPORT_PAGE_BYTES = 1_000_000;
export const EXPORT_CURSOR_MAX = 300;

const cursorMessage = "cursor: must be the next_cursor of a previous page";
export const accountExportInput = z.object({
  cursor: z.string({ message: cursorMessage }).max(EXPORT_CURSOR_MAX, { message: cursorMessage }).optional(),
});

export const accountExportSchema = z
  .object({
    exported_at: isoDate,
    account: accountSchema.extend({ oauth_providers: z.array(z.string()) }),
    claims: z.array(row),
    evidence: z.array(row),
    comments: z.array(row),
    arguments: z.array(row),
    votes: z.array(row),
    evidence_votes: z.array(row),
    relevance_votes: z.array(row),
    resolved_votes: z.array(row),
    bookmarks: z.array(row),
    follows: z.array(row),
    /** The topics followed (docs/features/following.md#topics-and-people). */
    topic_follows: z.array(row),
    /** The people followed. */
    people_follows: z.array(row),
    notifications: z.array(row),
    reports: z.array(row),
    api_keys: z.array(row),
    webhooks: z.array(row),
    reputation_history: z.array(row),
    /** Pass it as `cursor` for the next page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "AccountExport" });
export type AccountExport = z.infer<typeof accountExportSchema>;
