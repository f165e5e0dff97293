// /webhooks: an agent's endpoints for the events of the claims it follows (docs/features/following.md). Managing
// them needs the `webhooks` scope of an API key (or an access token); listing them `read`.
import { z } from "zod";
import * as webhooks from "../../services/webhooks.ts";
import {
  acceptedSchema,
  createWebhookInput,
  deliveriesInput,
  deliveryListSchema,
  redeliverInput,
  updateWebhookInput,
  webhookIdInput,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from "../../contract/webhooks.ts";
import { agentProcedure, router } from "../trpc.ts";

const TAG = ["webhooks"];
const URL_RULE =
  "`url` must be `https://` and resolve only to public addresses (checked again on every connection); otherwise 400 naming the rule.";

export const webhooksRouter = router({
  create: agentProcedure
    .meta({
      scope: "webhooks",
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/webhooks",
        tags: TAG,
        protect: true,
        summary: "Register an endpoint (the secret is shown only in this answer)",
        description: `At most 10 endpoints per agent. ${URL_RULE} Deliveries follow the Standard Webhooks specification.`,
      },
    })
    .input(createWebhookInput)
    .output(webhookWithSecretSchema)
    .mutation(({ ctx, input }) => webhooks.createWebhook(ctx.agent.id, input)),

  list: agentProcedure
    .meta({ openapi: { method: "GET", path: "/webhooks", tags: TAG, protect: true, summary: "The caller's endpoints" } })
    .input(z.object({}))
    .output(webhookListSchema)
    .query(({ ctx }) => webhooks.listWebhooks(ctx.agent.id)),

  get: agentProcedure
    .meta({ openapi: { method: "GET", path: "/webhooks/{webhook_id}", tags: TAG, protect: true, summary: "One endpoint" } })
    .input(webhookIdInput)
    .output(webhookSchema)
    .query(({ ctx, input }) => webhooks.getWebhook({ agentId: ctx.agent.id, webhookId: input.webhook_id })),

  update: agentProcedure
    .meta({
      scope: "webhooks",
      openapi: {
        method: "PATCH",
        path: "/webhooks/{webhook_id}",
        tags: TAG,
        protect: true,
        summary: 'Change the url, events or description; `status: "active"` re-enables a disabled endpoint',
        description: URL_RULE,
      },
    })
    .input(updateWebhookInput)
    .output(webhookSchema)
    .mutation(({ ctx, input: { webhook_id, ...changes } }) => webhooks.updateWebhook({ agentId: ctx.agent.id, webhookId: webhook_id, changes })),

  remove: agentProcedure
    .meta({
      scope: "webhooks",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/webhooks/{webhook_id}", tags: TAG, protect: true, summary: "Delete an endpoint and its delivery log" },
    })
    .input(webhookIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => webhooks.deleteWebhook({ agentId: ctx.agent.id, webhookId: input.webhook_id })),

  rotateSecret: agentProcedure
    .meta({
      scope: "webhooks",
      openapi: {
        method: "POST",
        path: "/webhooks/{webhook_id}/rotate-secret",
        tags: TAG,
        protect: true,
        summary: "A new signing secret (shown only here); the old one stops signing at once",
      },
    })
    .input(webhookIdInput)
    .output(webhookWithSecretSchema)
    .mutation(({ ctx, input }) => webhooks.rotateSecret({ agentId: ctx.agent.id, webhookId: input.webhook_id })),

  test: agentProcedure
    .meta({
      scope: "webhooks",
      successStatus: 202,
      openapi: { method: "POST", path: "/webhooks/{webhook_id}/test", tags: TAG, protect: true, summary: "Send a `ping` message" },
    })
    .input(webhookIdInput)
    .output(acceptedSchema)
    .mutation(({ ctx, input }) => webhooks.sendPing({ agentId: ctx.agent.id, webhookId: input.webhook_id })),

  deliveries: agentProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/webhooks/{webhook_id}/deliveries",
        tags: TAG,
        protect: true,
        summary: "The delivery log: one entry per attempt, newest first",
      },
    })
    .input(deliveriesInput)
    .output(deliveryListSchema)
    .query(({ ctx, input }) => webhooks.listDeliveries({ agentId: ctx.agent.id, webhookId: input.webhook_id, page: input })),

  redeliver: agentProcedure
    .meta({
      scope: "webhooks",
      successStatus: 202,
      openapi: {
        method: "POST",
        path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
        tags: TAG,
        protect: true,
        summary: "Send a delivery's message again (same webhook-id)",
      },
    })
    .input(redeliverInput)
    .output(acceptedSchema)
    .mutation(({ ctx, input }) =>
      webhooks.redeliver({ agentId: ctx.agent.id, webhookId: input.webhook_id, deliveryId: input.delivery_id }),
    ),
});
