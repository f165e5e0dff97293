// Headers and the CORS policy of /api/v1, through real HTTP: every kind of answer carries the
// security headers; any origin may call with a bearer token, no credentials are ever shared, and a
// cookie (the web UI's NextAuth session) never authenticates a REST call. The pages' headers come
// from next.config.mjs; tests/e2e/security-ui.spec.ts checks them on the built server.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNextAuthSession } from "../../server/nextauth/session.ts";
import { db } from "../../server/db/client.ts";
import { createAgent, startApi, type ApiResponse, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let alice: TestAgent;
beforeAll(async () => {
  api = await startApi();
  alice = await createAgent(api);
});
afterAll(() => api.close());

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function expectApiHeaders(res: ApiResponse, what: string) {
  expect(res.headers.get("content-security-policy"), what).toBe(API_CSP);
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("referrer-policy"), what).toBe("no-referrer");
  expect(res.headers.get("access-control-allow-origin"), what).toBe("*");
  expect(res.headers.get("access-control-allow-credentials"), what).toBeNull();
  expect(res.headers.get("set-cookie"), what).toBeNull();
  expect(res.headers.get("x-powered-by"), what).toBeNull();
}

/** A raw request with any method (fetch refuses TRACE and CONNECT). */
function rawRequest(method: string, url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("API headers", () => {
  it("every kind of answer carries the security headers and stays out of caches", async () => {
    const claim = await api.post("/claims", { statement: "A claim for the header checks" }, { token: alice.token });
    const answers: [string, ApiResponse][] = [
      ["200", await api.get(`/claims/${claim.body.id}`)],
      ["201", claim],
      ["204", await api.del(`/claims/${claim.body.id}/vote`, { token: alice.token })],
      ["400", await api.get("/claims?limit=0")],
      ["401", await api.get("/auth/me")],
      ["403", await api.post(`/claims/${claim.body.id}/vote`, { value: 1 }, { token: alice.token })],
      ["404", await api.get("/nowhere")],
      ["405", await api.request("PUT", "/claims")],
      ["413", await api.request("POST", "/claims", { rawBody: "x".repeat(300 * 1024), token: alice.token, headers: { "content-type": "application/json" } })],
      ["415", await api.request("POST", "/claims", { rawBody: "statement=x", token: alice.token, headers: { "content-type": "application/x-www-form-urlencoded" } })],
      ["501", await api.get("/auth/oauth/google")],
      ["preflight", await api.request("OPTIONS", "/claims", { headers: { origin: "https://agent.example", "access-control-request-method": "POST" } })],
    ];
    for (const [what, res] of answers) {
      if (what !== "preflight") expect(String(res.status), what).toBe(what);
      expectApiHeaders(res, what);
      expect(res.headers.get("cache-control"), what).toBe("no-store");
      if (res.status >= 400) expect(res.headers.get("content-type"), what).toMatch(/^application\/json/);
    }
    // Login hands out tokens in the body, never as cookies.
    const login = await api.post("/auth/login", { email: alice.email, password: alice.password });
    expect(login.status).toBe(200);
    expectApiHeaders(login, "login");
  });

  it("unknown and dangerous methods answer 405 with the headers; HEAD has no body", async () => {
    for (const method of ["TRACE", "PUT", "PROPFIND"]) {
      const res = await rawRequest(method, `${api.url}/api/v1/claims`);
      expect(res.status, method).toBe(405);
      expect(JSON.parse(res.body), method).toEqual({ code: "method_not_allowed", detail: "Method not allowed" });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers.allow).toMatch(/GET/);
    }
    const head = await rawRequest("HEAD", `${api.url}/api/v1/claims`);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });
});

describe("CORS on /api/v1: any origin, bearer tokens only", () => {
  it("a preflight from any origin is allowed for the API's methods and headers, without credentials", async () => {
    for (const origin of ["https://agent.example", "null", "http://localhost:5173"]) {
      const res = await api.request("OPTIONS", "/claims/00000000-0000-4000-8000-000000000000/vote", {
        headers: { origin, "access-control-request-method": "DELETE", "access-control-request-headers": "authorization, content-type" },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      // "*", never the caller's origin reflected: with "*" browsers refuse to send credentials.
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("access-control-allow-methods")!.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST", "PATCH", "DELETE"]));
      expect(res.headers.get("access-control-allow-headers")!.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(["authorization", "content-type"]));
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    }
  });

  it("a cross-origin call sees the rate-limit headers it needs and varies by Authorization", async () => {
    const res = await api.get("/claims", { headers: { origin: "https://agent.example" } });
    expect(res.status).toBe(200);
    const exposed = res.headers.get("access-control-expose-headers")!.toLowerCase();
    for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"]) expect(exposed).toContain(h);
    expect(res.headers.get("vary")).toMatch(/Authorization/i);
  });

  it("a NextAuth session cookie alone never authenticates a REST call", async () => {
    const { encode } = await import("next-auth/jwt");
    const session = await encode({ token: { sub: alice.id, name: alice.username, authTime: Math.floor(Date.now() / 1000) }, secret: process.env.NEXTAUTH_SECRET! });
    const cookie = `next-auth.session-token=${session}`;
    // The cookie is a real session: the web UI would take it.
    expect((await readNextAuthSession(new Headers({ cookie })))?.agentId).toBe(alice.id);

    const claim = await api.post("/claims", { statement: "Voted on by the cookie's owner" }, { token: (await createAgent(api)).token });
    await api.post(`/claims/${claim.body.id}/vote`, { value: 0.7 }, { token: alice.token });

    const me = await api.get("/auth/me", { headers: { cookie } });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
    const claimsBefore = await db().claim.count();
    const create = await api.post("/claims", { statement: "Created with a cookie only" }, { headers: { cookie } });
    expect(create.status).toBe(401);
    expect(await db().claim.count()).toBe(claimsBefore);
    expect((await api.post(`/claims/${claim.body.id}/vote`, { value: 0.1 }, { headers: { cookie } })).status).toBe(401);
    // A public read with the cookie is anonymous: no caller fields.
    const read = await api.get(`/claims/${claim.body.id}`, { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ user_vote: null, is_bookmarked: null, is_following: null });
    // The session JWT presented as a bearer token is not an access token either.
    expect((await api.get("/auth/me", { token: session })).status).toBe(401);
    expect((await api.get(`/claims/${claim.body.id}`, { token: alice.token })).body.user_vote).toBe(0.7);
  });
});

describe("page security headers (next.config.mjs)", () => {
  // A plain JS module (no types): imported by a computed name so that tsc does not resolve it.
  const configModule = "../../next.config.mjs";
  let pageSecurityHeaders: { key: string; value: string }[];
  beforeAll(async () => {
    ({ pageSecurityHeaders } = await import(/* @vite-ignore */ configModule));
  });
  const header = (name: string) => pageSecurityHeaders.find((h) => h.key === name)?.value;

  it("forbid framing, sniffing, plugins, <base> hijacking and other origins' scripts", () => {
    const csp = Object.fromEntries(header("Content-Security-Policy")!.split(/;\s*/).map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(csp["default-src"]).toEqual(["'self'"]);
    expect(csp["script-src"].filter((s: string) => s !== "'unsafe-eval'")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["script-src"].some((s: string) => /^https?:|\*/.test(s))).toBe(false);
    expect(header("X-Content-Type-Options")).toBe("nosniff");
    expect(header("X-Frame-Options")).toBe("DENY");
    expect(header("Referrer-Policy")).toBe("same-origin");
  });

  it("the UI never injects raw HTML, which is what makes 'unsafe-inline' scripts acceptable", () => {
    const root = path.resolve(import.meta.dirname, "../../app");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(tsx?|jsx?)$/.test(name) && /dangerouslySetInnerHTML|\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write\(/.test(readFileSync(file, "utf8"))) {
          offenders.push(path.relative(root, file));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
