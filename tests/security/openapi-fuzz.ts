// Request generators read from the served OpenAPI document: for each operation, fast-check
// arbitraries of valid requests (from the parameter and body schemas, with fixture ids and values
// that make sense for well-known field names) and of invalid ones, each invalid request carrying
// the answer the contract prescribes for it.
import fc from "fast-check";
import { isStorableText } from "../../server/domain/text-guard.ts";

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Every pattern of the schema and its allOf parts (a string must match them all). */
  patterns?: string[];
  format?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
}

export interface Param {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The template, e.g. /claims/{claim_id} */
  path: string;
  /** "POST /claims/{claim_id}/vote" */
  name: string;
  pathParams: Param[];
  queryParams: Param[];
  /** The JSON body schema, when the operation takes one. */
  body?: JsonSchema;
  /** Needs a token (its security list has no anonymous alternative). */
  secured: boolean;
  /** Every status the document allows for it. */
  statuses: Set<number>;
}

// ---- reading the document ----

type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, JsonSchema> } }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The schema with $ref and allOf resolved (one level at a time, recursively). */
function resolve(doc: Doc, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    return resolve(doc, doc.components?.schemas?.[name]);
  }
  const out: JsonSchema = { ...schema };
  if (out.allOf) {
    const patterns = out.pattern ? [out.pattern] : [];
    for (const part of out.allOf) {
      const resolved = resolve(doc, part);
      patterns.push(...(resolved.patterns ?? (resolved.pattern ? [resolved.pattern] : [])));
      Object.assign(out, resolved);
    }
    delete out.allOf;
    if (patterns.length) Object.assign(out, { pattern: patterns[0], patterns });
  }
  if (out.items) out.items = resolve(doc, out.items);
  if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, resolve(doc, v)]));
  if (out.anyOf) out.anyOf = out.anyOf.map((s) => resolve(doc, s));
  if (out.oneOf) out.oneOf = out.oneOf.map((s) => resolve(doc, s));
  return out;
}

export function operationsOf(doc: Doc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const params: Param[] = (op.parameters ?? []).map((p: Param) => ({ ...p, schema: resolve(doc, p.schema) }));
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      const security: Record<string, unknown>[] = op.security ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body: bodySchema ? resolve(doc, bodySchema) : undefined,
        secured: security.length > 0 && security.every((s) => Object.keys(s).length > 0),
        statuses: new Set(Object.keys(op.responses).map(Number)),
      });
    }
  }
  return ops;
}

// ---- a minimal JSON-schema check (the subset the document uses) ----

function typesOf(schema: JsonSchema): string[] | null {
  if (schema.type === undefined) return null;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether `value` satisfies `schema` (code-unit lengths, as zod counts them). */
export function conforms(schema: JsonSchema, value: unknown): boolean {
  // (anyOf/oneOf beside properties are rules across an object's fields, checked below.)
  if (schema.anyOf && !schema.properties) return schema.anyOf.some((s) => conforms(s, value));
  if (schema.oneOf && !schema.properties) return schema.oneOf.some((s) => conforms(s, value));
  if (schema.enum) return schema.enum.includes(value);
  const types = typesOf(schema);
  const t = jsonType(value);
  if (types && !types.includes(t) && !(t === "integer" && types.includes("number"))) return false;
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return false;
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
    // JSON Schema reads patterns as Unicode regular expressions.
    for (const pattern of schema.patterns ?? (schema.pattern ? [schema.pattern] : [])) if (!new RegExp(pattern, "u").test(value)) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((v) => conforms(schema.items!, v))) return false;
  }
  if (t === "object") {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) return false;
    for (const [key, sub] of Object.entries(schema.properties ?? {})) if (key in obj && !conforms(sub, obj[key])) return false;
    if (schema.properties && schema.oneOf && schema.oneOf.filter((s) => conforms(s, value)).length !== 1) return false;
    if (schema.properties && schema.anyOf && !schema.anyOf.some((s) => conforms(s, value))) return false;
  }
  return true;
}

// ---- text ----

/** Strings an injection or rendering bug would trip over; all of them are valid text. */
export const HOSTILE_STRINGS = [
  "' OR '1'='1' --",
  "'); DROP TABLE claims; --",
  "1; SELECT pg_sleep(5); --",
  "\" OR \"\"=\"",
  "<script>alert('xss')</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(document.cookie)",
  "\"><svg/onload=alert(1)>",
  "{{7*7}} ${7*7} #{7*7}",
  "\u202Egnp.exe\u202C \u200F\u05E9\u05DC\u05D5\u05DD\u200E",
  "\u200B\u200C\u200D\uFEFF",
  "e\u0301\u0301\u0301 Z\u0351\u0360\u0361\u0489",
  "😀👩🏽‍💻🏳️‍🌈 𝕳𝖊𝖑𝖑𝖔",
  "..%2f..%2fetc%2fpasswd ../../etc/passwd",
  "%00 %s %n %x \\x00 \\u0000",
  "\r\n\tHeader-Injection: yes",
  "NULL null undefined NaN -0 1e309",
  "Robert'); DROP TABLE agents;--",
  "ｆｕｌｌｗｉｄｔｈ ﷽",
];

/** Any storable text (no NUL, no unpaired surrogates), of length within [min, max]. */
export function textArb(min = 0, max = 200): fc.Arbitrary<string> {
  const cap = Math.min(max, 400);
  const fit = (s: string) => {
    let out = s;
    while (out.length < min) out += out.length % 2 ? " x" : "y";
    if (out.length > max) out = out.slice(0, max);
    return out;
  };
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: cap }) },
      { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: cap }) },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
      { weight: 1, arbitrary: fc.constantFrom("ab", "x".repeat(Math.max(min, Math.min(max, 60_000)))) },
    )
    .map(fit)
    .filter((s) => s.length >= min && s.length <= max && isStorableText(s));
}

// ---- valid values ----

/** Arbitraries that replace the schema-derived one for a field or parameter of this name. */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

export function valueArb(schema: JsonSchema, name: string, overrides: Overrides): fc.Arbitrary<unknown> {
  if (overrides[name]) return overrides[name];
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.properties ? undefined : (schema.anyOf ?? schema.oneOf);
  if (variants) return fc.oneof(...variants.map((s) => valueArb(s, name, overrides)));
  const types = typesOf(schema) ?? ["string"];
  return fc.oneof(...types.map((type) => valueOfType({ ...schema, type }, type, name, overrides)));
}

function valueOfType(schema: JsonSchema, type: string, name: string, overrides: Overrides): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case "number": {
      const min = schema.minimum ?? -1e6;
      const max = schema.maximum ?? 1e6;
      return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max, (min + max) / 2));
    }
    case "array": {
      const maxLength = Math.min(schema.maxItems ?? 5, 10);
      return fc.array(valueArb(schema.items ?? {}, `${name}[]`, overrides), { minLength: schema.minItems ?? 0, maxLength });
    }
    case "object":
      return objectArb(schema, overrides);
    default:
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern, "u"));
        } catch {
          // fast-check cannot generate from lookarounds: text, as without a pattern.
        }
      }
      return textArb(schema.minLength ?? 0, schema.maxLength ?? 300);
  }
}

export function objectArb(schema: JsonSchema, overrides: Overrides): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueArb(s, k, overrides)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) }) as fc.Arbitrary<Record<string, unknown>>;
}

// ---- invalid values ----

/** The JSON types a schema admits ("integer" implies "number" here: 3 is a valid number). */
function allowedTypes(schema: JsonSchema): Set<string> | null {
  if (schema.enum) return new Set(schema.enum.map(jsonType).flatMap((t) => (t === "integer" ? ["integer", "number"] : [t])));
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const all = new Set<string>();
    for (const v of variants) {
      const sub = allowedTypes(v);
      if (!sub) return null;
      sub.forEach((t) => all.add(t));
    }
    return all;
  }
  const types = typesOf(schema);
  if (!types) return null;
  return new Set(types.flatMap((t) => (t === "number" ? ["number", "integer"] : [t])));
}

/** Values of JSON types the schema does not allow (null when it allows any type). */
export function wrongTypeArb(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const allowed = allowedTypes(schema);
  if (!allowed) return null;
  const samples: unknown[] = ["a string", 42, -1.5, true, false, null, [], [1, "two"], {}, { nested: { x: 1 } }];
  const wrong = samples.filter((v) => !allowed.has(jsonType(v)));
  return wrong.length ? fc.constantFrom(...wrong) : null;
}

/** Values of the right type that break one of the schema's limits. */
export function outOfRangeValues(schema: JsonSchema): unknown[] {
  const out: unknown[] = [];
  const types = typesOf(schema) ?? [];
  if (schema.enum) out.push("not-a-member", String(schema.enum[0]).toUpperCase() + "_X");
  if (types.includes("integer") || types.includes("number")) {
    if (schema.minimum !== undefined) out.push(schema.minimum - 1, schema.minimum - 0.001, -1e15);
    if (schema.maximum !== undefined) out.push(schema.maximum + 1, schema.maximum + 0.001, 1e300);
    if (types.includes("integer") && !types.includes("number")) out.push(1.5, (schema.minimum ?? 0) + 0.25);
  }
  if (types.includes("string") && !schema.enum) {
    if (schema.minLength !== undefined && schema.minLength > 1) out.push("x".repeat(schema.minLength - 1));
    if (schema.maxLength !== undefined && schema.maxLength < 200_000) out.push("y".repeat(schema.maxLength + 1));
    if (schema.pattern) out.push("has spaces & symbols!", "ä".repeat(5));
  }
  if (types.includes("array") && schema.maxItems !== undefined && schema.maxItems < 10_000) {
    out.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `item${i}`));
  }
  return out.filter((v) => !conforms(schema, v));
}

/** Text PostgreSQL cannot store as sent. */
export const UNSTORABLE_STRINGS = ["nul\u0000inside", "\u0000", "lone \uD800 high", "lone \uDC00 low", "tail \uDBFF", "valid text then \u0000"];

/** Every string-typed place in a schema ("tags" for an array of strings). */
export function stringFields(schema: JsonSchema): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, s]) => {
      const types = typesOf(s) ?? [];
      const itemTypes = s.items ? typesOf(s.items) ?? [] : [];
      return types.includes("string") || (types.includes("array") && itemTypes.includes("string")) || s.anyOf?.some((v) => typesOf(v)?.includes("string"));
    })
    .map(([k]) => k);
}

export function isArraySchema(schema: JsonSchema): boolean {
  return (typesOf(schema) ?? []).includes("array");
}

// ---- query strings ----

/** Query values (strings, as sent) that a parameter of this schema must refuse. */
export function badQueryValues(schema: JsonSchema): string[] {
  const types = typesOf(schema) ?? [];
  const out: string[] = [];
  if (types.includes("integer") || types.includes("number")) {
    out.push("abc", "1,5", "--1", "Infinity", "NaN", "1e999", "[]", "true");
    if (schema.minimum !== undefined) out.push(String(schema.minimum - 1), String(schema.minimum - 0.5));
    if (schema.maximum !== undefined) out.push(String(schema.maximum + 1), String(schema.maximum + 0.5));
    if (types.includes("integer")) out.push("1.5", "2.000001");
  } else if (schema.enum) {
    out.push("not-a-member", `${String(schema.enum[0]).toUpperCase()}X`, "' OR 1=1 --");
  } else if (types.includes("string")) {
    if (schema.minLength !== undefined && schema.minLength > 1) out.push("x".repeat(schema.minLength - 1));
    if (schema.maxLength !== undefined) out.push("q".repeat(schema.maxLength + 1));
  }
  // What the server refuses must also fail the schema (Number() is how query numbers are read).
  return out.filter((raw) => {
    if (types.includes("integer") || types.includes("number")) {
      const n = Number(raw);
      return !Number.isFinite(n) || !conforms(schema, types.includes("integer") && !Number.isInteger(n) ? 0.5 : n) || (types.includes("integer") && !Number.isInteger(n));
    }
    return !conforms(schema, raw);
  });
}

/** A path segment as a client would send it; lone surrogates (which encodeURIComponent refuses) as raw invalid UTF-8. */
export function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((ch) => (/[\uD800-\uDFFF]/.test(ch) ? "%ED%A0%80" : encodeURIComponent(ch))).join("");
  }
}

/** Ids that are not ids: a malformed one must answer 404 like an unknown one. */
export const malformedIdArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      "not-a-uuid",
      "00000000-0000-0000-0000-00000000000",
      "00000000-0000-4000-8000-0000000000000",
      "zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz",
      "1' OR '1'='1",
      "1; DROP TABLE claims",
      "-1",
      "0",
      "1.5",
      "9".repeat(40),
      "%00",
      "\u0000",
      "\uD800",
      "<script>",
      "x".repeat(3000),
      "é",
      "a/b",
      "{claim_id}",
    ),
    fc.uuid().map((u) => `${u}x`),
    fc.uuid().map((u) => u.replace(/-/g, "")),
    fc.string({ unit: "binary", minLength: 1, maxLength: 60 }),
  )
  // "." and ".." are dot segments: the URL parser removes them before the request is sent.
  .filter((s) => s.trim() !== "" && !/^\.+$/.test(s) && !/^[A-Za-z0-9_]{3,30}$/.test(s));
