// The one error mapping of every way in (docs/architecture.md#the-door): an error's body
// {code, detail, errors?}, its status (by code, from the table in server/errors.ts), and the headers a
// refusal carries. Also the headers of the API's own answers (security, CORS, X-RateLimit-*), the
// answers the ways in write before any procedure (429, 413, 415, 405, 404, a body that is not a JSON
// object, a foreign origin) and the shapes an error takes on each transport: an HTTP answer, tRPC's
// `data.error_code`, an MCP tool result. Nothing else writes an error body.
import type { ServerResponse } from "node:http";
import { isDatabaseBusy } from "../db/client.ts";
import {
  AppError,
  DATABASE_BUSY,
  ERROR_EXTRA_FIELDS,
  INTERNAL_ERROR,
  isErrorCode,
  statusOf,
  type ErrorCode,
  type ErrorBody,
  type FieldError,
} from "../errors.ts";
import { logError } from "../log/logger.ts";
import type { RateLimitResult } from "../ratelimit/index.ts";

/** An error's body as every way in sends it: one definition, beside the table of codes. */
export type { ErrorBody };

/** An answer, whatever the transport writes it with (node's response, a Web Response, the REST adapter's). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON or HTML text; null for none. */
  body: string | null;
}

// ---- headers ----

/**
 * Every /api/v1 answer: no sniffing, no referrer, nothing to run or frame, nothing cached, and CORS for
 * any origin: the API takes Bearer credentials only, never cookies, so no origin can act as a visitor.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Last-Modified",
  Vary: "Authorization",
};

/** What a preflight of /api/v1 answers beside API_HEADERS. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Methods": "GET, POST, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Max-Age": "600",
};

/** Documents any origin may read (the OAuth metadata MCP clients fetch): CORS without credentials. */
export const PUBLIC_DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "X-Content-Type-Options": "nosniff",
};

/** Where a budget stands (docs/security.md#rate-limits), and when to come back once it is spent. */
export function rateLimitHeaders(limit: RateLimitResult | undefined): Record<string, string> {
  if (!limit) return {};
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(limit.limit),
    "X-RateLimit-Remaining": String(limit.remaining),
    "X-RateLimit-Reset": String(limit.reset),
  };
  if (!limit.success) headers["Retry-After"] = String(limit.retryAfter);
  return headers;
}

/** Retry-After of a 503 (a statement cut off by the statement timeout): the load is usually passing. */
const BUSY_RETRY_AFTER_SECONDS = "1";

// ---- error bodies ----

/** A spent budget. */
export const RATE_LIMITED_BODY: ErrorBody = { code: "rate_limited", detail: "Rate limit exceeded" };

/** A spent budget where the refusal travels as an error (the web tRPC endpoint's context). */
export const rateLimitedError = () => new AppError(RATE_LIMITED_BODY.code, RATE_LIMITED_BODY.detail);

/** A body the door writes itself. */
export function errorBodyOf(code: ErrorCode, detail: string): ErrorBody {
  return { code, detail };
}

/**
 * A request whose `field` breaks a rule, named in `errors` as every validation failure names its fields
 * (`field`, "malformed JSON" → detail "body: malformed JSON"; `rule`: the rule for programs, FieldRule).
 */
export function invalidField(field: string, text: string, rule: Omit<FieldError, "field" | "message"> = { rule: "invalid" }): ErrorBody {
  const message = `${field}: ${text}`;
  return { code: "validation_failed", detail: message, errors: [{ field, message, ...rule }] };
}

/** The same for a sentence that is not "field: rule" (it stays the detail, and the field's message). */
export function invalidFieldSentence(field: string, sentence: string): ErrorBody {
  return { code: "validation_failed", detail: sentence, errors: [{ field, message: sentence, rule: "invalid" }] };
}

/** Every request body is read through one bounded reader (server/http/body-limit.ts) and stops here unless a route says otherwise. */
export const MAX_BODY_BYTES = 256 * 1024;

/** A body over `limitBytes`. */
export const payloadTooLarge = (limitBytes = MAX_BODY_BYTES): ErrorBody =>
  errorBodyOf("payload_too_large", `Request body too large (limit ${limitBytes / 1024} KiB)`);

export const NOT_JSON: ErrorBody = errorBodyOf("unsupported_media_type", "Content-Type must be application/json");
export const NOT_FOUND: ErrorBody = errorBodyOf("not_found", "Not found");
export const METHOD_NOT_ALLOWED: ErrorBody = errorBodyOf("method_not_allowed", "Method not allowed");
export const CROSS_SITE: ErrorBody = errorBodyOf("forbidden", "Cross-site request refused");
export const BAD_PATH: ErrorBody = invalidField("path", "malformed percent-encoding", { rule: "format" });
export const INTERNAL: ErrorBody = errorBodyOf("internal_error", INTERNAL_ERROR);
const BUSY: ErrorBody = errorBodyOf("service_unavailable", DATABASE_BUSY);

/**
 * What leaves the server of an error body: an unexpected failure says only `Internal server error`, a
 * statement cut off by the statement timeout only that the database was busy; every other 5xx (a sign-in
 * provider not configured, no mail server) says what it is. Extra fields go only with a 4xx.
 */
function sendable(body: ErrorBody): ErrorBody {
  if (body.code === "internal_error") return INTERNAL;
  if (body.code === "service_unavailable") return BUSY;
  const out: ErrorBody = { code: body.code, detail: body.detail };
  if (body.errors?.length) out.errors = body.errors;
  if (statusOf(body.code) < 500) for (const field of ERROR_EXTRA_FIELDS) if (body[field] !== undefined) out[field] = body[field];
  return out;
}

/**
 * The one error answer: the status the body's code has, the body, no caching, and the retry hints — a
 * spent budget's Retry-After and X-RateLimit-* (`limit`), a busy database's Retry-After. `headers` are
 * the transport's own (CORS, WWW-Authenticate, Allow…).
 */
export function errorAnswer(body: ErrorBody, opts: { limit?: RateLimitResult; headers?: Record<string, string>; text?: boolean } = {}): Answer {
  const sent = sendable(body);
  const headers: Record<string, string> = {
    "Content-Type": opts.text ? "text/plain; charset=utf-8" : "application/json",
    "Cache-Control": "no-store",
    ...opts.headers,
    ...rateLimitHeaders(opts.limit),
  };
  if (sent.code === "service_unavailable") headers["Retry-After"] = BUSY_RETRY_AFTER_SECONDS;
  // `text`: where the answer is read as text (the agents' site), the detail is the body.
  return { status: statusOf(sent.code), headers, body: opts.text ? `${sent.detail}\n` : JSON.stringify(sent) };
}

/**
 * A spent budget: 429 with Retry-After, and the budget's X-RateLimit-* headers where the budget is one
 * the API documents (`budgetHeaders: false` for the page budget, the OAuth endpoints and the live streams,
 * which answer Retry-After only).
 */
export function rateLimited(limit: RateLimitResult, { budgetHeaders = true, headers }: { budgetHeaders?: boolean; headers?: Record<string, string> } = {}): Answer {
  if (budgetHeaders) return errorAnswer(RATE_LIMITED_BODY, { limit, headers });
  return errorAnswer(RATE_LIMITED_BODY, { headers: { ...headers, "Retry-After": String(limit.retryAfter) } });
}

/** A body over the limit: 413, and the connection closes (the rest of the body is never read; node would otherwise drain it to reuse the socket). */
export const bodyTooLarge = (limitBytes = MAX_BODY_BYTES): Answer => errorAnswer(payloadTooLarge(limitBytes), { headers: { Connection: "close" } });

/**
 * The body of a failure nobody turned into an error: a statement cut off by the statement timeout is the
 * busy database's 503, anything else is logged (with the request id) and answered 500.
 */
export function failureBody(err: unknown, logLine: string): ErrorBody {
  if (isDatabaseBusy(err)) return BUSY;
  logError(logLine, err);
  return INTERNAL;
}

/**
 * An error body as a procedure's answer carries it over tRPC (the shape its error formatter made):
 * `detail`, `errors` and the extra fields beside tRPC's own, the code in `data.error_code`. Null when
 * the text is not one (trpc-to-openapi's own answers before a procedure runs).
 */
export function errorBodyFromShape(text: string): ErrorBody | null {
  let shape: Record<string, unknown> & { data?: { error_code?: unknown } };
  try {
    shape = JSON.parse(text) as typeof shape;
  } catch {
    return null;
  }
  const code = shape.data?.error_code;
  if (!isErrorCode(code) || typeof shape.detail !== "string") return null;
  const body: ErrorBody = { code, detail: shape.detail };
  if (Array.isArray(shape.errors)) body.errors = shape.errors as FieldError[];
  for (const field of ERROR_EXTRA_FIELDS) if (typeof shape[field] === "string") body[field] = shape[field];
  return body;
}

/** The fields of an error body that go beside tRPC's own in its error shape: `code` goes to `data.error_code` (tRPC's `code` keeps its meaning). */
export function trpcErrorFields(body: ErrorBody): { error_code: ErrorCode; fields: Omit<ErrorBody, "code"> } {
  const { code, ...fields } = sendable(body);
  return { error_code: code, fields };
}

/** An MCP tool call refused: the detail as its text, the body's code and detail as its structured content. */
export function toolError(body: ErrorBody): { content: { type: "text"; text: string }[]; isError: true; structuredContent: Record<string, unknown> } {
  const sent = sendable(body);
  return { content: [{ type: "text", text: sent.detail }], isError: true, structuredContent: { ...sent } };
}

// ---- answers for browsers ----

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

const PAGE_HEADERS = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

/** A page render over the page budget: a plain page a person can read, with Retry-After. */
export function pageRateLimited(limit: RateLimitResult, method: string | undefined): Answer {
  const body = page("Too many requests", `Please wait ${limit.retryAfter} seconds and try again.`);
  return { status: statusOf("rate_limited"), headers: { ...PAGE_HEADERS, "Retry-After": String(limit.retryAfter) }, body: method === "HEAD" ? null : body };
}

/** A page address that does not decode to text. */
export const BAD_PATH_PAGE: Answer = { status: statusOf(BAD_PATH.code), headers: PAGE_HEADERS, body: page("Bad request", "The address is malformed.") };

// ---- writing an answer ----

/** The answer on a node response (the node-level guard), with its length. */
export function writeAnswer(res: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | number> = { ...answer.headers };
  if (answer.body !== null) headers["Content-Length"] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(answer.body ?? undefined);
}

/** The answer as a Web Response (route handlers). */
export function toResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
