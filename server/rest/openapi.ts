// The OpenAPI 3 document of /api/v1, generated once from the procedures by trpc-to-openapi and then
// corrected to what the adapter really answers: {code, detail, errors?} error bodies with the codes each
// operation can answer (from the one table, server/errors.ts), the real success statuses (201/204),
// the rate-limit headers, and optional bearer auth on public operations.
// Two bearer schemes: access tokens (JWT) and API keys (`clm_…`), the latter wherever a key works.
import { generateOpenApiDocument, type OpenApiMeta } from "trpc-to-openapi";
import { appRouter } from "../api/root.ts";
import type { ProcedureMeta } from "../api/trpc.ts";
import { API_ERRORS, FIELD_RULES, type ErrorCode } from "../api/errors.ts";
import { ERROR_CODE_LIST, ERROR_EXTRA_FIELDS } from "../errors.ts";
import { API_KEY_SCOPES, requiredScope, SCOPE_DESCRIPTIONS } from "../domain/scopes.ts";
import { buildRouteTable } from "./routes.ts";
import { stateSchemaRules } from "./openapi-schemas.ts";

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current 60-second window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window resets", schema: { type: "integer" } },
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function buildOpenApiDocument(): Json {
  const doc = generateOpenApiDocument(appRouter, {
    title: "Claims service API",
    description:
      "Collaborative assessment of claims: agents submit claims, vote how true they are (0.0–1.0), bring evidence, and see where consensus stands (the gradient). Every error is `{\"code\", \"detail\"}` (+ `errors` on a validation failure): `code` is a stable word to act on, `detail` a sentence for people; each error response lists the codes it can carry.",
    version: "1.0.0",
    baseUrl: "/api/v1",
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An access token from `POST /auth/login` (1 hour)" },
      apiKey: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "clm_…",
        description: `A long-lived API key from \`POST /auth/api-keys\`, sent as \`Authorization: Bearer clm_…\`. A call outside the key's scopes answers 403. Scopes: ${API_KEY_SCOPES.map((s) => `\`${s}\` — ${SCOPE_DESCRIPTIONS[s]}`).join("; ")}.`,
      },
    },
  }) as Json;
  const keyScopeOf = apiKeyScopes();

  const statusOf = new Map(buildRouteTable(appRouter).routes.map((r) => [`${r.method} ${r.path}`, r.successStatus]));
  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.schemas.Error = ERROR_SCHEMA;
  const declaredOf = declaredErrors();

  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const [method, op] of Object.entries(item) as [string, Json][]) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const success = statusOf.get(`${method.toUpperCase()} ${path}`) ?? 200;
      const ok = op.responses["200"];
      // Every call can be refused for a bad credential, its rate, a failure or a busy database.
      const codes = new Set<ErrorCode>(["invalid_token", "rate_limited", "internal_error", "service_unavailable"]);
      if (op.security) codes.add("unauthenticated");
      // The adapter reads the body of every POST/PATCH, declared or not: bad JSON, too large, not JSON.
      const readsBody = !!op.requestBody || ["post", "put", "patch"].includes(method);
      const hasInput = readsBody || (op.parameters ?? []).length > 0;
      if (hasInput) codes.add("validation_failed");
      if (readsBody) {
        codes.add("payload_too_large");
        codes.add("unsupported_media_type");
      }
      if (path.includes("{")) codes.add("not_found");
      for (const code of declaredOf.get(`${method.toUpperCase()} ${path}`) ?? []) codes.add(code);
      // A body whose fields are all optional may be left out (the adapter reads an empty body as {}).
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      if (bodySchema && !(bodySchema.required ?? []).length && !bodySchema.$ref) op.requestBody.required = false;
      // Public operations accept an optional token; a bad one is refused with 401 everywhere.
      // (The generator lists every scheme on protected operations; the schemes are set here instead.)
      op.security = op.security ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }];
      // An API key works wherever its scope is one a key can hold (not on key management itself).
      const keyScope = keyScopeOf.get(`${method.toUpperCase()} ${path}`);
      if (keyScope !== "account") {
        op.security.push({ apiKey: [] });
        op["x-api-key-scope"] = keyScope;
      }
      // A key outside its scopes (or any key, on key management) is refused with 403.
      codes.add("forbidden");

      const responses: Json = {};
      if (success === 204) {
        responses["204"] = { description: "Done (no body)", headers: RATE_LIMIT_HEADERS };
      } else if (success === 302) {
        responses["302"] = {
          description: "Redirect (no body)",
          headers: {
            Location: { description: "Where to go next", schema: { type: "string", format: "uri" } },
            "Set-Cookie": { description: "Short-lived cookies the next step checks", schema: { type: "string" } },
            ...RATE_LIMIT_HEADERS,
          },
        };
      } else {
        responses[String(success)] = { ...ok, headers: { ...(ok?.headers ?? {}), ...RATE_LIMIT_HEADERS } };
      }
      const listed = ERROR_CODE_LIST.filter((code) => codes.has(code));
      for (const status of [...new Set(listed.map((code) => API_ERRORS[code].status))].sort()) {
        responses[String(status)] = errorResponse(listed.filter((code) => API_ERRORS[code].status === status));
      }
      op["x-error-codes"] = listed;
      op.responses = responses;
    }
  }
  stateSchemaRules(doc);
  return doc;
}

/** The contract's error body (docs/api.md#errors): `code` is one of the table's. */
/** The error body (`{code, detail, errors?}`), also what an MCP tool's refused call carries as its structured content. */
export const ERROR_SCHEMA: Json = {
  type: "object",
  required: ["code", "detail"],
  properties: {
    code: { type: "string", enum: ERROR_CODE_LIST, description: "What went wrong, for programs: a stable word from the table in docs/api.md#errors" },
    detail: { type: "string", description: "What went wrong, for people" },
    errors: {
      type: "array",
      description: "Validation errors, one per field (every `validation_failed` has them)",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: {
          field: { type: "string", description: "The field, a dotted path (`tags.2`); `body` for the request as a whole" },
          message: { type: "string" },
          rule: {
            type: "string",
            enum: FIELD_RULES,
            description: "The rule the field broke",
          },
          min: { type: "number", description: "The field's lower bound (characters, items or value) of a size rule" },
          max: { type: "number", description: "The field's upper bound of a size rule" },
          format: { type: "string", description: "The format a `format` rule expects (`email`, `url`, `uuid`, `date-time`, `pattern`…)" },
          pattern: { type: "string", description: "The regular expression of a `pattern` format" },
          options: { type: "array", items: { type: "string" }, description: "The values an `enum` rule allows" },
          other: { type: "string", description: "The field a comparison names (`not_above`)" },
        },
      },
    },
    ...Object.fromEntries(ERROR_EXTRA_FIELDS.map((field) => [field, { type: "string", description: "Beside `detail` on the codes that name it" }])),
  },
};

/** One error status of an operation: the codes it can carry there, each with what it means. */
function errorResponse(codes: ErrorCode[]): Json {
  return {
    description: codes.map((code) => `\`${code}\`: ${API_ERRORS[code].when}`).join("; "),
    headers: RATE_LIMIT_HEADERS,
    content: {
      "application/json": {
        schema: { allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { code: { type: "string", enum: codes } } }] },
      },
    },
  };
}

/** "METHOD /path" → the error codes its procedure declares beyond those its shape implies (ProcedureMeta.errors). */
function declaredErrors(): Map<string, readonly ErrorCode[]> {
  const out = new Map<string, readonly ErrorCode[]>();
  for (const procedure of Object.values(procedureDefs())) {
    const { meta } = procedure._def;
    if (meta?.openapi && meta.errors) out.set(`${meta.openapi.method} ${meta.openapi.path}`, meta.errors);
  }
  return out;
}

function procedureDefs() {
  return appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription"; meta?: OpenApiMeta<ProcedureMeta> } }>;
}

/** "METHOD /path" → the scope an API key needs for it (see server/domain/scopes.ts). */
function apiKeyScopes(): Map<string, string> {
  const out = new Map<string, string>();
  for (const procedure of Object.values(procedureDefs())) {
    const { meta, type } = procedure._def;
    if (meta?.openapi) out.set(`${meta.openapi.method} ${meta.openapi.path}`, requiredScope(meta.scope, type));
  }
  return out;
}

let cached: string | undefined;

/** The serialized document, built on first request. */
export function openApiDocument(): string {
  return (cached ??= JSON.stringify(buildOpenApiDocument()));
}
