// The operations settings are validated like every other: a bad value names its variable.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../server/config.ts";
import { prettyLine } from "../../server/log/logger.ts";

const base = { JWT_SECRET: "x".repeat(40), NEXTAUTH_SECRET: "y".repeat(40), DATA_DIR: "/tmp/claims-config-test" };

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
  ])("%o is refused, naming %s", (env, name) => {
    expect(() => parseConfig({ ...base, ...env })).toThrow(name);
  });
});

describe("the anonymous page cache", () => {
  it("shares renders for 5 s in production, never under next dev unless asked, and can be turned off", () => {
    expect(parseConfig({ ...base, NODE_ENV: "production" })).toMatchObject({ PAGE_CACHE_SECONDS: 5, PAGE_CACHE_MAX_MB: 64 });
    expect(parseConfig({ ...base, NODE_ENV: "development" }).PAGE_CACHE_SECONDS).toBe(0);
    expect(parseConfig({ ...base, NODE_ENV: "development", PAGE_CACHE_SECONDS: "2" }).PAGE_CACHE_SECONDS).toBe(2);
    expect(parseConfig({ ...base, NODE_ENV: "production", PAGE_CACHE_SECONDS: "0" }).PAGE_CACHE_SECONDS).toBe(0);
  });
});

describe("readable development logs", () => {
  it("turns pino's JSON line into time, level, message and fields", () => {
    const line = prettyLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 3, 4), pid: 1, msg: "request", method: "GET", route: "/api/v1/claims", status: 200 }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO  request  method=GET route=\/api\/v1\/claims status=200\n$/);
  });
});
