// The service's own errors: what services, auth, mail and the rules below the API throw when a request
// cannot be done. They know nothing of tRPC or HTTP; server/api/errors.ts turns an AppError into the
// tRPC error (and so the REST status and the contract's {code, detail, errors?}) with the table below.

/**
 * Every error the service answers, by its stable `code` (docs/api.md#errors): the HTTP status, tRPC's
 * code for it (written out here, checked against tRPC's list in server/api/errors.ts: this file is
 * below tRPC) and what it means. The one table: the tRPC conversion, the transports, the OpenAPI
 * document's error responses and docs/api.md are read from it. A code exists when a program would act
 * differently on it; `detail` is the sentence for people, `code` the word for programs.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 400,
    trpc: "BAD_REQUEST",
    when: "The request is not valid (bad JSON, a wrong type, an out-of-range or unknown value, a bad query parameter): `detail` names the field and the rule, `errors` lists each field",
  },
  invalid_link: {
    status: 400,
    trpc: "BAD_REQUEST",
    when: "A mailed link's token (password reset, email verification) is invalid, used or expired: ask for a new link",
  },
  unauthenticated: {
    status: 401,
    trpc: "UNAUTHORIZED",
    when: "No credential where one is needed (`Invalid or expired token`): sign in or send a token or API key",
  },
  invalid_token: {
    status: 401,
    trpc: "UNAUTHORIZED",
    when: "A credential was sent but is malformed, expired or revoked, or a refresh token was sent as an access token (`Invalid or expired token`; a one-time code: `Invalid or expired code`): get a new one",
  },
  invalid_credentials: {
    status: 401,
    trpc: "UNAUTHORIZED",
    when: "Sign-in with an unknown email address or a wrong password (`Invalid email or password`)",
  },
  forbidden: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "The credential is valid but the action is not allowed (`Insufficient permissions`): an API key without the scope, a member calling moderation, a vote on one's own claim or evidence, someone else's comment",
  },
  confirmation_failed: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "The current password (or, for an account without one, the typed username) does not match (`Insufficient permissions`)",
  },
  account_suspended: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "Sign-in or refresh of a suspended account (`Account suspended`)",
  },
  insufficient_standing: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "Proposing or disputing a claim's outcome needs standing (a verified account old enough, with enough votes)",
  },
  insufficient_reputation: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "Proposing a claim's outcome needs at least the server's minimum reputation (`OUTCOME_MIN_REPUTATION`)",
  },
  own_proposal: {
    status: 403,
    trpc: "FORBIDDEN",
    when: "A proposed outcome cannot be disputed by the account that proposed it",
  },
  not_found: {
    status: 404,
    trpc: "NOT_FOUND",
    when: "Unknown resource or route (`Claim not found`, `Agent not found`, …, `Not found`); a malformed id is an unknown one",
  },
  method_not_allowed: {
    status: 405,
    trpc: "METHOD_NOT_SUPPORTED",
    when: "A known path with a method it does not take (`Allow` lists those it does)",
  },
  conflict: {
    status: 409,
    trpc: "CONFLICT",
    when: "The resource changed meanwhile (a report already resolved)",
  },
  duplicate_claim: {
    status: 409,
    trpc: "CONFLICT",
    when: "A claim with this statement exists: `existing_claim_id` names it",
  },
  duplicate_argument: {
    status: 409,
    trpc: "CONFLICT",
    when: "The claim already stands under that claim as an argument",
  },
  already_reported: {
    status: 409,
    trpc: "CONFLICT",
    when: "The caller already has an open report on this target",
  },
  email_taken: {
    status: 409,
    trpc: "CONFLICT",
    when: "An account with this email address exists",
  },
  username_taken: {
    status: 409,
    trpc: "CONFLICT",
    when: "The username is taken (or was used by a deleted account)",
  },
  check_immutable: {
    status: 409,
    trpc: "CONFLICT",
    when: "The claim has votes: its check's terms no longer change (add a clarification instead)",
  },
  edit_locked: {
    status: 409,
    trpc: "CONFLICT",
    when: "The claim or evidence has votes: its text no longer changes, so every vote stays a vote on what it says",
  },
  outcome_not_open: {
    status: 409,
    trpc: "CONFLICT",
    when: "The claim's check is not at that step: no outcome is proposed before `check_at` or twice, disputed after its window or twice, or settled unless disputed",
  },
  payload_too_large: {
    status: 413,
    trpc: "PAYLOAD_TOO_LARGE",
    when: "A request body over 256 KiB",
  },
  unsupported_media_type: {
    status: 415,
    trpc: "UNSUPPORTED_MEDIA_TYPE",
    when: "A request body that is not `application/json`",
  },
  rate_limited: {
    status: 429,
    trpc: "TOO_MANY_REQUESTS",
    when: "`Rate limit exceeded`: wait `Retry-After` seconds",
  },
  too_many_password_failures: {
    status: 429,
    trpc: "TOO_MANY_REQUESTS",
    when: "Too many wrong passwords for this account from this client: further tries are refused for a while, a password reset still works",
  },
  internal_error: {
    status: 500,
    trpc: "INTERNAL_SERVER_ERROR",
    when: "An unexpected failure (`Internal server error`): a bug, never a stack trace or a database message",
  },
  not_configured: {
    status: 501,
    trpc: "NOT_IMPLEMENTED",
    when: "Not configured on this server (a sign-in provider without credentials)",
  },
  service_unavailable: {
    status: 503,
    trpc: "SERVICE_UNAVAILABLE",
    when: "The database took too long to answer: try again after `Retry-After`",
  },
  mail_not_configured: {
    status: 503,
    trpc: "SERVICE_UNAVAILABLE",
    when: "The server sends no mail (no SMTP configured): mailed links cannot be asked for",
  },
  mail_not_sent: {
    status: 503,
    trpc: "SERVICE_UNAVAILABLE",
    when: "The mail server refused or failed: try again later",
  },
} as const satisfies Record<string, { status: number; trpc: string; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Every code, in the table's order. */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

/** The status an error code answers with. */
export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/**
 * The rule a field broke, for programs (the web UI words it for people): from zod's issue codes, or
 * declared by a custom check (`params: { rule }`). Size rules carry the bounds the field has (`min`,
 * `max`: characters, items or the value), a format its `format` (and a pattern its `pattern`), a
 * choice its `options`.
 */
export type FieldRule =
  | "required"
  | "type"
  | "too_short"
  | "too_long"
  | "too_few"
  | "too_many"
  | "too_small"
  | "too_big"
  | "format"
  | "enum"
  | "unknown_field"
  | "not_above"
  | "invalid";

export interface FieldError {
  field: string;
  message: string;
  rule?: FieldRule;
  min?: number;
  max?: number;
  /** `email`, `url`, `uuid`, `date-time`, `pattern`… */
  format?: string;
  /** The regular expression of a `pattern` format, as the OpenAPI document states it. */
  pattern?: string;
  options?: string[];
  /** The other field a comparison names (`not_above`: min_gradient must not be above max_gradient). */
  other?: string;
}

/**
 * Fields an error body may carry beside "code" and "detail", e.g. the claim a refused duplicate names.
 * The one list of them: the REST adapter keeps exactly these when it reshapes an error.
 */
export interface ErrorExtra {
  existing_claim_id?: string;
}
export const ERROR_EXTRA_FIELDS = ["existing_claim_id"] as const satisfies readonly (keyof ErrorExtra)[];

/** An error's body as every way in sends it (docs/api.md#errors). */
export interface ErrorBody extends ErrorExtra {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
}

export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Per-field errors of a `validation_failed` request (sent as "errors" next to "detail"). */
    readonly fieldErrors?: FieldError[],
    /** Sent beside "detail". */
    readonly extra?: ErrorExtra,
  ) {
    super(message);
  }
}

/** A credential was sent but does not work. */
export const unauthorized = (message = "Invalid or expired token") => new AppError("invalid_token", message);
/** No credential where one is needed (the same words as a bad one: the contract's 401 detail). */
export const unauthenticated = (message = "Invalid or expired token") => new AppError("unauthenticated", message);
export const forbidden = () => new AppError("forbidden", "Insufficient permissions");
/** A current password or typed confirmation that does not match: 403 with the words of any refusal. */
export const confirmationFailed = () => new AppError("confirmation_failed", "Insufficient permissions");
export const notFound = (message = "Not found") => new AppError("not_found", message);
/** A request refused for a rule its fields break: `message` is "field: rule" (the field is derived from it). */
export const badRequest = (message: string) => new AppError("validation_failed", message);
export const conflict = (message: string, code: "conflict" | "duplicate_argument" | "already_reported" = "conflict") =>
  new AppError(code, message);
export const notImplemented = (message: string) => new AppError("not_configured", message);

/** The detail of every unexpected failure: what went wrong stays in the log, never in the answer. */
export const INTERNAL_ERROR = "Internal server error";
/** The body of an unexpected failure, for the places that write a raw response. */
export const INTERNAL_ERROR_BODY = JSON.stringify({ code: "internal_error", detail: INTERNAL_ERROR });

/** What a statement cut off by the database's statement timeout answers (503, with Retry-After). */
export const DATABASE_BUSY = "The database took too long to answer; try again shortly";
export const databaseBusy = () => new AppError("service_unavailable", DATABASE_BUSY);
