// The process's logger: pino, one JSON object a line in production (for a log shipper), readable lines
// in development. Written through the output guard (safe-output.ts), so a closed pipe never throws or
// loops. Every line logged while a request is handled carries its request id (request-context.ts).
//
// Secrets: request lines are built from method, route, status and duration only — never headers, query
// strings or bodies — and `redact` removes the usual credential fields from anything else logged.
// Request lines go through a sibling logger without `redact` (requestLog()): pino's wildcard
// redaction costs ≈27 µs a line, a quarter of a cheap API request (docs/benchmarks/2026-11-25-api-and-votes.md).
import pino, { type Logger } from "pino";
import { config } from "../config.ts";
import { currentRequestId } from "./request-context.ts";
import { outputDestination, safeWrite } from "./safe-output.ts";
import { processSingleton } from "../process-singleton.ts";

const REDACTED_KEYS = [
  "password",
  "new_password",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "key",
  "secret",
  "authorization",
  "cookie",
  "set-cookie",
];

/** Paths pino removes: credential fields at the top level, one and two levels down, and in headers. */
export const REDACT_PATHS = [
  ...REDACTED_KEYS.map((k) => `["${k}"]`),
  ...REDACTED_KEYS.map((k) => `*["${k}"]`),
  ...REDACTED_KEYS.map((k) => `*.*["${k}"]`),
  'req.headers["authorization"]',
  'req.headers["cookie"]',
  'res.headers["set-cookie"]',
];

const LEVEL_NAMES: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };

/** Renders pino's JSON line as `12:03:04 INFO  GET /api/v1/claims 200 12 ms  req=…`. */
export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, pid: _pid, hostname: _host, err, ...rest } = o;
  const t = new Date(typeof time === "number" ? time : Date.now()).toTimeString().slice(0, 8);
  const lvl = (LEVEL_NAMES[level as number] ?? String(level)).padEnd(5);
  const extras = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  const e = err as { stack?: string; message?: string } | undefined;
  const errText = e ? `\n${e.stack ?? e.message ?? JSON.stringify(e)}` : "";
  return `${t} ${lvl} ${msg ?? ""}${extras ? `  ${extras}` : ""}${errText}\n`;
}

function prettyDestination(): { write(text: string): boolean } {
  return {
    write(text) {
      safeWrite(level30orLess(text) ? "stdout" : "stderr", prettyLine(text));
      return true;
    },
  };
}

function level30orLess(line: string): boolean {
  const m = /"level":(\d+)/.exec(line);
  return !m || Number(m[1]) <= 30;
}

export interface LoggerOptions {
  level: string;
  format: "json" | "pretty";
  /** Where JSON lines go (default: standard output through the guard). */
  destination?: { write(text: string): boolean };
  /**
   * Leave out the credential redaction (and the request-id mixin): only for lines whose fields are
   * fixed and free of credentials by construction — the request line (requestLog()).
   */
  plain?: boolean;
}

/**
 * Request lines are gathered and written together: a write to standard output is a system call, and
 * one per request — waking whoever reads the pipe each time — was 10–13 % of the CPU of a cached API
 * answer (docs/benchmarks/2026-11-25-api-path.md). Written when 16 KB have gathered, 50 ms after the
 * first line waiting, and at exit; a line may so appear up to 50 ms after lines logged later.
 */
export const REQUEST_LINES_FLUSH_MS = 50;
const REQUEST_LINES_MAX_BYTES = 16_384;

function batchedDestination(write: (text: string) => void): { write(text: string): boolean } {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending === "") return;
    const text = pending;
    pending = "";
    write(text);
  };
  process.once("exit", flush);
  return {
    write(text) {
      pending += text;
      if (pending.length >= REQUEST_LINES_MAX_BYTES) flush();
      else if (!timer) {
        timer = setTimeout(flush, REQUEST_LINES_FLUSH_MS);
        timer.unref();
      }
      return true;
    },
  };
}

export function createLogger(opts: LoggerOptions): Logger {
  return pino(
    {
      level: opts.level,
      base: { pid: process.pid },
      ...(opts.plain
        ? {}
        : {
            redact: { paths: REDACT_PATHS, censor: "[redacted]" },
            mixin: () => {
              const id = currentRequestId();
              return id ? { request_id: id } : {};
            },
          }),
      formatters: { level: (_label, number) => ({ level: number }) },
    },
    opts.destination ?? (opts.format === "pretty" ? prettyDestination() : outputDestination("stdout")),
  );
}

function loggerOptions(): LoggerOptions {
  const cfg = config();
  return { level: cfg.LOG_LEVEL, format: cfg.LOG_FORMAT || (cfg.NODE_ENV === "production" ? "json" : "pretty") };
}

/** The process's logger (LOG_LEVEL, LOG_FORMAT). */
export function log(): Logger {
  return processSingleton("claims.logger", () => createLogger(loggerOptions()));
}

/**
 * The request line's logger (server/http/request-log.ts): the same level, format and output as log(),
 * without redaction — its fields (id, method, route, path, status, duration) never hold a credential.
 */
export function requestLog(): Logger {
  return processSingleton("claims.requestLogger", () => {
    const opts = loggerOptions();
    const destination = opts.format === "json" ? batchedDestination((text) => safeWrite("stdout", text)) : undefined;
    return createLogger({ ...opts, plain: true, destination });
  });
}

/** Logs an unexpected failure with its request id; never throws (a logger must not break the caller). */
export function logError(msg: string, err?: unknown): void {
  try {
    log().error(err instanceof Error ? { err } : err === undefined ? {} : { detail: String(err) }, msg);
  } catch {
    /* nothing left to tell it to */
  }
}

/**
 * A warning about a failure that is handled (a shared store unreachable, answered from memory): the
 * failure's message only, no stack; never throws.
 */
export function logWarn(msg: string, err?: unknown): void {
  try {
    log().warn(err === undefined ? {} : { detail: err instanceof Error ? err.message : String(err) }, msg);
  } catch {
    /* nothing left to tell it to */
  }
}

/**
 * Start and stop lines ("Ready on …", shutdown progress): written at info even when LOG_LEVEL is
 * error or warn (supervisors and tests wait for them); only LOG_LEVEL=silent silences them.
 */
export function lifecycleLog(): Logger {
  const l = log();
  return l.level === "silent" ? l : l.child({}, { level: "info" });
}
