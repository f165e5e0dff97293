// Request and response shapes of API keys (docs/api.md#api-keys).
import { z } from "zod";
import { API_KEY_SCOPES } from "../domain/scopes.ts";
import { isoDate, pathId, trimmedText } from "./common.ts";
import { strictBodyField } from "./claims.ts";

export const MAX_LIVE_API_KEYS = 20;

const scopeMessage = `scopes: each scope must be one of ${API_KEY_SCOPES.join(", ")}`;
const expiresMessage = "expires_in_days: must be an integer between 1 and 365";

export const createApiKeyInput = z.object({
  name: trimmedText("name: is required", {
    min: 1,
    max: 100,
    minMessage: "name: must be 1-100 characters",
    maxMessage: "name: must be 1-100 characters",
  }),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { message: scopeMessage }), { message: "scopes: must be a list of scopes" })
    .min(1, { message: "scopes: at least one scope is required" })
    .max(API_KEY_SCOPES.length * 2, { message: "scopes: too many entries" })
    .transform((s) => API_KEY_SCOPES.filter((scope) => s.includes(scope))),
  expires_in_days: strictBodyField(
    z.number({ message: expiresMessage }).int({ message: expiresMessage }).min(1, { message: expiresMessage }).max(365, { message: expiresMessage }),
  ).optional(),
});

export const apiKeyIdInput = z.object({ key_id: pathId });

const apiKeyFields = {
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  prefix: z.string().meta({ description: "The key's first 12 characters, to recognise it by", example: "clm_a1B2c3D4" }),
  created_at: isoDate,
  expires_at: isoDate.nullable(),
  last_used_at: isoDate.nullable().meta({ description: "Kept to the minute" }),
};

export const apiKeySchema = z.object(apiKeyFields).meta({ id: "ApiKey" });

export const createdApiKeySchema = z
  .object({
    ...apiKeyFields,
    key: z.string().meta({ description: "The key itself (`clm_` + 40 characters): shown only in this answer", example: "clm_…" }),
  })
  .meta({ id: "CreatedApiKey" });

export const apiKeyListSchema = z.object({ api_keys: z.array(apiKeySchema) }).meta({ id: "ApiKeyList" });

export type ApiKeyOut = z.infer<typeof apiKeySchema>;
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;
