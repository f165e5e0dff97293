// Environment, validated once (CONTRACT §9). A bad value stops the process with a message that names
// the variable. In development and tests, missing secrets are generated once and kept in DATA_DIR so
// that `npm run dev` needs no configuration.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const secret = (name: string) =>
  optionalString.refine((v) => v === undefined || Buffer.byteLength(v) >= 32, {
    message: `${name} must be at least 32 bytes`,
  });

/** A provider endpoint: overridable so tests can point sign-in at a local OAuth server. */
const endpoint = (name: string, fallback: string) =>
  optionalString
    .transform((v) => v ?? fallback)
    .pipe(z.url({ protocol: /^https?$/, message: `${name} must be an http(s) URL` }));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: "DATABASE_URL must be a postgres:// or postgresql:// connection string",
  }),
  DATA_DIR: z.string().default(".data"),
  JWT_SECRET: secret("JWT_SECRET"),
  NEXTAUTH_SECRET: secret("NEXTAUTH_SECRET"),
  NEXTAUTH_URL: optionalString.pipe(z.url({ message: "NEXTAUTH_URL must be an absolute URL" }).optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  TWITTER_CLIENT_ID: optionalString,
  TWITTER_CLIENT_SECRET: optionalString,
  // Provider endpoints (defaults: the real providers). Tests point them at a local OAuth server.
  GITHUB_AUTHORIZATION_URL: endpoint("GITHUB_AUTHORIZATION_URL", "https://github.com/login/oauth/authorize"),
  GITHUB_TOKEN_URL: endpoint("GITHUB_TOKEN_URL", "https://github.com/login/oauth/access_token"),
  GITHUB_USERINFO_URL: endpoint("GITHUB_USERINFO_URL", "https://api.github.com/user"),
  GITHUB_EMAILS_URL: endpoint("GITHUB_EMAILS_URL", "https://api.github.com/user/emails"),
  /** OpenID Connect issuer; its /.well-known/openid-configuration names the other endpoints. */
  GOOGLE_ISSUER: endpoint("GOOGLE_ISSUER", "https://accounts.google.com"),
  TWITTER_AUTHORIZATION_URL: endpoint("TWITTER_AUTHORIZATION_URL", "https://twitter.com/i/oauth2/authorize"),
  TWITTER_TOKEN_URL: endpoint("TWITTER_TOKEN_URL", "https://api.twitter.com/2/oauth2/token"),
  TWITTER_USERINFO_URL: endpoint("TWITTER_USERINFO_URL", "https://api.twitter.com/2/users/me"),
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    message: "REDIS_URL must be a redis:// or rediss:// URL",
  }),
  UPSTASH_REDIS_REST_URL: optionalString.pipe(z.url({ message: "UPSTASH_REDIS_REST_URL must be a URL" }).optional()),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  RATE_LIMIT_SCALE: z.coerce
    .number({ message: "RATE_LIMIT_SCALE must be a positive number" })
    .positive({ message: "RATE_LIMIT_SCALE must be a positive number" })
    .default(1),
  TRUST_PROXY: z
    .enum(["", "0", "1", "true", "false"], { message: "TRUST_PROXY must be 1/true or 0/false" })
    .default("")
    .transform((v) => v === "1" || v === "true"),
  SKIP_MIGRATIONS: z
    .enum(["", "0", "1", "true", "false"], { message: "SKIP_MIGRATIONS must be 1/true or 0/false" })
    .default("")
    .transform((v) => v === "1" || v === "true"),
  LOG_LEVEL: z.enum(["silent", "error", "info"]).default("info"),
  TRENDING_CACHE_SECONDS: z.coerce
    .number({ message: "TRENDING_CACHE_SECONDS must be a whole number of seconds (0 = no cache)" })
    .int({ message: "TRENDING_CACHE_SECONDS must be a whole number of seconds (0 = no cache)" })
    .min(0, { message: "TRENDING_CACHE_SECONDS must be a whole number of seconds (0 = no cache)" })
    .max(3600, { message: "TRENDING_CACHE_SECONDS must be at most 3600" })
    .default(30),
});

export type Config = z.infer<typeof envSchema> & { JWT_SECRET: string; NEXTAUTH_SECRET: string };

export class ConfigError extends Error {}

function loadDevSecrets(dataDir: string): { JWT_SECRET: string; NEXTAUTH_SECRET: string } {
  const file = path.join(/*turbopackIgnore: true*/ dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const secrets = {
    JWT_SECRET: randomBytes(48).toString("base64url"),
    NEXTAUTH_SECRET: randomBytes(48).toString("base64url"),
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
  if (cfg.UPSTASH_REDIS_REST_URL && !cfg.UPSTASH_REDIS_REST_TOKEN) {
    throw new ConfigError("Invalid configuration:\n  UPSTASH_REDIS_REST_TOKEN: required when UPSTASH_REDIS_REST_URL is set");
  }
  const oauthConfigured =
    (cfg.GOOGLE_CLIENT_ID && cfg.GOOGLE_CLIENT_SECRET) ||
    (cfg.GITHUB_CLIENT_ID && cfg.GITHUB_CLIENT_SECRET) ||
    (cfg.TWITTER_CLIENT_ID && cfg.TWITTER_CLIENT_SECRET);
  if (cfg.NODE_ENV === "production" && oauthConfigured && !cfg.NEXTAUTH_URL) {
    // The providers' redirect_uri is built from it; guessing it from Host headers is unsafe.
    throw new ConfigError("Invalid configuration:\n  NEXTAUTH_URL: required in production when an OAuth provider is configured");
  }
  let { JWT_SECRET, NEXTAUTH_SECRET } = cfg;
  if (!JWT_SECRET || !NEXTAUTH_SECRET) {
    if (cfg.NODE_ENV === "production") {
      const missing = !JWT_SECRET ? "JWT_SECRET" : "NEXTAUTH_SECRET";
      throw new ConfigError(`Invalid configuration:\n  ${missing}: required in production (at least 32 bytes)`);
    }
    const generated = loadDevSecrets(cfg.DATA_DIR);
    JWT_SECRET ??= generated.JWT_SECRET;
    NEXTAUTH_SECRET ??= generated.NEXTAUTH_SECRET;
  }
  return { ...cfg, JWT_SECRET, NEXTAUTH_SECRET };
}

const globalForConfig = globalThis as unknown as { __claimsConfig?: Config };

/** The validated configuration of this process (read once). */
export function config(): Config {
  if (!globalForConfig.__claimsConfig) {
    const cfg = parseConfig(process.env);
    // NextAuth reads its secret from the environment; share the generated one in development.
    process.env.NEXTAUTH_SECRET ??= cfg.NEXTAUTH_SECRET;
    globalForConfig.__claimsConfig = cfg;
  }
  return globalForConfig.__claimsConfig;
}
