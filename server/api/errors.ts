// Turning any error into the contract's body: {"detail": "..."} (+ "errors" for validation).
// Shared by the REST adapter and the web UI's tRPC endpoint (via the error formatter).
import { TRPCError } from "@trpc/server";
import { ZodError, type z } from "zod";

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorBody {
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
  if (error.code === "INTERNAL_SERVER_ERROR") return { detail: "Internal server error" };
  if (error.code === "UNAUTHORIZED") return { detail: error.message || "Invalid or expired token" };
  if (error.code === "FORBIDDEN" && !error.message) return { detail: "Insufficient permissions" };
  return { detail: error.message || "Request failed" };
}

export const unauthorized = () => new TRPCError({ code: "UNAUTHORIZED", message: "Invalid or expired token" });
export const forbidden = () => new TRPCError({ code: "FORBIDDEN", message: "Insufficient permissions" });
export const notFound = (message = "Not found") => new TRPCError({ code: "NOT_FOUND", message });
export const badRequest = (message: string) => new TRPCError({ code: "BAD_REQUEST", message });
export const conflict = (message: string) => new TRPCError({ code: "CONFLICT", message });
