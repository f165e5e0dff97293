import { randomBytes } from "node:crypto";
// The operations settings are validated like every other: a bad value names its variable.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config.ts";
import { prettyLine } from "../../server/log/logger.ts";

const base = { JWT_SECRET: "jwt-Kq8vT2mZ9xLp4RbN7cWd1YhF6sJe3Ug5", NEXTAUTH_SECRET: "na-Hs5Pw1Qz8Tn3Vx6By0Cm4Dk7Fj2Gl9Rt", WEBHOOK_SECRET_KEY: "wh-Vb6Nm2Qa9Ws3Ed7Rf1Tg5Yh8Uj4Ik0Ol", DATA_DIR: "/tmp/claims-config-test" };

describe("operations configuration", () => {
  it("defaults: no metrics endpoint, no replica, demo data on first dev run, prepared statements on", () => {
    const cfg = parseConfig(base);
    expect(cfg.METRICS_PORT).toBeUndefined();
    expect(cfg.DATABASE_REPLICA_URL).toBeUndefined();
    expect(cfg).toMatchObject({ METRICS_HOST: "127.0.0.1", REPLICA_STICKY_SECONDS: 5, DEMO_SEED: "auto", DATABASE_PREPARED_STATEMENTS: true, LOG_LEVEL: "info" });
    expect(parseConfig({ ...base, METRICS_PORT: "9464", DATABASE_PREPARED_STATEMENTS: "0" })).toMatchObject({ METRICS_PORT: 9464, DATABASE_PREPARED_STATEMENTS: false });
  });

  it("a consensus must hold 30 minutes before a claim resolves, unless RESOLUTION_STABLE_SECONDS says otherwise (0: at once)", () => {
    expect(parseConfig(base).RESOLUTION_STABLE_SECONDS).toBe(1800);
    expect(parseConfig({ ...base, RESOLUTION_STABLE_SECONDS: "0" }).RESOLUTION_STABLE_SECONDS).toBe(0);
    expect(parseConfig({ ...base, RESOLUTION_STABLE_SECONDS: "60" }).RESOLUTION_STABLE_SECONDS).toBe(60);
  });

  it.each([
    [{ METRICS_PORT: "70000" }, "METRICS_PORT"],
    [{ METRICS_PORT: "abc" }, "METRICS_PORT"],
    [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN"],
    [{ LOG_LEVEL: "verbose" }, "LOG_LEVEL"],
    [{ LOG_FORMAT: "xml" }, "LOG_FORMAT"],
    [{ DATABASE_REPLICA_URL: "mysql://x" }, "DATABASE_REPLICA_URL"],
    [{ DATABASE_REPLICA_URL: "postgresql://127.0.0.1:5433/x" }, "DATABASE_REPLICA_URL"],
    [{ REPLICA_STICKY_SECONDS: "0" }, "REPLICA_STICKY_SECONDS"],
    [{ DEMO_SEED: "yes" }, "DEMO_SEED"],
    [{ DATABASE_PREPARED_STATEMENTS: "maybe" }, "DATABASE_PREPARED_STATEMENTS"],
    [{ PAGE_CACHE_SECONDS: "-1" }, "PAGE_CACHE_SECONDS"],
    [{ PAGE_CACHE_SECONDS: "61" }, "PAGE_CACHE_SECONDS"],
    [{ PAGE_CACHE_SECONDS: "soon" }, "PAGE_CACHE_SECONDS"],
    [{ PAGE_CACHE_MAX_MB: "0" }, "PAGE_CACHE_MAX_MB"],
    [{ RESOLUTION_STABLE_SECONDS: "-1" }, "RESOLUTION_STABLE_SECONDS"],
    [{ RESOLUTION_STABLE_SECONDS: "1.5" }, "RESOLUTION_STABLE_SECONDS"],
    [{ RESOLUTION_STABLE_SECONDS: "half an hour" }, "RESOLUTION_STABLE_SECONDS"],
    [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
    [{ DATABASE_POOL_SIZE: "ten" }, "DATABASE_POOL_SIZE"],
  ])("%o is refused, naming %s", (env, name) => {
    expect(() => parseConfig({ ...base, ...env })).toThrow(name);
  });

  it.each([
    [{ REPLICA_STICKY_SECONDS: "1.5" }, "REPLICA_STICKY_SECONDS: REPLICA_STICKY_SECONDS must be a whole number of seconds between 1 and 600"],
    [{ TRENDING_CACHE_SECONDS: "-1" }, "TRENDING_CACHE_SECONDS: TRENDING_CACHE_SECONDS must be a whole number of seconds (0 = no cache)"],
    [{ TRENDING_CACHE_SECONDS: "7200" }, "TRENDING_CACHE_SECONDS: TRENDING_CACHE_SECONDS must be at most 3600"],
    [{ BRIDGING_INTERVAL_SECONDS: "5" }, "BRIDGING_INTERVAL_SECONDS: BRIDGING_INTERVAL_SECONDS must be a whole number of seconds, 0 (off) or 10-86400"],
    [{ RATE_LIMIT_SCALE: "0" }, "RATE_LIMIT_SCALE: RATE_LIMIT_SCALE must be a positive number"],
    [{ SHUTDOWN_GRACE_SECONDS: "601" }, "SHUTDOWN_GRACE_SECONDS: SHUTDOWN_GRACE_SECONDS must be a number of seconds between 0 and 600"],
  ])("a number out of its range is refused in words: %o", (env, line) => {
    expect(() => parseConfig({ ...base, ...env })).toThrow(`Invalid configuration:\n  ${line}`);
  });

  it("the pool size, key prefixes and folders come from the configuration too", () => {
    expect(parseConfig(base)).toMatchObject({ DATABASE_POOL_SIZE: 10 });
    expect(parseConfig({ ...base, DATABASE_POOL_SIZE: "25", RATE_LIMIT_PREFIX: "rl", CACHE_PREFIX: "c", MIGRATIONS_DIR: "/m", PGLITE_DATA_DIR: "memory://" })).toMatchObject({
      DATABASE_POOL_SIZE: 25,
      RATE_LIMIT_PREFIX: "rl",
      CACHE_PREFIX: "c",
      MIGRATIONS_DIR: "/m",
      PGLITE_DATA_DIR: "memory://",
    });
  });
});

describe("the anonymous page cache", () => {
  it("shares renders for 5 s in production, never under next dev unless asked, and can be turned off", () => {
    expect(parseConfig({ ...base, NODE_ENV: "production", NEXTAUTH_URL: "https://claims.example" })).toMatchObject({ PAGE_CACHE_SECONDS: 5, PAGE_CACHE_MAX_MB: 64 });
    expect(parseConfig({ ...base, NODE_ENV: "development" }).PAGE_CACHE_SECONDS).toBe(0);
    expect(parseConfig({ ...base, NODE_ENV: "development", PAGE_CACHE_SECONDS: "2" }).PAGE_CACHE_SECONDS).toBe(2);
    expect(parseConfig({ ...base, NODE_ENV: "production", NEXTAUTH_URL: "https://claims.example", PAGE_CACHE_SECONDS: "0" }).PAGE_CACHE_SECONDS).toBe(0);
  });
});

describe("readable development logs", () => {
  it("turns pino's JSON line into time, level, message and fields", () => {
    const line = prettyLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 3, 4), pid: 1, msg: "request", method: "GET", route: "/api/v1/claims", status: 200 }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO  request  method=GET route=\/api\/v1\/claims status=200\n$/);
  });
});

describe("secrets in production", () => {
  const prod = (env: Record<string, string>) => () => parseConfig({ ...base, NODE_ENV: "production", NEXTAUTH_URL: "https://claims.example", ...env });
  it("refuses a secret that is long but guessable: one character, a repeated unit, too few different characters", () => {
    expect(prod({ JWT_SECRET: "a".repeat(32) })).toThrow(/JWT_SECRET: .*guessable/);
    expect(prod({ NEXTAUTH_SECRET: "abcd".repeat(10) })).toThrow(/NEXTAUTH_SECRET: .*guessable/);
    expect(prod({ JWT_SECRET: "ab".repeat(20) + "abc" })).toThrow(/JWT_SECRET/);
    expect(prod({ JWT_SECRET: "1111111111222222222233333333334444" })).toThrow(/JWT_SECRET/);
  });
  it("refuses the same value for two of them, and requires WEBHOOK_SECRET_KEY", () => {
    expect(prod({ NEXTAUTH_SECRET: base.JWT_SECRET })).toThrow(/NEXTAUTH_SECRET: must differ from JWT_SECRET/);
    expect(prod({ WEBHOOK_SECRET_KEY: base.NEXTAUTH_SECRET })).toThrow(/WEBHOOK_SECRET_KEY: must differ/);
    expect(prod({ WEBHOOK_SECRET_KEY: "" })).toThrow(/WEBHOOK_SECRET_KEY: required in production/);
  });
  it("accepts generated secrets (openssl rand -hex 16 / -base64 32), and anything outside production", () => {
    for (let i = 0; i < 200; i++) {
      expect(prod({ JWT_SECRET: randomBytes(16).toString("hex"), NEXTAUTH_SECRET: randomBytes(32).toString("base64"), WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64url") })).not.toThrow();
    }
    expect(() => parseConfig({ ...base, JWT_SECRET: "a".repeat(32), NEXTAUTH_SECRET: "a".repeat(32) })).not.toThrow();
  });
});
