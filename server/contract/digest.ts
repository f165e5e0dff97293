// Request and response shapes of the mail digest (docs/features/digest.md).
import { z } from "zod";
import { isoDate } from "./common.ts";

export const DIGEST_FREQUENCIES = ["off", "daily", "weekly"] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export const digestSettingsSchema = z
  .object({
    frequency: z.enum(DIGEST_FREQUENCIES),
    /** When the last digest went out, or since when the next one gathers news; null: off and never sent. */
    last_sent_at: isoDate.nullable(),
    /** Digests go only to a verified address. */
    email_verified: z.boolean(),
  })
  .meta({ id: "DigestSettings" });
export type DigestSettings = z.infer<typeof digestSettingsSchema>;

export const setDigestInput = z.object({
  frequency: z.enum(DIGEST_FREQUENCIES, { message: `frequency: must be one of ${DIGEST_FREQUENCIES.join(", ")}` }),
});

const tokenMessage = "token: must be the token of a digest's unsubscribe link";
export const unsubscribeDigestInput = z.object({
  agent_id: z.uuid({ message: "agent_id: must be a UUID" }),
  token: z.string({ message: tokenMessage }).regex(/^[A-Za-z0-9_-]{43}$/, { message: tokenMessage }),
});
