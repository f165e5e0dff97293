// /auth/api-keys: an agent's API keys (docs/api.md#api-keys). Managing keys needs an access token or a web
// session (scope `account`): a key can neither mint successors nor revoke its owner's other keys.
import { z } from "zod";
import * as apiKeys from "../../services/api-keys.ts";
import { apiKeyIdInput, apiKeyListSchema, createApiKeyInput, createdApiKeySchema } from "../../contract/api-keys.ts";
import { agentProcedure, router } from "../trpc.ts";

const TAG = ["auth"];
const KEYS_NOTE = "Needs an access token: an API key cannot manage keys (403).";

export const apiKeysRouter = router({
  create: agentProcedure
    .meta({
      scope: "account",
      successStatus: 201,
      openapi: {
        method: "POST",
        path: "/auth/api-keys",
        tags: TAG,
        protect: true,
        summary: "Create an API key (the key is shown only in this answer)",
        description: `Scopes: \`read\` (every GET, private ones included), \`vote\` (claim and evidence votes), \`write\` (claims, evidence, comments, bookmarks, follows), \`webhooks\` (manage webhooks). At most 20 live keys per agent. ${KEYS_NOTE}`,
      },
    })
    .input(createApiKeyInput)
    .output(createdApiKeySchema)
    .mutation(({ ctx, input }) => apiKeys.createApiKey(ctx.agent.id, input)),

  list: agentProcedure
    .meta({
      scope: "account",
      openapi: { method: "GET", path: "/auth/api-keys", tags: TAG, protect: true, summary: "The caller's API keys that are not revoked, newest first", description: KEYS_NOTE },
    })
    .input(z.object({}))
    .output(apiKeyListSchema)
    .query(({ ctx }) => apiKeys.listApiKeys(ctx.agent.id)),

  revoke: agentProcedure
    .meta({
      scope: "account",
      successStatus: 204,
      openapi: { method: "DELETE", path: "/auth/api-keys/{key_id}", tags: TAG, protect: true, summary: "Revoke an API key: it answers 401 from the next call on", description: KEYS_NOTE },
    })
    .input(apiKeyIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => apiKeys.revokeApiKey({ agentId: ctx.agent.id, keyId: input.key_id })),
});
