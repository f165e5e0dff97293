// Turning any error into the contract's body: {"detail": "..."} (+ "errors" for validation).
// Shared by the REST adapter and the web UI's tRPC endpoint (via the error formatter).
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, type z } from "zod";
import { AppError, INTERNAL_ERROR, type AppErrorKind, type ErrorExtra, type FieldError } from "../errors.ts";

export type { FieldError };

export interface ErrorBody extends ErrorExtra {
  detail: string;
  errors?: FieldError[];
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join(".") : "body";
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) return "is required";
  return issue.message;
}

export function fieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: fieldName(issue.path), message: issueMessage(issue) }));
}

/** "value: must be between 0 and 1; tags: at most 10 tags are allowed" */
export function validationDetail(errors: FieldError[]): string {
  return errors.map((e) => (e.message.startsWith(`${e.field}:`) ? e.message : `${e.field}: ${e.message}`)).join("; ");
}

export function errorBody(error: TRPCError): ErrorBody {
  if (error.cause instanceof ZodError) {
    const errors = fieldErrors(error.cause);
    return { detail: validationDetail(errors), errors };
  }
  if (error.cause instanceof AppError && error.cause.fieldErrors?.length) {
    return { detail: error.message, errors: error.cause.fieldErrors };
  }
  if (error.cause instanceof AppError && error.cause.extra) return { detail: error.message, ...error.cause.extra };
  if (error.code === "INTERNAL_SERVER_ERROR") return { detail: INTERNAL_ERROR };
  if (error.code === "UNAUTHORIZED") return { detail: error.message || "Invalid or expired token" };
  if (error.code === "FORBIDDEN" && !error.message) return { detail: "Insufficient permissions" };
  return { detail: error.message || "Request failed" };
}

interface ErrorEntry {
  /** tRPC's code (tRPC, and trpc-to-openapi after it, derive the HTTP status from it). */
  trpc: TRPC_ERROR_CODE_KEY;
  status: number;
  /** What the OpenAPI document says of this answer. */
  description: string;
}

/**
 * Every error the API answers: each kind of the service's errors, and those the transport decides
 * (bodies it refuses, unexpected failures). The one table: the tRPC conversion below and the OpenAPI
 * document's error responses (server/rest/openapi.ts) are read from it.
 */
export const API_ERRORS = {
  invalid: { trpc: "BAD_REQUEST", status: 400, description: "Validation error: `detail` names the field and the rule" },
  unauthorized: { trpc: "UNAUTHORIZED", status: 401, description: "Missing, malformed, expired or revoked token (`Invalid or expired token`)" },
  forbidden: { trpc: "FORBIDDEN", status: 403, description: "The token is valid but the action is not allowed (`Insufficient permissions`)" },
  not_found: { trpc: "NOT_FOUND", status: 404, description: "Unknown resource" },
  conflict: { trpc: "CONFLICT", status: 409, description: "Conflict with an existing resource" },
  too_large: { trpc: "PAYLOAD_TOO_LARGE", status: 413, description: "Request body over 256 KiB" },
  not_json: { trpc: "UNSUPPORTED_MEDIA_TYPE", status: 415, description: "Request body is not JSON" },
  too_many_requests: { trpc: "TOO_MANY_REQUESTS", status: 429, description: "Rate limit exceeded (see `Retry-After`)" },
  internal: { trpc: "INTERNAL_SERVER_ERROR", status: 500, description: INTERNAL_ERROR },
  not_implemented: { trpc: "NOT_IMPLEMENTED", status: 501, description: "Not configured on this server" },
  busy: { trpc: "SERVICE_UNAVAILABLE", status: 503, description: "Not available now: the database took too long to answer (see `Retry-After`), or `Mail is not configured` on a server without SMTP" },
} as const satisfies Record<AppErrorKind | "too_large" | "not_json" | "internal", ErrorEntry>;

/** The OpenAPI description of an error status. */
export function errorDescription(status: number): string {
  return Object.values(API_ERRORS).find((e) => e.status === status)?.description ?? "Error";
}

/** The one conversion of a service error into tRPC's (the base procedure's middleware calls it). */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: API_ERRORS[error.kind].trpc, message: error.message, cause: error });
}
