// docs/security.md#every-way-in through the real adapter: honest headers on every answer, 429 with Retry-After, the
// tier limits, the auth brute-force limits per IP and per email, TRUST_PROXY, and (with Redis) two
// app instances sharing one limit.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { inOneBucket } from "../helpers/time.ts";

// Before anything reads the configuration: small limits (anonymous 12, new 24, established 60,
// trusted 200, auth attempts 2 per 15 minutes), and client IPs from X-Forwarded-For.
process.env.RATE_LIMIT_SCALE = "0.2";
process.env.TRUST_PROXY = "1";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

let ipCounter = 0;
const freshIp = () => `10.${process.pid % 250}.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
// One trusted proxy: the client is the address it appended, the rightmost; the left is the client's own writing.
const from = (ip: string) => ({ headers: { "x-forwarded-for": `192.0.2.1, ${ip}` } });

async function agentWithTier(tier: "new" | "established" | "trusted") {
  const username = uniqueName("rl");
  const email = `${username}@example.test`;
  const reg = await api.post("/auth/register", { email, password: "Password123", username }, from(freshIp()));
  expect(reg.status).toBe(201);
  await db().agent.update({ where: { id: reg.body.id }, data: { tier, reputation: tier === "trusted" ? 1000 : tier === "established" ? 100 : 0 } });
  const login = await api.post("/auth/login", { email, password: "Password123" }, from(freshIp()));
  expect(login.status).toBe(200);
  return login.body.access_token as string;
}

async function exhaust(call: () => Promise<{ status: number; headers: Headers }>, limit: number) {
  const remaining: number[] = [];
  for (let i = 0; i < limit; i++) {
    const res = await call();
    expect(res.status).not.toBe(429);
    expect(Number(res.headers.get("x-ratelimit-limit"))).toBe(limit);
    remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
  }
  // Counting down by one per request (a window boundary may hand back some of the previous count).
  expect(remaining[remaining.length - 1]).toBeLessThan(remaining[0]);
  const refused = await call();
  expect(refused.status).toBe(429);
  return refused;
}

describe("rate limits through the API", () => {
  it("anonymous callers: 12 (60 × 0.2) per IP, then 429 with Retry-After and honest headers", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const refused = (await exhaust(() => api.get("/health", from(ip)), 12)) as Awaited<ReturnType<TestApi["get"]>>;
      expect(refused.body).toEqual({ code: "rate_limited", detail: "Rate limit exceeded" });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      const reset = Number(refused.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      // Another IP is unaffected.
      expect((await api.get("/health", from(freshIp()))).status).toBe(200);
    });
  });

  it.each([
    ["new", 24],
    ["established", 60],
    ["trusted", 200],
  ] as const)("agents of tier %s get %i per window, by agent whatever their IP", async (tier, limit) => {
    await inOneBucket(60_000, async () => {
      const token = await agentWithTier(tier);
      await exhaust(() => api.get("/auth/me", { token, ...from(freshIp()) }), limit);
    });
  });

  it("errors count and carry the headers too (404, 400)", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const notFound = await api.get("/no/such/route", from(ip));
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get("x-ratelimit-remaining")).toBe("11");
      const bad = await api.request("POST", "/auth/logout", { rawBody: "{", headers: { "content-type": "application/json", ...from(ip).headers } });
      expect(bad.status).toBe(400);
      expect(bad.headers.get("x-ratelimit-remaining")).toBe("10");
    });
  });

  it("auth attempts are limited per IP (2 per 15 minutes at this scale)", async () => {
    await inOneBucket(15 * 60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < 2; i++) {
        const attempt = await api.post("/auth/login", { email: `${uniqueName()}@example.test`, password: "x" }, from(ip));
        expect(attempt.status).toBe(401);
      }
      const second = await api.post("/auth/login", { email: `${uniqueName()}@example.test`, password: "x" }, from(ip));
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ code: "rate_limited", detail: "Rate limit exceeded" });
      // The refusal is the auth limiter's (limit 2, 15-minute windows aligned to the epoch), so
      // Retry-After points at the end of its current window: anywhere from 1 s to 15 minutes away.
      expect(second.headers.get("x-ratelimit-limit")).toBe("2");
      const reset = Number(second.headers.get("x-ratelimit-reset"));
      expect(reset % 900).toBe(0);
      const retryAfter = Number(second.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(900);
      expect(Math.abs(Date.now() / 1000 + retryAfter - reset)).toBeLessThanOrEqual(2);
    });
  });

  it("password guesses on one account are bounded per client, and never lock its owner out", async () => {
    await inOneBucket(15 * 60_000, async () => {
      const username = uniqueName("owner");
      const email = `${username}@example.test`;
      expect((await api.post("/auth/register", { email, password: "Password123", username }, from(freshIp()))).status).toBe(201);
      // Scale 0.2: one failure per client per account, two on the account before it is guarded.
      const attackers = Array.from({ length: 6 }, freshIp);
      for (const ip of attackers) expect((await api.post("/auth/login", { email, password: "wrong-guess" }, from(ip))).status).toBe(401);
      // every client that has failed is refused before its password is looked at…
      const refused = await api.post("/auth/login", { email: email.toUpperCase(), password: "Password123" }, from(attackers[0]));
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toMatch(/too many failed sign-in attempts/i);
      // …and the owner, from an address that never failed, signs in with the right password
      const owner = await api.post("/auth/login", { email, password: "Password123" }, from(freshIp()));
      expect(owner.status, owner.text).toBe(200);
    });
  });

  it("a client-written X-Forwarded-For hop changes nothing: the budget follows the address the proxy saw", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < 12; i++) {
        const spoofed = await api.get("/health", { headers: { "x-forwarded-for": `198.18.${i}.1, ${ip}` } });
        expect(spoofed.status).toBe(200);
      }
      const refused = await api.get("/health", { headers: { "x-forwarded-for": `198.18.99.1, ${ip}` } });
      expect(refused.status).toBe(429);
    });
  });

  it("the client IP: the socket's peer without TRUST_PROXY, else the N-th address from the right", async () => {
    const { clientIp } = await import("../../server/rest/handler.ts");
    const { config } = await import("../../server/config.ts");
    const req = { method: "GET", url: "/", headers: { "x-forwarded-for": "203.0.113.9, 198.51.100.20, 198.51.100.30" }, remoteAddress: "198.51.100.7", readBody: async () => Buffer.alloc(0) };
    const cfg = config() as { TRUST_PROXY: number };
    const hopsFor = (n: number) => {
      cfg.TRUST_PROXY = n;
      return clientIp(req);
    };
    try {
      expect(hopsFor(0)).toBe("198.51.100.7");
      expect(hopsFor(1)).toBe("198.51.100.30");
      expect(hopsFor(2)).toBe("198.51.100.20");
      expect(hopsFor(3)).toBe("203.0.113.9");
      // More trusted hops than the header holds: it did not come through them all; only the peer is sure.
      expect(hopsFor(4)).toBe("198.51.100.7");
    } finally {
      cfg.TRUST_PROXY = 1;
    }
  });

  it("OPTIONS answers carry the headers without being charged", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      expect((await api.get("/health", from(ip))).headers.get("x-ratelimit-remaining")).toBe("11");
      for (let i = 0; i < 3; i++) {
        const preflight = await api.request("OPTIONS", "/claims", from(ip));
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get("x-ratelimit-limit")).toBe("12");
        expect(preflight.headers.get("x-ratelimit-remaining")).toBe("11");
        expect(Number(preflight.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      }
      expect((await api.get("/health", from(ip))).headers.get("x-ratelimit-remaining")).toBe("10");
    });
  });

  it("the catch-all 500 carries the headers too", async () => {
    const { handleRest } = await import("../../server/rest/handler.ts");
    const ip = freshIp();
    // The body stream fails under the adapter in a way it does not know: the unexpected-failure path.
    const res = await handleRest({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: { "content-type": "application/json" },
      remoteAddress: "",
      clientIp: ip,
      readBody: () => Promise.reject(new Error("stream exploded")),
    });
    expect(res.status).toBe(500);
    expect(JSON.parse(String(res.body))).toEqual({ code: "internal_error", detail: "Internal server error" }); // no Accept-Encoding: plain text
    expect(res.headers["X-RateLimit-Limit"]).toBe("12");
    expect(Number(res.headers["X-RateLimit-Remaining"])).toBeLessThanOrEqual(11);
    expect(Number(res.headers["X-RateLimit-Reset"])).toBeGreaterThan(Date.now() / 1000);
  });
});

describe("a client that leaves mid-upload", () => {
  it("is answered 400 (its doing, not a server failure)", async () => {
    const { handleRest } = await import("../../server/rest/handler.ts");
    const { ClientGoneError } = await import("../../server/http/body-limit.ts");
    const res = await handleRest({
      method: "POST",
      url: "/api/v1/auth/register",
      headers: { "content-type": "application/json" },
      remoteAddress: "",
      clientIp: freshIp(),
      readBody: () => Promise.reject(new ClientGoneError()),
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(String(res.body))).toMatchObject({ code: "validation_failed", detail: "body: the connection closed before the body arrived" });
  });
});

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGKILL")));

async function startInstance(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../helpers/api-server.ts")], {
    env: { ...process.env, ...env, NODE_ENV: "test" },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    child.stderr!.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`instance exited ${code}: ${out}`)));
  });
}


describe("a rate-limit store that is down", () => {
  it("fails open: requests go through quickly, with honest per-instance headers", async () => {
    const base = await startInstance({ REDIS_URL: "redis://127.0.0.1:1", UPSTASH_REDIS_REST_URL: "", DATABASE_URL: process.env.DATABASE_URL ?? "" });
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const remaining: number[] = [];
      const started = Date.now();
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${base}/api/v1/health`, { headers: { "x-forwarded-for": ip } });
        expect(res.status).toBe(200);
        expect(res.headers.get("x-ratelimit-limit")).toBe("12");
        remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
      }
      expect(remaining).toEqual([11, 10, 9, 8, 7]);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  }, 60_000);
});

// Two app processes on one PostgreSQL and one Redis must enforce one shared limit.
const shared = process.env.DATABASE_URL && process.env.REDIS_URL;
describe.skipIf(!shared)("two instances on one Redis", () => {
  it("an IP's 12 requests are shared across both instances", async () => {
    const [a, b] = await Promise.all([startInstance(), startInstance()]);
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 14; i++) {
        const res = await fetch(`${i % 2 ? a : b}/api/v1/health`, { headers: { "x-forwarded-for": ip } });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(12);
      expect(statuses.slice(12)).toEqual([429, 429]);
    });
  }, 60_000);
});
