// Turning any error into the contract's body: {"code", "detail"} (+ "errors" for validation, + the
// extra fields of server/errors.ts). Shared by every transport (REST, /api/trpc via the error
// formatter, MCP) and by pages that call procedures themselves.
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, type z } from "zod";
import {
  AppError,
  ERROR_CODES,
  INTERNAL_ERROR,
  type ErrorBody,
  type ErrorCode,
  type FieldError,
  type FieldRule,
} from "../errors.ts";
import { isTrimmedLengthPattern } from "../contract/common.ts";

export type { ErrorBody, ErrorCode, FieldError, FieldRule };

/** The table of server/errors.ts, its tRPC codes checked against tRPC's own list. */
export const API_ERRORS: Record<ErrorCode, { status: number; trpc: TRPC_ERROR_CODE_KEY; when: string }> = ERROR_CODES;

/** What a tRPC error that no AppError explains (tRPC's own refusals) means. */
const CODE_OF_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  PARSE_ERROR: "validation_failed",
  BAD_REQUEST: "validation_failed",
  UNAUTHORIZED: "invalid_token",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  METHOD_NOT_SUPPORTED: "method_not_allowed",
  CONFLICT: "conflict",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
  TOO_MANY_REQUESTS: "rate_limited",
  NOT_IMPLEMENTED: "not_configured",
  SERVICE_UNAVAILABLE: "service_unavailable",
};

/** The code of any error a procedure ended with. */
export function errorCodeOf(error: TRPCError): ErrorCode {
  if (error.cause instanceof AppError) return error.cause.code;
  if (error.cause instanceof ZodError) return "validation_failed";
  return CODE_OF_TRPC[error.code] ?? "internal_error";
}

// --- Field errors -------------------------------------------------------------------------------

function fieldName(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join(".") : "body";
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return "is required";
  return issue.message;
}

type Schema = z.core.$ZodType;

/** The schemas that read the value at `path` of `schema`'s input, through optional, default, pipe… */
function schemasAt(schema: Schema | undefined, path: readonly PropertyKey[]): Schema[] {
  if (!schema) return [];
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return schemasAt(def.innerType as Schema, path);
    case "pipe":
      return [...schemasAt(def.in as Schema, path), ...schemasAt(def.out as Schema, path)];
    case "lazy":
      return schemasAt((def.getter as () => Schema)(), path);
  }
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === "object") return schemasAt((def.shape as Record<string, Schema>)[String(head)], rest);
  if (def.type === "array" && typeof head === "number") return schemasAt(def.element as Schema, rest);
  if (def.type === "record") return schemasAt(def.valueType as Schema, rest);
  if (def.type === "union") return (def.options as Schema[]).flatMap((o) => schemasAt(o, path));
  return [];
}

const ORIGIN_TYPES: Record<string, string[]> = { string: ["string"], array: ["array", "set"], number: ["number", "int", "bigint"] };

/** The declared bounds (length, item count or value) of the schemas at an issue's path whose type is `origin`. */
function declaredBounds(schemas: Schema[], origin: string): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  for (const schema of schemas) {
    const def = schema._zod.def as unknown as { type: string; checks?: { _zod: { def: Record<string, unknown> } }[] };
    if (!(ORIGIN_TYPES[origin] ?? [origin]).includes(def.type)) continue;
    for (const check of def.checks ?? []) {
      const c = check._zod.def;
      if ((c.check === "min_length" || c.check === "min_size") && typeof c.minimum === "number") out.min ??= c.minimum;
      if ((c.check === "max_length" || c.check === "max_size") && typeof c.maximum === "number") out.max ??= c.maximum;
      if (c.check === "length_equals" && typeof c.length === "number") out.min ??= out.max ??= c.length;
      if (c.check === "greater_than" && typeof c.value === "number") out.min ??= c.value;
      if (c.check === "less_than" && typeof c.value === "number") out.max ??= c.value;
    }
  }
  return out;
}

/** Every rule, for the document and for checking what a custom check declares. */
export const FIELD_RULES = [
  "required", "type", "too_short", "too_long", "too_few", "too_many", "too_small", "too_big", "format", "enum",
  "unknown_field", "not_above", "invalid",
] as const satisfies readonly FieldRule[];
const RULES = new Set<string>(FIELD_RULES);

function sizeRule(origin: string, small: boolean): FieldRule {
  if (origin === "string") return small ? "too_short" : "too_long";
  if (origin === "array" || origin === "set") return small ? "too_few" : "too_many";
  return small ? "too_small" : "too_big";
}

/** The machine-readable part of one zod issue: its rule and the bounds, format or options it names. */
function ruleOf(issue: z.core.$ZodIssue, schemas: Schema[]): Omit<FieldError, "field" | "message"> {
  switch (issue.code) {
    case "invalid_type":
      return { rule: /received undefined/.test(issue.message) || issue.message.endsWith(": is required") ? "required" : "type" };
    case "too_small":
    case "too_big": {
      const origin = String(issue.origin);
      const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const declared = declaredBounds(schemas, origin);
      const min = issue.code === "too_small" ? bound : declared.min;
      const max = issue.code === "too_big" ? bound : declared.max;
      return { rule: sizeRule(origin, issue.code === "too_small"), ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
    }
    case "invalid_format": {
      if (issue.format !== "regex") return { rule: "format", format: issue.format === "datetime" ? "date-time" : issue.format };
      const source = /^\/(.*)\/[a-z]*$/s.exec(String(issue.pattern ?? ""))?.[1];
      if (source !== undefined && isTrimmedLengthPattern(source)) {
        // Blank, or too short once trimmed: the field's length rule, with its bounds.
        const { min, max } = declaredBounds(schemas, "string");
        return { rule: "too_short", ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
      }
      return { rule: "format", format: "pattern", ...(source !== undefined && { pattern: source }) };
    }
    case "invalid_value":
      return { rule: "enum", options: issue.values.map(String) };
    case "unrecognized_keys":
      return { rule: "unknown_field" };
    case "custom": {
      // A custom check names its rule (and what the sentence needs) in `params`.
      const params = (issue.params ?? {}) as Record<string, unknown>;
      const rule = typeof params.rule === "string" && RULES.has(params.rule) ? (params.rule as FieldRule) : "invalid";
      const out: Omit<FieldError, "field" | "message"> = { rule };
      if (typeof params.min === "number") out.min = params.min;
      if (typeof params.max === "number") out.max = params.max;
      if (typeof params.format === "string") out.format = params.format;
      if (typeof params.pattern === "string") out.pattern = params.pattern;
      if (typeof params.other === "string") out.other = params.other;
      return out;
    }
    default:
      return { rule: "invalid" };
  }
}

/**
 * One error per zod issue: the field (a dotted path; "body" for the whole input), the message and
 * the rule. With the input schema, size rules carry both bounds of the field, not just the one crossed.
 */
export function fieldErrors(error: ZodError, input?: Schema): FieldError[] {
  return error.issues.map((issue) => ({ field: fieldName(issue.path), message: issueMessage(issue), ...ruleOf(issue, schemasAt(input, issue.path)) }));
}

/** "value: must be between 0 and 1; tags: at most 10 tags are allowed" */
export function validationDetail(errors: FieldError[]): string {
  return errors.map((e) => (e.message.startsWith(`${e.field}:`) ? e.message : `${e.field}: ${e.message}`)).join("; ");
}

/**
 * The fields of a validation message the services write ("field: rule", several joined by "; "): every
 * `validation_failed` names its fields; a message that names none is about the whole request ("body").
 */
export function fieldsOfMessage(message: string): FieldError[] {
  const parts = message.split(/;\s+/).filter(Boolean);
  return parts.map((part) => {
    const field = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*): /.exec(part)?.[1];
    return { field: field ?? "body", message: part, rule: "invalid" as const };
  });
}

// --- Procedures' input schemas ------------------------------------------------------------------

type ProcedureDefs = Record<string, { _def: { inputs?: unknown[] } } | undefined>;
let procedures: ProcedureDefs = {};

/**
 * The router whose input schemas the bounds of field errors are read from (server/api/root.ts sets
 * it): a too-short statement's error also says how long it may be.
 */
export function knowInputSchemas(router: { _def: { procedures: object } }): void {
  procedures = router._def.procedures as ProcedureDefs;
}

function inputSchemaOf(path: string | undefined): Schema | undefined {
  const input = path === undefined ? undefined : procedures[path]?._def.inputs?.[0];
  return input && typeof input === "object" && "_zod" in input ? (input as Schema) : undefined;
}

// --- The body -----------------------------------------------------------------------------------

/**
 * The contract's body of an error a procedure ended with. `path` (the procedure's, e.g.
 * `claims.create`) lets field errors carry the bounds its input declares.
 */
export function errorBody(error: TRPCError, path?: string): ErrorBody {
  const cause = error.cause;
  if (cause instanceof ZodError) {
    const errors = fieldErrors(cause, inputSchemaOf(path));
    return { code: "validation_failed", detail: validationDetail(errors), errors };
  }
  if (cause instanceof AppError) {
    const body: ErrorBody = { code: cause.code, detail: cause.message };
    if (cause.fieldErrors?.length) body.errors = cause.fieldErrors;
    else if (cause.code === "validation_failed") body.errors = fieldsOfMessage(cause.message);
    return { ...body, ...cause.extra };
  }
  const code = errorCodeOf(error);
  // tRPC writes its code as the message of an error made without one.
  const message = error.message === error.code ? "" : error.message;
  if (code === "internal_error") return { code, detail: INTERNAL_ERROR };
  if (code === "invalid_token") return { code, detail: message || "Invalid or expired token" };
  if (code === "forbidden" && !message) return { code, detail: "Insufficient permissions" };
  const detail = message || "Request failed";
  return code === "validation_failed" ? { code, detail, errors: fieldsOfMessage(detail) } : { code, detail };
}

/** The one conversion of a service error into tRPC's (the base procedure's middleware calls it). */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: API_ERRORS[error.code].trpc, message: error.message, cause: error });
}

/** The codes a status answers with, in the table's order. */
export function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(API_ERRORS) as ErrorCode[]).filter((code) => API_ERRORS[code].status === status);
}
