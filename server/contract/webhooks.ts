// Request and response shapes of webhooks (docs/features/following.md).
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhook-events.ts";
import { refusedUrlShape } from "../domain/webhook-url.ts";
import { boundedInt, isoDate, offsetSchema, pathId, trimmedText, urlPattern } from "./common.ts";

const eventsMessage = `each event must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`;
const urlMessage = "url: must be an https:// URL of at most 2000 characters";

// The URL's shape (absolute, http(s), no credentials, a host) is checked here, so that a malformed URL
// is a 400 whatever webhook it is sent for; https alone (unless private addresses are allowed) and a
// host whose every address is public are the service's, which knows the configuration and asks DNS.
const urlField = trimmedText(urlMessage, { min: 1, max: 2000, minMessage: urlMessage, maxMessage: urlMessage })
  .superRefine((url, ctx) => {
    const shape = refusedUrlShape(url, true);
    if (shape) ctx.addIssue({ code: "custom", message: `url: ${shape}` });
  })
  .meta({ format: "uri", pattern: urlPattern("https"), description: "An https:// URL whose host resolves to public addresses only" });
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: eventsMessage }), { message: "events: must be a list of event types" })
  .min(1, { message: "events: at least one event type is required" })
  .max(WEBHOOK_EVENT_TYPES.length * 2, { message: "events: too many entries" })
  .transform((list) => WEBHOOK_EVENT_TYPES.filter((t) => list.includes(t)));
const descriptionField = z
  .string({ message: "description: must be a string of at most 500 characters" })
  .trim()
  .max(500, { message: "description: must be a string of at most 500 characters" })
  .nullable();

export const createWebhookInput = z.object({ url: urlField, events: eventsField, description: descriptionField.optional() });

export const webhookIdInput = z.object({ webhook_id: pathId });

export const updateWebhookInput = z.object({
  webhook_id: pathId,
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  status: z.enum(["active"], { message: 'status: only "active" can be set (re-enables a disabled endpoint)' }).optional(),
});

export const deliveriesInput = z.object({ webhook_id: pathId, limit: boundedInt("limit", 1, 100, 20), offset: offsetSchema });
export const redeliverInput = z.object({ webhook_id: pathId, delivery_id: pathId });

const webhookFields = {
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  status: z.enum(["active", "disabled"]),
  disabled_reason: z.string().nullable(),
  created_at: isoDate,
};

export const webhookSchema = z.object(webhookFields).meta({ id: "Webhook" });
export const webhookWithSecretSchema = z
  .object({
    ...webhookFields,
    secret: z.string().meta({ description: "`whsec_` + base64 of 32 bytes: shown only here", example: "whsec_…" }),
  })
  .meta({ id: "WebhookWithSecret" });
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) }).meta({ id: "WebhookList" });

export const deliverySchema = z
  .object({
    id: z.uuid(),
    event_type: z.string(),
    webhook_message_id: z.string().meta({ description: "The webhook-id header: the same on every attempt of a message" }),
    attempt: z.number().int(),
    status: z.enum(["pending", "succeeded", "failed"]),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    created_at: isoDate,
    next_attempt_at: isoDate.nullable(),
  })
  .meta({ id: "WebhookDelivery" });
export const deliveryListSchema = z
  .object({ deliveries: z.array(deliverySchema), total: z.number().int() })
  .meta({ id: "WebhookDeliveryList" });

export const acceptedSchema = z.object({ accepted: z.literal(true) }).meta({ id: "Accepted" });
export type Accepted = z.infer<typeof acceptedSchema>;
/** The answer of a request whose work was queued. */
export const ACCEPTED: Accepted = { accepted: true };

export type WebhookOut = z.infer<typeof webhookSchema>;
export type DeliveryOut = z.infer<typeof deliverySchema>;
