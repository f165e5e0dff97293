// What the generated document cannot say of the request and response schemas by itself, added from the
// contract (server/contract) so that the document states every rule the server enforces:
// - rules across the fields of a body (exactly one of two fields; a link's content is a URL), which an
//   input declares as JSON Schema in its own meta (`allOf`/`oneOf`/`anyOf`): the generator rebuilds a
//   body's object without them;
// - answers the adapter sends as text (an output alternative marked `x-rest-text`), as text/plain;
// - query lists given comma-separated (marked `x-comma-separated`), as such;
// - the one rule on every string of every input, which the document states once.
import type { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { appRouter } from "../api/root.ts";
import type { ProcedureMeta } from "../api/trpc.ts";
import { COMMA_SEPARATED, REST_TEXT } from "../contract/common.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BODY_RULE_KEYS = ["allOf", "oneOf", "anyOf"] as const;

const TEXT_RULE =
  " Every string of a query or a body is text that can be stored as sent: no NUL character (U+0000) and no unpaired UTF-16 surrogate (a 400 `validation_failed` naming the field). Lengths count characters (Unicode code points). Names and free text are trimmed; the schemas state each rule on the text as sent. The request line and headers together may hold 16 KiB (a longer request is refused with 431 before the API reads it): long text goes in a body.";

/** Corrects `doc` in place (see the top of this file). */
export function stateSchemaRules(doc: Json): void {
  doc.info.description = `${doc.info.description}${TEXT_RULE}`;
  const inputs = inputsByOperation();
  const textSchemas = new Set(
    Object.entries<Json>(doc.components?.schemas ?? {})
      .filter(([, schema]) => schema[REST_TEXT])
      .map(([name]) => `#/components/schemas/${name}`),
  );
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const meta = inputs.get(`${method.toUpperCase()} ${path}`)?.meta() as Json | undefined;
      if (body && meta) for (const key of BODY_RULE_KEYS) if (meta[key]) body[key] = [...(body[key] ?? []), ...meta[key]];
      for (const response of Object.values<Json>(op.responses)) asText(response, textSchemas);
      for (const param of op.parameters ?? []) {
        if (param.in === "query" && param.schema?.[COMMA_SEPARATED]) {
          delete param.schema[COMMA_SEPARATED];
          Object.assign(param, { style: "form", explode: false });
        }
      }
    }
  }
}

/** A response whose JSON alternatives include a text answer: that alternative becomes text/plain. */
function asText(response: Json, textSchemas: Set<string>): void {
  const schema = response.content?.["application/json"]?.schema;
  const alternatives: Json[] | undefined = schema?.anyOf ?? schema?.oneOf;
  if (!alternatives?.some((s) => textSchemas.has(s.$ref))) return;
  const rest = alternatives.filter((s) => !textSchemas.has(s.$ref));
  response.content = {
    "application/json": { schema: rest.length === 1 ? rest[0] : { anyOf: rest } },
    "text/plain": { schema: { type: "string" } },
  };
}

/** "METHOD /path" → the procedure's input schema. */
function inputsByOperation(): Map<string, z.ZodType> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[]; meta?: OpenApiMeta<ProcedureMeta> } }>;
  const out = new Map<string, z.ZodType>();
  for (const { _def } of Object.values(procedures)) {
    const openapi = _def.meta?.openapi;
    if (openapi && _def.inputs[0]) out.set(`${openapi.method} ${openapi.path}`, _def.inputs[0]);
  }
  return out;
}
