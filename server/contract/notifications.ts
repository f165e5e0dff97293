// Request and response shapes of the inbox (docs/features/following.md).
import { z } from "zod";
import { claimSchema } from "./claims.ts";
import { agentSchema, boundedInt, isoDate, offsetSchema, pathId } from "./common.ts";

const unreadMessage = "unread: must be true or false";

export const listNotificationsInput = z.object({
  // A query string: "false" must stay false (zod's boolean coercion would make it true).
  unread: z
    .enum(["true", "false"], { message: unreadMessage })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true")),
  limit: boundedInt("limit", 1, 100, 20),
  offset: offsetSchema,
});

export const notificationIdInput = z.object({ notification_id: pathId });

const beforeMessage = "before: must be an ISO 8601 timestamp";
export const markAllReadInput = z.object({
  before: z.iso.datetime({ offset: true, message: beforeMessage }).optional(),
});

export const notificationSchema = z
  .object({
    id: z.uuid(),
    claim: claimSchema,
    reasons: z
      .object({
        votes: z.number().int(),
        evidence: z.number().int(),
        comments: z.number().int(),
        resolved: z.number().int(),
        /** New arguments under the claim (docs/features/arguments.md#notifications). */
        arguments: z.number().int(),
        /** Steps of the claim's check toward its outcome: proposed, disputed, final (docs/features/checks.md#notifications). */
        outcomes: z.number().int(),
      })
      .meta({ description: "Events on the claim since the notification was last read" }),
    /** What brought the claim to the inbox: a followed claim, or a new claim in a followed topic or by a followed person. */
    source: z.enum(["claim", "topic", "person"]),
    /** A new claim in a followed topic or by a followed person (its author is `actor`). */
    new_claim: z.boolean(),
    /** Who acted last on the claim; null when no one did alone (a resolution) or the account was deleted. */
    actor: agentSchema.nullable(),
    unread: z.boolean(),
    updated_at: isoDate,
    last_read_at: isoDate.nullable(),
  })
  .meta({ id: "Notification" });

export const notificationListSchema = z
  .object({ notifications: z.array(notificationSchema), total: z.number().int(), unread_count: z.number().int() })
  .meta({ id: "NotificationList" });

export type NotificationOut = z.infer<typeof notificationSchema>;
export type NotificationList = z.infer<typeof notificationListSchema>;
