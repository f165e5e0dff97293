// Request and response shapes of the account endpoints (docs/api.md#sign-in).
import { z } from "zod";
import { hasInvisibleCharacters } from "../domain/display-name.ts";
import { strictBodyField } from "./claims.ts";

export const emailSchema = z
  .string({ message: "email: is required" })
  .trim()
  .toLowerCase()
  .max(254, { message: "email: must be at most 254 characters" })
  .pipe(z.email({ message: "email: must be a valid email address" }));

/** The password rules (docs/api.md), with messages naming `field` (password, new_password). */
export const passwordRules = (field: string) =>
  z
    .string({ message: `${field}: is required` })
    .min(8, { message: `${field}: must be at least 8 characters` })
    .refine((p) => Buffer.byteLength(p, "utf8") <= 72, { message: `${field}: must be at most 72 bytes` })
    .refine((p) => /[A-Z]/.test(p), { message: `${field}: must contain an uppercase letter` })
    .refine((p) => /[a-z]/.test(p), { message: `${field}: must contain a lowercase letter` })
    .refine((p) => /[0-9]/.test(p), { message: `${field}: must contain a digit` });

export const passwordSchema = passwordRules("password");

export const usernameSchema = z
  .string({ message: "username: is required" })
  .regex(/^[A-Za-z0-9_]{3,30}$/, {
    message: "username: must be 3-30 characters of letters, digits and underscore",
  });

export const displayNameSchema = z
  .string({ message: "display_name: must be a string" })
  .trim()
  .min(1, { message: "display_name: must be 1-100 characters" })
  .max(100, { message: "display_name: must be 1-100 characters" })
  .refine((name) => !hasInvisibleCharacters(name), {
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
