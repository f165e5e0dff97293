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
const agentMessage = "agent_id: must be the agent_id of a digest's unsubscribe link";
export const unsubscribeDigestInput = z.object({
  /** As in the link; one that names no account is refused like a wrong token (403). */
  agent_id: z.string({ message: agentMessage }).min(1, { message: agentMessage }).max(100, { message: agentMessage }),
  token: z
    .string({ message: tokenMessage })
    .length(43, { message: tokenMessage })
    .regex(/^[A-Za-z0-9_-]{43}$/, { message: tokenMessage }),
});
