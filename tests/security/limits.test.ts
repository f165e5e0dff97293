// The limits hold for every method, every path, every address family and every account, against the
// production build (issue: "the limits hold for every method, every address family, every account"):
//   - a page render is charged whatever the method and however the path ends (PUT/PATCH/DELETE on a
//     page, "/topics/x.css", "/api/nope", "/_next/data/…" all render); Next's own files are not;
//   - password guesses from many addresses never lock the owner out (API and web sign-in);
//   - IPv6 clients are limited by /64;
//   - an unverified registration of an ADMIN_EMAILS address is not an admin.
import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { dataDirWithAdmin } from "../helpers/seeded-admin.ts";
import { inOneBucket } from "../helpers/time.ts";

const PAGE_LIMIT = 12;
const ADMIN_EMAIL = `limits-admin-${Date.now()}@example.org`;
let server: BuiltServer;

let ipCounter = 0;
const freshIp = () => `10.${(process.pid >> 8) % 250}.${process.pid % 250}.${++ipCounter}`;
/** One trusted proxy appended the client's address; the client wrote the rest. */
const from = (ip: string) => ({ "x-forwarded-for": `198.18.0.1, ${ip}` });

const SEEDED_ADMIN = { email: `seeded-admin-${Date.now()}@example.org`, password: "Seeded-admin-passw0rd" };
// A verified admin, made on the server's database before it starts (suspensions need one).
const dataDir = dataDirWithAdmin(SEEDED_ADMIN.email, SEEDED_ADMIN.password);

beforeAll(async () => {
  server = await startBuiltServer({
    DATA_DIR: dataDir,
    TRUST_PROXY: "1",
    RATE_LIMIT_SCALE: "1",
    PAGE_RATE_LIMIT: String(PAGE_LIMIT),
    PAGE_CACHE_SECONDS: "30",
    ADMIN_EMAILS: ADMIN_EMAIL,
    WEBHOOK_ALLOW_PRIVATE: "1",
    LOG_LEVEL: "warn",
  });
}, 180_000);
afterAll(() => {
  server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${server.base}${path}`, {
    method,
    redirect: "manual",
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

describe("the page budget cannot be walked around", () => {
  it.each([
    ["DELETE", "/"],
    ["PUT", "/topics/science"],
    ["PATCH", "/claims/00000000-0000-0000-0000-000000000000"],
    ["GET", "/topics/x.css"],
    ["GET", "/favicon.ico"],
    ["GET", "/api/nope"],
    ["GET", "/_next/data/build/x.json"],
    ["OPTIONS", "/"],
    ["GET", "/_next/static/chunks/%2e%2e/%2e%2e/topics/y.js"],
  ])("%s %s is charged as a render", async (method, path) => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < PAGE_LIMIT; i++) expect((await call(method, path, from(ip))).status, `${method} ${path} #${i + 1}`).not.toBe(429);
      const refused = await call(method, path, from(ip));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    });
  }, 60_000);

  it("Next's static files and the route handlers that charge themselves are not renders", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < PAGE_LIMIT + 3; i++) {
        expect((await call("GET", "/icon.svg", from(ip))).status).toBe(200);
        expect((await call("GET", "/_next/static/missing.js", from(ip))).status).toBe(404);
      }
      // …and did not touch the page budget
      expect((await call("GET", "/", from(ip))).status).toBe(200);
    });
  }, 60_000);

  it.each([
    ["POST", "/consent/x/decision", "text/html"],
    ["POST", "/consent/x/decision", "application/json"],
    ["GET", "/auth/complete?redirect_to=/", "text/html"],
    ["GET", "/.well-known/oauth-protected-resource", "application/json"],
    ["GET", "/api/auth/session", "application/json"],
    ["GET", "/api/auth/csrf", "application/json"],
  ])("%s %s, a route handler outside /api or NextAuth's, is charged to the page budget", async (method, path, accept) => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < PAGE_LIMIT; i++) expect((await call(method, path, { ...from(ip), accept })).status, `${method} ${path} #${i + 1}`).not.toBe(429);
      const refused = await call(method, path, { ...from(ip), accept });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // A browser's form reads a page that says what happened; a program reads {detail}.
      if (accept === "text/html") expect(refused.text).toMatch(/Too many requests.*Please wait \d+ seconds/s);
      else expect(JSON.parse(refused.text)).toEqual({ code: "rate_limited", detail: "Rate limit exceeded" });
    });
  }, 60_000);
});

describe("password guesses never lock the owner out", () => {
  async function registerOwner(email: string) {
    const username = `owner${Date.now() % 1_000_000}${++ipCounter}`;
    const res = await call("POST", "/api/v1/auth/register", from(freshIp()), { email, password: "Owner-passw0rd", username });
    expect(res.status, res.text).toBe(201);
    return JSON.parse(res.text) as { id: string; role: string };
  }

  it("10 wrong logins from 10 addresses: the owner still logs in, on the API and on the web sign-in", async () => {
    const email = `owner-${Date.now()}@example.org`;
    await registerOwner(email);
    const attackers = Array.from({ length: 10 }, freshIp);
    for (const ip of attackers) expect((await call("POST", "/api/v1/auth/login", from(ip), { email, password: "guess-123" })).status).toBe(401);
    // a client that failed on the account may not go on guessing once it is under attack…
    const again = await call("POST", "/api/v1/auth/login", from(attackers[3]), { email, password: "guess-456" });
    expect(again.status).toBe(429);
    // …but the owner's correct password from their own address works, through both doors
    const api = await call("POST", "/api/v1/auth/login", from(freshIp()), { email, password: "Owner-passw0rd" });
    expect(api.status, api.text).toBe(200);
    const ownerIp = freshIp();
    const csrf = await fetch(`${server.base}/api/auth/csrf`, { headers: from(ownerIp) });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
    const web = await fetch(`${server.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; "), ...from(ownerIp) },
      body: new URLSearchParams({ csrfToken, email, password: "Owner-passw0rd", json: "true" }),
    });
    expect(web.headers.getSetCookie().some((c) => c.includes("next-auth.session-token")), `status ${web.status}`).toBe(true);
  }, 60_000);

  it("one client guessing one account is stopped after 5 failures", async () => {
    const email = `guessed-${Date.now()}@example.org`;
    await registerOwner(email);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await call("POST", "/api/v1/auth/login", from(ip), { email, password: `guess-${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  }, 60_000);

  it("an unverified registration of an ADMIN_EMAILS address is not an admin", async () => {
    const agent = await registerOwner(ADMIN_EMAIL);
    expect(agent.role).toBe("member");
    const login = await call("POST", "/api/v1/auth/login", from(freshIp()), { email: ADMIN_EMAIL, password: "Owner-passw0rd" });
    const { access_token } = JSON.parse(login.text) as { access_token: string };
    const me = await call("GET", "/api/v1/auth/me", { authorization: `Bearer ${access_token}` });
    expect(JSON.parse(me.text).role).toBe("member");
    const roles = await call("PUT", `/api/v1/admin/agents/${agent.id}/role`, { authorization: `Bearer ${access_token}` }, { role: "admin" });
    expect(roles.status).toBe(403);
  }, 60_000);
});

describe("IPv6 clients are limited by their /64", () => {
  it("70 addresses of one /64 share the anonymous limit of 60", async () => {
    await inOneBucket(60_000, async () => {
      const prefix = `2001:db8:${(process.pid % 0xffff).toString(16)}:${(++ipCounter).toString(16)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 70; i++) statuses.push((await call("GET", "/api/v1/health", from(`${prefix}:${i.toString(16)}::1`))).status);
      const passed = statuses.filter((s) => s === 200).length;
      // A window boundary may hand back a little of the count.
      expect(passed).toBeGreaterThanOrEqual(60);
      expect(passed).toBeLessThanOrEqual(61);
      // the neighbouring /64 is another client
      expect((await call("GET", "/api/v1/health", from(`2001:db8:ffff:${(ipCounter + 1).toString(16)}::1`))).status).toBe(200);
      // pages too
      const pagePrefix = `2001:db8:${(process.pid % 0xffff).toString(16)}:${(++ipCounter).toString(16)}`;
      const pages: number[] = [];
      for (let i = 0; i < PAGE_LIMIT + 1; i++) pages.push((await call("GET", "/favicon.ico", from(`${pagePrefix}::${(i + 1).toString(16)}`))).status);
      expect(pages[PAGE_LIMIT]).toBe(429);
    });
  }, 90_000);
});

describe("a suspended account's web sign-in", () => {
  it("says 'Account suspended' (never a 500), and the API login says so too", async () => {
    const login = async (email: string, password: string) => {
      const res = await call("POST", "/api/v1/auth/login", from(freshIp()), { email, password });
      return { status: res.status, body: JSON.parse(res.text) };
    };
    const adminLogin = await login(SEEDED_ADMIN.email, SEEDED_ADMIN.password);
    expect(adminLogin.status).toBe(200);
    const email = `suspended-${Date.now()}@example.org`;
    const username = `susp${Date.now() % 1_000_000}`;
    const reg = await call("POST", "/api/v1/auth/register", from(freshIp()), { email, password: "Suspended-passw0rd", username });
    const agent = JSON.parse(reg.text) as { id: string };
    const suspended = await call("POST", `/api/v1/moderation/agents/${agent.id}/suspend`, { authorization: `Bearer ${adminLogin.body.access_token}` }, { reason: "testing" });
    expect(suspended.status, suspended.text).toBeLessThan(300);
    expect(await login(email, "Suspended-passw0rd")).toEqual({ status: 403, body: { code: "account_suspended", detail: "Account suspended" } });

    const ip = freshIp();
    const csrf = await fetch(`${server.base}/api/auth/csrf`, { headers: from(ip) });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
    const web = await fetch(`${server.base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; "), ...from(ip) },
      body: new URLSearchParams({ csrfToken, email, password: "Suspended-passw0rd", json: "true" }),
    });
    expect(web.status).toBeLessThan(500);
    const { url } = (await web.json()) as { url: string };
    expect(new URL(url).searchParams.get("error")).toBe("AccountSuspended");
    expect(web.headers.getSetCookie().some((c) => c.includes("session-token="))).toBe(false);
    // The sign-in page shows it in words.
    const page = await call("GET", "/signin?error=AccountSuspended", from(ip));
    expect(page.text).toContain("Account suspended");
  }, 60_000);
});

describe("the page cache serves each client an encoding it accepts", () => {
  /** node:http, not fetch: fetch adds an Accept-Encoding of its own and decodes what comes back. */
  function rawGet(path: string, headers: Record<string, string>) {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${server.base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("a deflate render is never served to a client that sent no Accept-Encoding", async () => {
    const ip = freshIp();
    const path = `/leaderboard?poison=${Date.now()}`;
    const get = (encoding?: string) => rawGet(path, { ...from(ip), "user-agent": "Mozilla/5.0 (test)", ...(encoding ? { "accept-encoding": encoding } : {}) });
    const deflated = await get("deflate");
    expect(deflated.status).toBe(200);
    expect(deflated.headers["content-encoding"]).toBe("deflate");
    for (const encoding of [undefined, "identity", "gzip", "br;q=0, gzip"]) {
      const res = await get(encoding);
      const coding = String(res.headers["content-encoding"] ?? "identity");
      expect(coding, String(encoding)).not.toBe("deflate");
      if (encoding === undefined || encoding === "identity") {
        expect(coding).toBe("identity");
        expect(res.body.toString("utf8")).toContain("<html");
      }
    }
    // the deflate client itself is served its copy
    const again = await get("deflate");
    expect(again.headers["x-page-cache"]).toBe("hit");
    expect(again.headers["content-encoding"]).toBe("deflate");
  }, 60_000);
});

describe("NUL in path-like inputs", () => {
  it("/api/trpc agent_id and tag, and /profiles/%00: a 400, never a 500", async () => {
    const ip = freshIp();
    for (const [procedure, input] of [
      ["profiles.get", { agent_id: "\u0000" }],
      ["profiles.timeline", { agent_id: "x\u0000y" }],
      ["discover.topicClaims", { tag: "a\u0000" }],
      ["claims.get", { claim_id: "\u0000" }],
    ] as const) {
      const res = await call("GET", `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, from(ip));
      expect(res.status, `${procedure}: ${res.text}`).toBe(400);
      expect(JSON.parse(res.text).error.detail).toMatch(/must not contain NUL/);
    }
    for (const page of ["/profiles/%00", "/topics/a%00b", "/claims/%00", "/profiles/%ED%A0%80"]) {
      const res = await call("GET", page, from(ip));
      expect(res.status, page).toBe(400);
    }
  }, 60_000);
});

describe("production configuration", () => {
  it("warns when WEBHOOK_ALLOW_PRIVATE is on", () => {
    expect(server.output()).toContain("WEBHOOK_ALLOW_PRIVATE is on in production");
  });

  it.each([
    ["32 × 'a'", { JWT_SECRET: "a".repeat(32) }, /JWT_SECRET: .*guessable/],
    ["both equal", { JWT_SECRET: "Shared-Kq8vT2mZ9xLp4RbN7cWd1YhF6sJe3Ug5", NEXTAUTH_SECRET: "Shared-Kq8vT2mZ9xLp4RbN7cWd1YhF6sJe3Ug5" }, /NEXTAUTH_SECRET: must differ from JWT_SECRET/],
  ])("refuses to start with guessable secrets (%s)", (_name, secrets, message) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: "1", DATA_DIR: dataDir, ...secrets };
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
  }, 60_000);
});
