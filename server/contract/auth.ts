// Request and response shapes of the account endpoints (docs/api.md#sign-in).
import { z } from "zod";
import { WITHOUT_INVISIBLE_CHARACTERS } from "../domain/display-name.ts";
import { strictBodyField } from "./claims.ts";
import { trimmedText } from "./common.ts";

/** Trimmed and lower-cased before the address is checked (the document states the check). */
export const emailSchema = z
  .string({ message: "email: is required" })
  .trim()
  .toLowerCase()
  .max(254, { message: "email: must be at most 254 characters", abort: true })
  .email({ message: "email: must be a valid email address" });

/** bcrypt reads this many bytes of a password: a longer one would sign in with its first 72 bytes. */
export const PASSWORD_MAX_BYTES = 72;

/**
 * The password rules (docs/api.md), with messages naming `field` (password, new_password). JSON Schema
 * counts characters, not bytes: the document states the byte limit as `x-max-utf8-bytes` (and as a
 * maxLength, which it implies).
 */
export const passwordRules = (field: string) =>
  z
    .string({ message: `${field}: is required` })
    .min(8, { message: `${field}: must be at least 8 characters` })
    .refine((p) => Buffer.byteLength(p, "utf8") <= PASSWORD_MAX_BYTES, { message: `${field}: must be at most ${PASSWORD_MAX_BYTES} bytes` })
    .regex(/[A-Z]/, { message: `${field}: must contain an uppercase letter` })
    .regex(/[a-z]/, { message: `${field}: must contain a lowercase letter` })
    .regex(/[0-9]/, { message: `${field}: must contain a digit` })
    .meta({
      description: `At least 8 characters and at most ${PASSWORD_MAX_BYTES} bytes in UTF-8, with an uppercase letter, a lowercase letter and a digit`,
      maxLength: PASSWORD_MAX_BYTES,
      "x-max-utf8-bytes": PASSWORD_MAX_BYTES,
    });

export const passwordSchema = passwordRules("password");

export const usernameSchema = z
  .string({ message: "username: is required" })
  .regex(/^[A-Za-z0-9_]{3,30}$/, {
    message: "username: must be 3-30 characters of letters, digits and underscore",
  });

export const displayNameSchema = trimmedText("display_name: must be a string", {
  min: 1,
  max: 100,
  minMessage: "display_name: must be 1-100 characters",
  maxMessage: "display_name: must be 1-100 characters",
}).regex(WITHOUT_INVISIBLE_CHARACTERS, {
  message: "display_name: must not contain invisible formatting characters (bidi overrides, zero-width characters) or control characters",
});

export const registerInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  username: usernameSchema,
  display_name: displayNameSchema.optional(),
  /** The account is software acting on its own (its votes are left out of gradient_people). */
  automated: strictBodyField(z.boolean({ message: "automated: must be true or false" })).default(false),
});

/** PATCH /auth/me: what the account says about itself. */
export const updateMeInput = z.object({
  automated: strictBodyField(z.boolean({ message: "automated: must be true or false" })).optional(),
});

export const loginInput = z.object({
  email: z.string({ message: "email: is required" }).trim().toLowerCase().max(254, { message: "email: must be at most 254 characters" }),
  password: z.string({ message: "password: is required" }).max(1024, { message: "password: must be at most 1024 characters" }),
});

export const refreshInput = z.object({
  refresh_token: z.string({ message: "refresh_token: is required" }).min(1, { message: "refresh_token: is required" }).max(512, { message: "refresh_token: is too long" }),
});

export const tokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal("bearer"),
    expires_in: z.number().int(),
  })
  .meta({ id: "TokenPair" });

export type TokenPair = z.infer<typeof tokenPairSchema>;
