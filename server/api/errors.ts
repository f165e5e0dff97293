// Turning any error into the contract's body: {"detail": "..."} (+ "errors" for validation).
// Shared by the REST adapter and the web UI's tRPC endpoint (via the error formatter).
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError, type z } from "zod";
import { AppError, type AppErrorKind, type ErrorExtra, type FieldError } from "../errors.ts";

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
  if (error.code === "INTERNAL_SERVER_ERROR") return { detail: "Internal server error" };
  if (error.code === "UNAUTHORIZED") return { detail: error.message || "Invalid or expired token" };
  if (error.code === "FORBIDDEN" && !error.message) return { detail: "Insufficient permissions" };
  return { detail: error.message || "Request failed" };
}

/** tRPC's code for each kind of the service's errors (tRPC, and trpc-to-openapi after it, derive the HTTP status from it). */
const TRPC_CODE_OF_KIND: Record<AppErrorKind, TRPC_ERROR_CODE_KEY> = {
  invalid: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  too_many_requests: "TOO_MANY_REQUESTS",
  not_implemented: "NOT_IMPLEMENTED",
  busy: "SERVICE_UNAVAILABLE",
};

/** The one conversion of a service error into tRPC's (the base procedure's middleware calls it). */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_OF_KIND[error.kind], message: error.message, cause: error });
}
