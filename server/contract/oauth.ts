// Request and response shapes of the OAuth endpoints (docs/api.md#sign-in).
import { z } from "zod";
import { MAX_REDIRECT_LENGTH, SAFE_REDIRECT_PATTERN, safeRedirectPath } from "../domain/redirect.ts";

const REDIRECT_MESSAGE = "redirect_to: must be a path on this site, e.g. /claims";

/** A same-origin path only: anything else would make sign-in an open redirect. */
export const redirectToSchema = z
  .string({ message: REDIRECT_MESSAGE })
  .max(MAX_REDIRECT_LENGTH, { message: `redirect_to: must be at most ${MAX_REDIRECT_LENGTH} characters`, abort: true })
  .regex(SAFE_REDIRECT_PATTERN, { message: REDIRECT_MESSAGE })
  .transform((value, ctx) => {
    const path = safeRedirectPath(value);
    if (path === null) {
      ctx.addIssue({ code: "custom", message: REDIRECT_MESSAGE });
      return z.NEVER;
    }
    return path;
  })
  .meta({ description: "Where to land after signing in: a path on this site (default /)", example: "/claims" });

/** The names GET /auth/oauth/{provider} knows (case-insensitive): `x` is Twitter's new name. */
export const PROVIDER_PARAMS = ["google", "github", "twitter", "x"] as const;

export const oauthStartInput = z.object({
  // Any other name is a path that names nothing: 404 `Unknown provider`, as an unknown id is.
  provider: z.string().meta({ description: "google, github, twitter (or its alias x), in any case", example: "github", enum: [...PROVIDER_PARAMS] }),
  redirect_to: redirectToSchema.optional(),
});

/** Turned into a 302 by the REST adapter: `Location` and `Set-Cookie`, no body. */
export const oauthRedirectSchema = z.object({
  location: z.string(),
  set_cookies: z.array(z.string()),
});

export const exchangeInput = z.object({
  code: z
    .string({ message: "code: is required" })
    .min(1, { message: "code: is required" })
    .max(256, { message: "code: is too long" }),
});
