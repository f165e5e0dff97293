// The error conventions of docs/api.md#conventions, through the real adapter over HTTP, and through the Next route
// handler that `next dev` mounts (the same adapter fed from a Web Request).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import * as nextRoute from "../../app/api/v1/[...path]/route.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

function expectRateLimitHeaders(headers: Headers) {
  expect(Number(headers.get("x-ratelimit-limit"))).toBeGreaterThan(0);
  expect(headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  const reset = Number(headers.get("x-ratelimit-reset"));
  const now = Date.now() / 1000;
  // Unix seconds, within the next 15 minutes (the longest window).
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
  expect(reset).toBeLessThanOrEqual(now + 15 * 60 + 1);
}

describe("errors are {detail} with the contract's status", () => {
  it("unknown route → 404 JSON", async () => {
    const res = await api.get("/nothing/here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: "not_found", detail: "Not found" });
    expectRateLimitHeaders(res.headers);
  });

  it("known path, wrong method → 405 with Allow", async () => {
    const res = await api.request("PUT", "/auth/login", { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ code: "method_not_allowed", detail: "Method not allowed" });
    expect(res.headers.get("allow")).toBe("POST");
    expectRateLimitHeaders(res.headers);
  });

  it("malformed JSON → 400", async () => {
    const res = await api.request("POST", "/auth/login", { rawBody: '{"email": "x@y.z", ', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "validation_failed",
      detail: "body: malformed JSON",
      errors: [{ field: "body", message: "body: malformed JSON", rule: "format", format: "json" }],
    });
    expectRateLimitHeaders(res.headers);
  });

  it("a JSON body that is not an object → 400", async () => {
    for (const raw of ["[1,2]", "42", '"text"', "null"]) {
      const res = await api.request("POST", "/auth/login", { rawBody: raw, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^body: /);
    }
  });

  it("wrong types name the field", async () => {
    const res = await api.post("/auth/register", { email: ["a"], password: 12345678, username: { x: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("email: ");
    expect(res.body.detail).toContain("password: ");
    expect(res.body.detail).toContain("username: ");
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "password", "username"]);
  });

  it("a body over 256 KiB → 413, and nothing is created", async () => {
    const before = await db().agent.count();
    const username = uniqueName("Huge");
    const res = await api.post("/auth/register", {
      email: `${username}@example.test`,
      password: "Password123",
      username,
      display_name: "x".repeat(300 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/too large/);
    expectRateLimitHeaders(res.headers);
    expect(await db().agent.count()).toBe(before);
  });

  it("a non-JSON content type → 415", async () => {
    const res = await api.request("POST", "/auth/login", { rawBody: "email=a&password=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ code: "unsupported_media_type", detail: "Content-Type must be application/json" });
  });

  it("an invalid token → 401 Invalid or expired token, public routes included; the credential endpoints ignore it", async () => {
    const me = await api.get("/auth/me", { token: "garbage" });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
    const claims = await api.get("/claims", { token: "garbage" });
    expect(claims.status).toBe(401);
    expect(claims.body).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
    // docs/security.md#every-way-in: login answers on the credentials it was given, whatever token came along.
    const login = await api.post("/auth/login", { email: "x@example.test", password: "Password123" }, { token: "garbage" });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ code: "invalid_credentials", detail: "Invalid email or password" });
  });

  it("every response carries the security and CORS headers", async () => {
    const res = await api.get("/auth/me");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const preflight = await api.request("OPTIONS", "/auth/login", { headers: { origin: "https://agent.example", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });

  it("a POST that takes no body works with an empty body and no content type", async () => {
    // /auth/logout needs a body: an empty one is a validation error, not a parse error.
    const res = await api.request("POST", "/auth/logout");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("refresh_token: is required");
  });
});

describe("GET /openapi.json", () => {
  it("describes every operation with {code, detail} errors, the bearer scheme and the real success statuses", async () => {
    const res = await api.get("/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Error.required).toEqual(["code", "detail"]);
    expect(doc.paths["/auth/register"].post.responses["201"]).toBeDefined();
    expect(doc.paths["/auth/register"].post.responses["200"]).toBeUndefined();
    expect(doc.paths["/auth/logout"].post.responses["204"]).toBeDefined();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "clm_…" });
    expect(doc.paths["/auth/me"].get.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.paths["/claims"].get.security).toEqual([{}, { bearerAuth: [] }, { apiKey: [] }]);
    // Keys cannot manage keys: only an access token is described there.
    expect(doc.paths["/auth/api-keys"].post.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [code, response] of Object.entries<any>(op.responses)) {
          if (Number(code) >= 400) {
            expect(response.content["application/json"].schema.allOf[0].$ref, `${method} ${path} ${code}`).toBe("#/components/schemas/Error");
          }
          expect(response.headers["X-RateLimit-Limit"], `${method} ${path} ${code}`).toBeDefined();
        }
        expect(op.responses["429"]).toBeDefined();
      }
    }
  });
});

describe("the Next route handler (next dev) serves the same adapter", () => {
  it("registers, rejects bad JSON and answers 404 with the contract's shapes", async () => {
    const username = uniqueName("Nx");
    const reg = await nextRoute.POST(
      new Request("http://localhost/api/v1/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "10.1.2.3" },
        body: JSON.stringify({ email: `${username}@example.test`, password: "Password123", username }),
      }),
    );
    expect(reg.status).toBe(201);
    expect((await reg.json()).username).toBe(username);
    expect(reg.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);

    const bad = await nextRoute.POST(
      new Request("http://localhost/api/v1/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{" }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "validation_failed", detail: "body: malformed JSON" });

    const missing = await nextRoute.GET(new Request("http://localhost/api/v1/nope"));
    expect(missing.status).toBe(404);

    const huge = await nextRoute.POST(
      new Request("http://localhost/api/v1/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(257 * 1024) }),
    );
    expect(huge.status).toBe(413);
  });

  it("a token from login works through it", async () => {
    const a = await createAgent(api);
    const me = await nextRoute.GET(new Request("http://localhost/api/v1/auth/me", { headers: { authorization: `Bearer ${a.token}` } }));
    expect(me.status).toBe(200);
    expect((await me.json()).id).toBe(a.id);
  });
});
