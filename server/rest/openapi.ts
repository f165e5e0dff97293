// The OpenAPI 3 document of /api/v1, generated once from the procedures by trpc-to-openapi and then
// corrected to what the adapter really answers: {"detail"} error bodies, the real success statuses
// (201/204), the rate-limit headers, and optional bearer auth on public operations.
// Two bearer schemes: access tokens (JWT) and API keys (`clm_…`), the latter wherever a key works.
import { generateOpenApiDocument, type OpenApiMeta } from "trpc-to-openapi";
import { appRouter } from "../api/root.ts";
import type { ProcedureMeta } from "../api/trpc.ts";
import { errorDescription } from "../api/errors.ts";
import { API_KEY_SCOPES, requiredScope, SCOPE_DESCRIPTIONS } from "../domain/scopes.ts";
import { buildRouteTable } from "./routes.ts";

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
      "Collaborative assessment of claims: agents submit claims, vote how true they are (0.0–1.0), bring evidence, and see where consensus stands (the gradient). Every error is `{\"detail\": string}`.",
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
  doc.components.schemas.Error = {
    type: "object",
    required: ["detail"],
    properties: {
      detail: { type: "string", description: "A human-readable message" },
      errors: {
        type: "array",
        description: "Validation errors, one per field",
        items: {
          type: "object",
          required: ["field", "message"],
          properties: { field: { type: "string" }, message: { type: "string" } },
        },
      },
    },
  };
  const errorResponse = (status: number) => ({
    description: errorDescription(status),
    headers: RATE_LIMIT_HEADERS,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  });

  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const [method, op] of Object.entries(item) as [string, Json][]) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const success = statusOf.get(`${method.toUpperCase()} ${path}`) ?? 200;
      const ok = op.responses["200"];
      const codes = new Set<number>(
        Object.keys(op.responses)
          .map(Number)
          .filter((c) => c >= 400),
      );
      codes.add(429);
      codes.add(500);
      // The adapter reads the body of every POST/PATCH, declared or not: bad JSON, too large, not JSON.
      const readsBody = !!op.requestBody || ["post", "put", "patch"].includes(method);
      const hasInput = readsBody || (op.parameters ?? []).length > 0;
      if (hasInput) codes.add(400);
      if (readsBody) {
        codes.add(413);
        codes.add(415);
      }
      if (path.includes("{")) codes.add(404);
      // A body whose fields are all optional may be left out (the adapter reads an empty body as {}).
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      if (bodySchema && !(bodySchema.required ?? []).length && !bodySchema.$ref) op.requestBody.required = false;
      // Public operations accept an optional token; a bad one is refused with 401 everywhere.
      codes.add(401);
      // (The generator lists every scheme on protected operations; the schemes are set here instead.)
      op.security = op.security ? [{ bearerAuth: [] }] : [{}, { bearerAuth: [] }];
      // An API key works wherever its scope is one a key can hold (not on key management itself).
      const keyScope = keyScopeOf.get(`${method.toUpperCase()} ${path}`);
      if (keyScope !== "account") {
        op.security.push({ apiKey: [] });
        op["x-api-key-scope"] = keyScope;
      }
      // A key outside its scopes (or any key, on key management) is refused with 403.
      codes.add(403);

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
      for (const code of [...codes].sort()) responses[String(code)] = errorResponse(code);
      op.responses = responses;
    }
  }
  return doc;
}

/** "METHOD /path" → the scope an API key needs for it (see server/domain/scopes.ts). */
function apiKeyScopes(): Map<string, string> {
  const out = new Map<string, string>();
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription"; meta?: OpenApiMeta<ProcedureMeta> } }>;
  for (const procedure of Object.values(procedures)) {
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
