// Environment, validated once (docs/operating.md#configuration). A bad value stops the process with a message that names
// the variable. In development and tests, missing secrets are generated once and kept in DATA_DIR so
// that `npm run dev` needs no configuration.
import { createPrivateKey, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { processSingleton } from "./process-singleton.ts";
import { privateSchemeRefusal } from "./domain/redirect-uris.ts";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const secret = (name: string) =>
  optionalString.refine((v) => v === undefined || Buffer.byteLength(v) >= 32, {
    message: `${name} must be at least 32 bytes`,
  });

/** A provider endpoint (a test knob): tests point sign-in at a local OAuth server. */
const endpoint = (name: string, fallback: string) =>
  optionalString
    .transform((v) => v ?? fallback)
    .pipe(z.url({ protocol: /^https?$/, message: `${name} must be an http(s) URL` }));

/**
 * A number variable, with one message for every way its value can be wrong (not a number, not whole,
 * out of range): `${name} must be ${what}`. `tooLarge` words the maximum apart when it deserves it.
 */
function numberVar(
  name: string,
  what: string,
  opts: { whole?: boolean; min?: number; max?: number; above?: number; tooLarge?: string; allowed?: (v: number) => boolean } = {},
) {
  const message = `${name} must be ${what}`;
  let n = z.coerce.number({ message });
  if (opts.whole !== false) n = n.int({ message });
  if (opts.above !== undefined) n = n.gt(opts.above, { message });
  if (opts.min !== undefined) n = n.min(opts.min, { message });
  if (opts.max !== undefined) n = n.max(opts.max, { message: opts.tooLarge ? `${name} must be ${opts.tooLarge}` : message });
  return opts.allowed ? n.refine(opts.allowed, { message }) : n;
}

/** Whether `pem` (newlines as they are, or written as \n in one line) is an Ed25519 private key in PKCS#8 PEM. */
function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey({ key: pem.replace(/\\n/g, "\n"), format: "pem" }).asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

/** A whole-number variable (see numberVar). */
const intVar = (name: string, what: string, opts: Omit<Parameters<typeof numberVar>[2] & {}, "whole"> = {}) => numberVar(name, what, opts);

/**
 * What an operator sets: docs/operating.md#configuration documents each, in this order (by topic).
 * tests/unit/config-docs.test.ts keeps that table and this schema in step.
 */
const operatorSettings = z.object({
  // The server
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  NEXTAUTH_URL: optionalString.pipe(z.url({ message: "NEXTAUTH_URL must be an absolute URL" }).optional()),
  // The number of proxy hops in front of the server that append to X-Forwarded-For (0: none, the
  // socket's peer is the client). `true`/`false` are kept from when it was a switch (true = 1 hop).
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((v) => v.trim().toLowerCase())
    .pipe(
      z
        .string()
        .regex(/^(|\d{1,2}|true|false)$/, { message: "TRUST_PROXY must be a number of trusted proxy hops (0-99; true = 1, false = 0)" })
        .transform((v) => (v === "true" ? 1 : v === "" || v === "false" ? 0 : Number(v))),
    ),
  SHUTDOWN_GRACE_SECONDS: numberVar("SHUTDOWN_GRACE_SECONDS", "a number of seconds between 0 and 600", { whole: false, min: 0, max: 600 })
    .default(10),
  DATA_DIR: z.string().default(".data"),
  /**
   * `npm run dev` loads the demo data into an empty database (auto) or never (off). `start`: what
   * `npm run dev` gives its Next process, which loads it while starting, before any request reads the
   * database (server/seed/on-start.ts).
   */
  DEMO_SEED: z.enum(["auto", "off", "start"], { message: "DEMO_SEED must be auto or off" }).default("auto"),
  // Secrets
  JWT_SECRET: secret("JWT_SECRET"),
  NEXTAUTH_SECRET: secret("NEXTAUTH_SECRET"),
  /** Encrypts webhook signing secrets at rest (server/auth/secret-box.ts). Required in production. */
  WEBHOOK_SECRET_KEY: secret("WEBHOOK_SECRET_KEY"),
  // The database
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: "DATABASE_URL must be a postgres:// or postgresql:// connection string",
  }),
  /** PostgreSQL connections per process for requests (the background work has JOBS_POOL_SIZE). */
  DATABASE_POOL_SIZE: intVar("DATABASE_POOL_SIZE", "a whole number between 1 and 1000", { min: 1, max: 1000 }).default(10),
  /** PostgreSQL cancels any statement of the API that runs longer (0 = never); the caller gets a 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: intVar("DATABASE_STATEMENT_TIMEOUT_MS", "a whole number of milliseconds (0 = no timeout)", { min: 0, max: 600_000, tooLarge: "at most 600000 (10 minutes)" })
    .default(5000),
  /**
   * Named prepared statements for the hottest look-ups (on by default). Off (0/false) behind a pooler that
   * cannot keep them across transactions: PgBouncer before 1.21, or 1.21+ without max_prepared_statements.
   */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["", "0", "1", "true", "false"], { message: "DATABASE_PREPARED_STATEMENTS must be 1/true or 0/false" })
    .default("")
    .transform((v) => v !== "0" && v !== "false"),
  /** A streaming replica of DATABASE_URL: reads outside transactions go there (read-your-writes kept per agent). */
  DATABASE_REPLICA_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: "DATABASE_REPLICA_URL must be a postgres:// or postgresql:// connection string",
  }),
  /** After an agent writes, its reads go to the primary for this long (read-your-writes). */
  REPLICA_STICKY_SECONDS: intVar("REPLICA_STICKY_SECONDS", "a whole number of seconds between 1 and 600", { min: 1, max: 600 })
    .default(5),
  SKIP_MIGRATIONS: z
    .enum(["", "0", "1", "true", "false"], { message: "SKIP_MIGRATIONS must be 1/true or 0/false" })
    .default("")
    .transform((v) => v === "1" || v === "true"),
  // The shared store (Redis or Upstash) for rate limits and caches
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: "REDIS_URL must be a redis:// or rediss:// URL",
  }),
  UPSTASH_REDIS_REST_URL: optionalString.pipe(z.url({ message: "UPSTASH_REDIS_REST_URL must be a URL" }).optional()),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  /** Key prefixes in the shared store: instances of one deployment share them (tests keep theirs apart). */
  RATE_LIMIT_PREFIX: optionalString,
  CACHE_PREFIX: optionalString,
  // Rate limits
  RATE_LIMIT_SCALE: numberVar("RATE_LIMIT_SCALE", "a positive number", { whole: false, above: 0 })
    .default(1),
  /** An IPv6 client is limited by this prefix of its address: one subscriber holds a whole /64 (or more). */
  RATE_LIMIT_IPV6_PREFIX: intVar("RATE_LIMIT_IPV6_PREFIX", "a whole number from 32 to 128", { min: 32, max: 128 })
    .default(64),
  PAGE_RATE_LIMIT: intVar("PAGE_RATE_LIMIT", "a positive whole number (page renders per minute per IP)", { min: 1 })
    .default(600),
  /** Open live streams (claim pages) one client IP may hold in one instance. */
  LIVE_STREAMS_PER_IP: intVar("LIVE_STREAMS_PER_IP", "a whole number between 1 and 10000", { min: 1, max: 10_000 })
    .default(20),
  /**
   * MCP client registrations (POST /oauth/register) one client IP may make per hour, a budget of its own
   * (multiplied by RATE_LIMIT_SCALE): a client that registers on every connect stays well under it, a
   * script filling the client table does not (docs/features/mcp.md#oauth).
   */
  MCP_REGISTRATION_LIMIT: intVar("MCP_REGISTRATION_LIMIT", "a positive whole number (client registrations per hour per IP)", { min: 1 })
    .default(30),
  // Caches
  /**
   * Anonymous page views share one render for this long (server/http/page-cache.ts); 0 turns it off.
   * Unset: 5 in production, 0 under `next dev` (a developer wants every edit on the next load).
   */
  PAGE_CACHE_SECONDS: numberVar("PAGE_CACHE_SECONDS", "a number of seconds between 0 and 60", { whole: false, min: 0, max: 60 })
    .optional(),
  PAGE_CACHE_MAX_MB: intVar("PAGE_CACHE_MAX_MB", "a whole number of megabytes between 1 and 1024", { min: 1, max: 1024 })
    .default(64),
  /** The kept pages' store (server/cache/page-store.ts) holds at most this many megabytes of renders; the oldest go first. */
  PAGE_STORE_MAX_MB: intVar("PAGE_STORE_MAX_MB", "a whole number of megabytes between 1 and 1048576", { min: 1, max: 1_048_576 })
    .default(512),
  TRENDING_CACHE_SECONDS: intVar("TRENDING_CACHE_SECONDS", "a whole number of seconds (0 = no cache)", { min: 0, max: 3600, tooLarge: "at most 3600" })
    .default(30),
  RECOMMENDED_CACHE_SECONDS: intVar("RECOMMENDED_CACHE_SECONDS", "a whole number of seconds (0 = no cache)", { min: 0, max: 3600, tooLarge: "at most 3600" })
    .default(30),
  /** A related-claims set older than this is refreshed in the background on its next read (10–86400). */
  RELATED_REFRESH_SECONDS: intVar("RELATED_REFRESH_SECONDS", "a whole number of seconds between 10 and 86400", { min: 10, max: 86_400 })
    .default(300),
  // Sign-in, mail and admins
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  TWITTER_CLIENT_ID: optionalString,
  TWITTER_CLIENT_SECRET: optionalString,
  /**
   * Mail (password reset, email verification) goes out through this SMTP server, e.g.
   * smtp://user:pass@host:587 or smtps://…:465. Unset: `npm run dev` writes mails to DATA_DIR/mail,
   * production answers the mail endpoints 503 (docs/features/accounts.md).
   */
  SMTP_URL: optionalString.refine((v) => v === undefined || /^smtps?:\/\/[^/]/.test(v), {
    message: "SMTP_URL must be an smtp:// or smtps:// URL",
  }),
  /** The From of every mail; default "Claims <no-reply@<NEXTAUTH_URL's host>>". */
  MAIL_FROM: optionalString,
  /** docs/features/moderation.md: these accounts become admins once their address is verified (docs/features/accounts.md). Stored lower-cased. */
  ADMIN_EMAILS: optionalString.transform((v, ctx) => {
    const emails = (v ?? "").split(",").map((e) => e.trim().toLowerCase()).filter(Boolean);
    const bad = emails.find((e) => !z.email().safeParse(e).success);
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `ADMIN_EMAILS must be a comma-separated list of email addresses (${JSON.stringify(bad)} is not one)` });
      return z.NEVER;
    }
    return emails;
  }),
  /**
   * Private-use URI schemes MCP clients may register as redirect URIs besides the reverse-domain ones
   * (docs/features/mcp.md#oauth): the desktop clients that use a bare name of their own.
   */
  MCP_REDIRECT_SCHEMES: z
    .string()
    .default("cursor,vscode,vscode-insiders,windsurf")
    .transform((v, ctx) => {
      const schemes = v.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
      const bad = schemes.find((s) => privateSchemeRefusal(s) !== null);
      if (bad !== undefined) {
        ctx.addIssue({ code: "custom", message: `MCP_REDIRECT_SCHEMES must be a comma-separated list of URI schemes an app may claim (${JSON.stringify(bad)} ${privateSchemeRefusal(bad)})` });
        return z.NEVER;
      }
      return schemes;
    }),
  // Background work
  /** Whether this process runs the background worker (outbox relay, fan-out, webhook delivery). */
  JOBS_ENABLED: z
    .enum(["", "0", "1", "true", "false"], { message: "JOBS_ENABLED must be 1/true or 0/false" })
    .default("1")
    .transform((v) => v !== "0" && v !== "false"),

  /**
   * PostgreSQL connections of the background work (outbox relay, fan-out, webhook delivery, job queue),
   * a pool of its own beside DATABASE_POOL_SIZE: requests queued for a connection under load do not
   * hold the followers' updates up, nor these the requests.
   */
  JOBS_POOL_SIZE: intVar("JOBS_POOL_SIZE", "a whole number between 1 and 100", { min: 1, max: 100 })
    .default(6),
  // The bridging model's background refit (docs/features/bridging.md): at most this often, one instance at a time.
  BRIDGING_INTERVAL_SECONDS: intVar("BRIDGING_INTERVAL_SECONDS", "a whole number of seconds, 0 (off) or 10-86400", { allowed: (v) => v === 0 || (v >= 10 && v <= 86_400) })
    .default(300),
  // The fit's worker thread runs at this nice value (Linux: a thread's own), so the API's threads come
  // first on a busy host; 0 = the same priority as the API.
  BRIDGING_WORKER_NICE: intVar("BRIDGING_WORKER_NICE", "a whole number from 0 to 19", { min: 0, max: 19 })
    .default(19),
  // A claim resolves once it has held consensus_true/consensus_false this long (docs/features/consensus.md);
  // 0 resolves it in the transaction of the vote that brings it there.
  RESOLUTION_STABLE_SECONDS: intVar("RESOLUTION_STABLE_SECONDS", "a whole number of seconds, 0 or more", { min: 0 })
    .default(1800),
  // Standing (docs/features/consensus.md#standing): only votes of accounts with it decide a claim's status.
  STANDING_MIN_AGE_SECONDS: intVar("STANDING_MIN_AGE_SECONDS", "a whole number of seconds, 0 or more", { min: 0 })
    .default(86_400),
  STANDING_MIN_VOTES: intVar("STANDING_MIN_VOTES", "a whole number from 0 to 1000", { min: 0, max: 1000 })
    .default(5),
  STANDING_REQUIRE_VERIFIED: z
    .enum(["", "0", "1", "true", "false"], { message: "STANDING_REQUIRE_VERIFIED must be 1/true or 0/false" })
    .default("1")
    .transform((v) => v !== "0" && v !== "false"),
  // Checks against the world (docs/features/checks.md): who may propose an outcome, what a proposal or
  // dispute stakes, and how long a proposal may be disputed.
  OUTCOME_MIN_REPUTATION: intVar("OUTCOME_MIN_REPUTATION", "a whole number from 0 to 1000000", { min: 0, max: 1_000_000 })
    .default(10),
  OUTCOME_BOND: intVar("OUTCOME_BOND", "a whole number from 0 to 1000000", { min: 0, max: 1_000_000 })
    .default(5),
  OUTCOME_DISPUTE_SECONDS: intVar("OUTCOME_DISPUTE_SECONDS", "a whole number of seconds from 1 to 2592000", { min: 1, max: 2_592_000 })
    .default(86_400),
  // Open data (docs/features/open-data.md): a signed snapshot of the inputs and verdicts every so many hours.
  DATA_SNAPSHOT_HOURS: intVar("DATA_SNAPSHOT_HOURS", "a whole number of hours, 0 (off) or 1-24", { min: 0, max: 24 })
    .default(24),
  /** Where snapshots are written and served from; unset: DATA_DIR/snapshots. */
  DATA_SNAPSHOT_DIR: optionalString,
  DATA_SNAPSHOTS_KEPT: intVar("DATA_SNAPSHOTS_KEPT", "a whole number from 1 to 1000", { min: 1, max: 1000 })
    .default(7),
  /** The snapshots' Ed25519 signing key (PKCS#8 PEM); unset: generated into DATA_DIR on first use. */
  DATA_SIGNING_KEY: optionalString.refine((v) => v === undefined || isEd25519PrivateKey(v), {
    message: "DATA_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519)",
  }),
  // Logs and metrics
  LOG_LEVEL: z
    .enum(["silent", "fatal", "error", "warn", "info", "debug", "trace"], {
      message: "LOG_LEVEL must be one of silent, fatal, error, warn, info, debug, trace",
    })
    .default("info"),
  /** json: one JSON object a line (pino); pretty: readable lines. Default: json in production, else pretty. */
  LOG_FORMAT: z.enum(["", "json", "pretty"], { message: "LOG_FORMAT must be json or pretty" }).default(""),
  /** The Prometheus endpoint listens on its own port (unset: no metrics endpoint), never on PORT. */
  METRICS_PORT: intVar("METRICS_PORT", "a port number (1-65535)", { min: 1, max: 65535 })
    .optional()
    .or(z.literal("").transform(() => undefined)),
  METRICS_HOST: z.string().trim().min(1, { message: "METRICS_HOST must be an address to listen on" }).default("127.0.0.1"),
  /** When set, GET /metrics also needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, {
    message: "METRICS_TOKEN must be at least 16 characters",
  }),
});

/**
 * Test knobs (docs/testing.md#test-knobs): what the suites set to run the real server against a fake
 * sign-in provider, an in-memory database, a webhook receiver on 127.0.0.1 and a shorter clock. Nothing
 * an operator needs; they are not in the operator's table. They are read in every environment, production
 * included: the smoke, ops and browser tests run the production build with them.
 */
const testKnobs = z.object({
  // The embedded database and its migrations
  /** The embedded database's own directory (default DATA_DIR); `memory://` keeps it in memory. */
  PGLITE_DATA_DIR: optionalString,
  /** Where the migrations are read from (default prisma/migrations under the working directory). */
  MIGRATIONS_DIR: optionalString,
  // Webhooks and live streams on a test's clock and addresses
  /** Lifts the webhook URL rules (https only, public addresses only): the receivers of tests run on 127.0.0.1. */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["", "0", "1", "true", "false"], { message: "WEBHOOK_ALLOW_PRIVATE must be 1/true or 0/false" })
    .default("")
    .transform((v) => v === "1" || v === "true"),
  /** The first retry delay of a failed webhook delivery; each next one is 3 times longer (± jitter). */
  WEBHOOK_RETRY_BASE_MS: intVar("WEBHOOK_RETRY_BASE_MS", "a whole number of milliseconds between 10 and 3600000", { min: 10, max: 3_600_000 })
    .default(60_000),
  /** The comment line an open live stream (SSE) sends when idle, so proxies and browsers keep it open. */
  LIVE_HEARTBEAT_MS: intVar("LIVE_HEARTBEAT_MS", "a whole number of milliseconds between 100 and 60000", { min: 100, max: 60_000 })
    .default(15_000),
  // Sign-in providers' endpoints (defaults: the real providers; tests point them at a local OAuth server)
  GITHUB_AUTHORIZATION_URL: endpoint("GITHUB_AUTHORIZATION_URL", "https://github.com/login/oauth/authorize"),
  GITHUB_TOKEN_URL: endpoint("GITHUB_TOKEN_URL", "https://github.com/login/oauth/access_token"),
  GITHUB_USERINFO_URL: endpoint("GITHUB_USERINFO_URL", "https://api.github.com/user"),
  GITHUB_EMAILS_URL: endpoint("GITHUB_EMAILS_URL", "https://api.github.com/user/emails"),
  /** OpenID Connect issuer; its /.well-known/openid-configuration names the other endpoints. */
  GOOGLE_ISSUER: endpoint("GOOGLE_ISSUER", "https://accounts.google.com"),
  TWITTER_AUTHORIZATION_URL: endpoint("TWITTER_AUTHORIZATION_URL", "https://twitter.com/i/oauth2/authorize"),
  TWITTER_TOKEN_URL: endpoint("TWITTER_TOKEN_URL", "https://api.twitter.com/2/oauth2/token"),
  TWITTER_USERINFO_URL: endpoint("TWITTER_USERINFO_URL", "https://api.twitter.com/2/users/me"),
});

const envSchema = operatorSettings.extend(testKnobs.shape);

/** The names of the operator's settings and of the test knobs, in their schemas' order. */
export const OPERATOR_SETTINGS: readonly string[] = Object.keys(operatorSettings.shape);
export const TEST_KNOBS: readonly string[] = Object.keys(testKnobs.shape);

/**
 * Why a secret of the right length is still guessable, or null. Length alone accepts 32 × "a": the
 * secret must not be one unit repeated, must use at least 8 different characters, and must carry at
 * least 80 bits by its own character frequencies (a generated hex or base64 secret of 32 characters
 * carries 110–150). docs/security.md, "Secrets".
 */
export function guessableSecret(value: string): string | null {
  const advice = "is guessable; generate one (openssl rand -base64 48)";
  if (/^([\s\S]+?)\1+$/.test(value)) return `${advice}: it is one short part repeated`;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  if (counts.size < 8) return `${advice}: fewer than 8 different characters`;
  const length = [...value].length;
  let bits = 0;
  for (const n of counts.values()) bits -= n * Math.log2(n / length);
  if (bits < 80) return `${advice}: about ${Math.floor(bits)} bits, at least 80 needed`;
  return null;
}

export type Config = Omit<z.infer<typeof envSchema>, "PAGE_CACHE_SECONDS"> & {
  JWT_SECRET: string;
  NEXTAUTH_SECRET: string;
  WEBHOOK_SECRET_KEY: string;
  PAGE_CACHE_SECONDS: number;
};

export class ConfigError extends Error {}

type DevSecrets = { JWT_SECRET: string; NEXTAUTH_SECRET: string; WEBHOOK_SECRET_KEY: string };

function loadDevSecrets(dataDir: string): DevSecrets {
  const file = path.join(/*turbopackIgnore: true*/ dataDir, "secrets.json");
  const kept: Partial<DevSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  if (kept.JWT_SECRET && kept.NEXTAUTH_SECRET && kept.WEBHOOK_SECRET_KEY) return kept as DevSecrets;
  // A file from before WEBHOOK_SECRET_KEY keeps its other secrets (sessions and tokens stay valid).
  const secrets: DevSecrets = {
    JWT_SECRET: kept.JWT_SECRET ?? randomBytes(48).toString("base64url"),
    NEXTAUTH_SECRET: kept.NEXTAUTH_SECRET ?? randomBytes(48).toString("base64url"),
    WEBHOOK_SECRET_KEY: kept.WEBHOOK_SECRET_KEY ?? randomBytes(48).toString("base64url"),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "environment"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const cfg = parsed.data;
  if (cfg.DATABASE_REPLICA_URL && !cfg.DATABASE_URL) {
    throw new ConfigError("Invalid configuration:\n  DATABASE_REPLICA_URL: needs DATABASE_URL (a replica of which primary?)");
  }
  if (cfg.UPSTASH_REDIS_REST_URL && !cfg.UPSTASH_REDIS_REST_TOKEN) {
    throw new ConfigError("Invalid configuration:\n  UPSTASH_REDIS_REST_TOKEN: required when UPSTASH_REDIS_REST_URL is set");
  }
  if (cfg.NODE_ENV === "production" && !cfg.NEXTAUTH_URL) {
    // Every absolute URL the service hands out (sign-in providers' redirect_uri, mailed links, the OAuth
    // server's issuer and metadata, /llms.txt, the MCP 401 challenge) and whether the OAuth server's
    // cookies are Secure come from it: taken from a request's Host header they would be the client's
    // to choose (docs/security.md, "The public address").
    throw new ConfigError(
      "Invalid configuration:\n  NEXTAUTH_URL: required in production: the address people and clients reach the service at, e.g. https://claims.example",
    );
  }
  let { JWT_SECRET, NEXTAUTH_SECRET, WEBHOOK_SECRET_KEY } = cfg;
  if (!JWT_SECRET || !NEXTAUTH_SECRET || !WEBHOOK_SECRET_KEY) {
    if (cfg.NODE_ENV === "production") {
      const missing = !JWT_SECRET ? "JWT_SECRET" : !NEXTAUTH_SECRET ? "NEXTAUTH_SECRET" : "WEBHOOK_SECRET_KEY";
      throw new ConfigError(`Invalid configuration:\n  ${missing}: required in production (at least 32 bytes)`);
    }
    const generated = loadDevSecrets(cfg.DATA_DIR);
    JWT_SECRET ??= generated.JWT_SECRET;
    NEXTAUTH_SECRET ??= generated.NEXTAUTH_SECRET;
    WEBHOOK_SECRET_KEY ??= generated.WEBHOOK_SECRET_KEY;
  }
  if (cfg.NODE_ENV === "production") {
    const problems = [
      ["JWT_SECRET", guessableSecret(JWT_SECRET)],
      ["NEXTAUTH_SECRET", guessableSecret(NEXTAUTH_SECRET)],
      ["NEXTAUTH_SECRET", JWT_SECRET === NEXTAUTH_SECRET ? "must differ from JWT_SECRET (one leaked secret must not open both)" : null],
      ["WEBHOOK_SECRET_KEY", guessableSecret(WEBHOOK_SECRET_KEY)],
      ["WEBHOOK_SECRET_KEY", WEBHOOK_SECRET_KEY === JWT_SECRET || WEBHOOK_SECRET_KEY === NEXTAUTH_SECRET ? "must differ from JWT_SECRET and NEXTAUTH_SECRET" : null],
    ].filter(([, problem]) => problem !== null);
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map(([name, p]) => `  ${name}: ${p}`).join("\n")}`);
  }
  const PAGE_CACHE_SECONDS = cfg.PAGE_CACHE_SECONDS ?? (cfg.NODE_ENV === "production" ? 5 : 0);
  return { ...cfg, JWT_SECRET, NEXTAUTH_SECRET, WEBHOOK_SECRET_KEY, PAGE_CACHE_SECONDS };
}

/** The validated configuration of this process (read once). */
export function config(): Config {
  return processSingleton("claims.config", () => {
    const cfg = parseConfig(process.env);
    // NextAuth reads its secret from the environment; share the generated one in development.
    process.env.NEXTAUTH_SECRET ??= cfg.NEXTAUTH_SECRET;
    return cfg;
  });
}

/**
 * Whether this process is `next build` (Next's own signal, NEXT_PHASE). Read apart from config(): a
 * build has no production secrets, so config() may not validate there (docs/features/page-cache.md:
 * the build keeps no pages of ours).
 */
export function isNextBuild(): boolean {
  return process.env.NEXT_PHASE === "phase-production-build";
}
