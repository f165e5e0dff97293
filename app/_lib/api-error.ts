// What the server said about a failed call, ready to show next to the fields: its `code`, a sentence
// for it and, for validation errors, one sentence per field (from the error shape's `errors`), all
// chosen by code and rule (human-errors.ts), never by the API's wording.
import { TRPCClientError } from "@trpc/client";
import { CODE_FIELDS, humanError, humanFieldErrors, topField, type FieldProblem } from "./human-errors.ts";

export interface ApiError {
  /** The API's code (docs/api.md#errors); null when the server was not reached. */
  code: string | null;
  /** A sentence for people. */
  detail: string;
  status: number | null;
  /** field name → message, e.g. { statement: "The statement must be 10 to 5000 characters long." } */
  fields: Record<string, string>;
  /** Fields the server sent beside detail (server/errors.ts), e.g. the claim a duplicate names. */
  extra: { existing_claim_id?: string };
}

interface ErrorShape {
  existing_claim_id?: unknown;
  detail?: unknown;
  errors?: unknown;
  data?: { httpStatus?: unknown; error_code?: unknown };
}

function fieldProblems(errors: unknown): FieldProblem[] {
  if (!Array.isArray(errors)) return [];
  return errors.filter((e): e is FieldProblem => typeof e?.field === "string" && typeof e?.message === "string");
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof TRPCClientError) {
    const shape = (error.shape ?? {}) as ErrorShape;
    const status = typeof shape.data?.httpStatus === "number" ? shape.data.httpStatus : null;
    const code = typeof shape.data?.error_code === "string" ? shape.data.error_code : null;
    const problems = fieldProblems(shape.errors);
    const byField = new Map<string, FieldProblem[]>();
    for (const e of problems) byField.set(topField(e.field), [...(byField.get(topField(e.field)) ?? []), e]);
    const fields: Record<string, string> = Object.fromEntries([...byField].map(([field, list]) => [field, humanFieldErrors(list)]));
    const detailText = typeof shape.detail === "string" ? shape.detail : error.message || "Request failed";
    const detail = humanError(code ?? undefined, detailText, problems);
    // A code about one field (a taken email address) is shown at that field.
    const codeField = code ? CODE_FIELDS[code as keyof typeof CODE_FIELDS] : undefined;
    if (codeField && !fields[codeField]) fields[codeField] = detail;
    const extra = typeof shape.existing_claim_id === "string" ? { existing_claim_id: shape.existing_claim_id } : {};
    return { code, detail, status, fields, extra };
  }
  return { code: null, detail: "Could not reach the server. Check your connection and try again.", status: null, fields: {}, extra: {} };
}

/** The message for one field, if the server named it. */
export function fieldMessage(error: ApiError | null, field: string): string | undefined {
  return error?.fields[field];
}

/** The message to show above the form: the detail unless every part of it is already shown by a field. */
export function formMessage(error: ApiError | null, shownFields: readonly string[]): string | undefined {
  if (!error) return undefined;
  const fieldNames = Object.keys(error.fields);
  if (fieldNames.length > 0 && fieldNames.every((f) => shownFields.includes(f))) return undefined;
  return error.detail;
}

/** The error without the message of a field the person has just changed (the rest stays until the next try). */
export function withoutField(error: ApiError | null, field: string): ApiError | null {
  if (!error || !(field in error.fields)) return error;
  const fields = { ...error.fields };
  delete fields[field];
  return Object.keys(fields).length === 0 ? null : { ...error, fields };
}
