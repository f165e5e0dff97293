// The service's own errors: what services, auth and the rules below the API throw when a request
// cannot be done. They know nothing of tRPC or HTTP; server/api/trpc.ts turns an AppError into the
// tRPC error (and so the REST status and {"detail"}) in one middleware, with the table below.

export type AppErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "too_many_requests"
  | "not_implemented"
  | "busy";

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Fields an error body may carry beside "detail", e.g. the claim a refused duplicate names. The one
 * list of them: the REST adapter keeps exactly these when it reshapes an error (server/rest/handler.ts).
 */
export interface ErrorExtra {
  existing_claim_id?: string;
}
export const ERROR_EXTRA_FIELDS = ["existing_claim_id"] as const satisfies readonly (keyof ErrorExtra)[];

export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly kind: AppErrorKind,
    message: string,
    /** Per-field messages of an `invalid` request (sent as "errors" next to "detail"). */
    readonly fieldErrors?: FieldError[],
    /** Sent beside "detail". */
    readonly extra?: ErrorExtra,
  ) {
    super(message);
  }
}

export const unauthorized = (message = "Invalid or expired token") => new AppError("unauthorized", message);
export const forbidden = () => new AppError("forbidden", "Insufficient permissions");
export const notFound = (message = "Not found") => new AppError("not_found", message);
export const badRequest = (message: string) => new AppError("invalid", message);
export const conflict = (message: string, extra?: ErrorExtra) => new AppError("conflict", message, undefined, extra);
export const notImplemented = (message: string) => new AppError("not_implemented", message);

/** The detail of every unexpected failure: what went wrong stays in the log, never in the answer. */
export const INTERNAL_ERROR = "Internal server error";
/** The body of an unexpected failure, for the places that write a raw response. */
export const INTERNAL_ERROR_BODY = JSON.stringify({ detail: INTERNAL_ERROR });

/** What a statement cut off by the database's statement timeout answers (503, with Retry-After). */
export const DATABASE_BUSY = "The database took too long to answer; try again shortly";
export const databaseBusy = () => new AppError("busy", DATABASE_BUSY);
