// What the server said about a failed call, ready to show next to the fields: the contract's
// `detail` and, for validation errors, one message per field (from the error shape's `errors`), each
// put into sentences a person can act on (human-errors.ts).
import { TRPCClientError } from "@trpc/client";
import { humanError } from "./human-errors.ts";

export interface ApiError {
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
  data?: { httpStatus?: unknown };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof TRPCClientError) {
    const shape = (error.shape ?? {}) as ErrorShape;
    const status = typeof shape.data?.httpStatus === "number" ? shape.data.httpStatus : null;
    const fields: Record<string, string> = {};
    if (Array.isArray(shape.errors)) {
      for (const e of shape.errors as { field?: unknown; message?: unknown }[]) {
        if (typeof e.field !== "string" || typeof e.message !== "string") continue;
        const field = e.field.split(".")[0];
        fields[field] = fields[field] ? `${fields[field]}; ${e.message}` : e.message;
      }
      for (const field of Object.keys(fields)) fields[field] = humanError(fields[field]);
    }
    const detail = typeof shape.detail === "string" ? shape.detail : error.message || "Request failed";
    const extra = typeof shape.existing_claim_id === "string" ? { existing_claim_id: shape.existing_claim_id } : {};
    if (status === 401) return { detail: "Your session has ended. Please sign in again.", status, fields, extra };
    if (status === 429) return { detail: "Too many requests. Please wait a minute and try again.", status, fields, extra };
    return { detail: humanError(detail), status, fields, extra };
  }
  return { detail: "Could not reach the server. Check your connection and try again.", status: null, fields: {}, extra: {} };
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
