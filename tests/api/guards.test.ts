// Every way in is guarded (docs/security.md#every-way-in), in process: the web tRPC endpoint charges one unit per call and
// caps batches; the route handlers that read bodies (/api/trpc, /api/auth, /api/v1 under Next) stop at
// the limit; the credential endpoints ignore a stale Authorization header; session cookies are Secure in
// production. (Over real HTTP against the built server, every way it starts: tests/security/entrypoints.test.ts.)
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as trpcGET, POST as trpcPOST } from "../../app/api/trpc/[trpc]/route.ts";
import { POST as authPOST } from "../../app/api/auth/[...nextauth]/route.ts";
import { POST as restPOST } from "../../app/api/v1/[...path]/route.ts";
import { CLIENT_IP_HEADER, sealedClientIp } from "../../server/http/client-ip.ts";
import { rateLimiter } from "../../server/ratelimit/limiter.ts";
import { useSecureCookies } from "../../server/nextauth/cookies.ts";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";
import { inOneBucket } from "../helpers/time.ts";

// Before anything reads the configuration: the contract's own limits (anonymous 60 per minute).
process.env.RATE_LIMIT_SCALE = "1";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

let ipCounter = 0;
const freshIp = () => `10.77.${process.pid % 250}.${++ipCounter}`;
const fromIp = (ip: string) => ({ [CLIENT_IP_HEADER]: sealedClientIp(ip) });

/** A body of `total` bytes made on demand, counting what the reader actually pulled. */
function hugeBody(total: number, chunk = 64 * 1024) {
  const counter = { pulled: 0 };
  const piece = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk;
      controller.enqueue(piece);
    },
  });
  return { stream, counter };
}

const MB = 1024 * 1024;

describe("the web tRPC endpoint charges work", () => {
  const listBatch = (n: number) =>
    `http://localhost/api/trpc/${Array(n).fill("claims.list").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))))}`;

  it("a batch of 10 calls costs 10 units of the caller's limit", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const res = await trpcGET(new Request(listBatch(10), { headers: fromIp(ip) }));
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveLength(10);
      expect((await rateLimiter().peekRequest({ ip })).remaining).toBe(50);
      const single = await trpcGET(new Request(`http://localhost/api/trpc/claims.list?input=${encodeURIComponent("{}")}`, { headers: fromIp(ip) }));
      expect(single.status).toBe(200);
      expect((await rateLimiter().peekRequest({ ip })).remaining).toBe(49);
    });
  });

  it("refuses a batch of more than 10 calls with 400 and runs none of it", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (const n of [11, 200]) {
        const res = await trpcGET(new Request(listBatch(n), { headers: fromIp(ip) }));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: "validation_failed", detail: `batch: at most 10 calls per request (got ${n})` });
      }
      expect((await rateLimiter().peekRequest({ ip })).remaining).toBe(60);
    });
  });

  it("a batch that does not fit in what is left is refused (429) and counts nothing", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      for (let i = 0; i < 5; i++) expect((await trpcGET(new Request(listBatch(10), { headers: fromIp(ip) }))).status).toBe(200);
      expect((await trpcGET(new Request(listBatch(5), { headers: fromIp(ip) }))).status).toBe(200);
      // 5 left: a batch of 6 does not fit.
      const refused = await trpcGET(new Request(listBatch(6), { headers: fromIp(ip) }));
      expect(refused.status).toBe(429);
      expect((await rateLimiter().peekRequest({ ip })).remaining).toBe(5);
      expect((await trpcGET(new Request(listBatch(5), { headers: fromIp(ip) }))).status).toBe(200);
      expect((await trpcGET(new Request(listBatch(1), { headers: fromIp(ip) }))).status).toBe(429);
    });
  });

  it("a client-written client-IP header is not believed", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const forged = await trpcGET(new Request(listBatch(10), { headers: { [CLIENT_IP_HEADER]: `guess ${ip}` } }));
      expect(forged.status).toBe(200);
      expect((await rateLimiter().peekRequest({ ip })).remaining).toBe(60);
    });
  });
});

describe("route handlers stop reading bodies at 256 KiB", () => {
  const post = (url: string, body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) =>
    new Request(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit);

  it.each([
    ["/api/trpc/auth.login", (r: Request) => trpcPOST(r)],
    ["/api/auth/callback/credentials", (r: Request) => authPOST(new NextRequest(r), { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) })],
    ["/api/v1/auth/login", (r: Request) => restPOST(r)],
  ])("%s: a streamed 300 MB body is refused with 413 after reading little more than the limit", async (path, handle) => {
    const { stream, counter } = hugeBody(300 * MB);
    const res = await handle(post(`http://localhost${path}`, stream));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: "payload_too_large", detail: "Request body too large (limit 256 KiB)" });
    expect(counter.pulled).toBeLessThan(2 * MB);
  });

  it.each([
    ["/api/trpc/auth.login", (r: Request) => trpcPOST(r)],
    ["/api/auth/callback/credentials", (r: Request) => authPOST(new NextRequest(r), { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) })],
  ])("%s: a declared Content-Length over the limit is refused without reading", async (path, handle) => {
    const { stream, counter } = hugeBody(300 * MB);
    const res = await handle(post(`http://localhost${path}`, stream, { "content-length": String(300 * MB) }));
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThan(2 * MB);
  });

  it("a body under the limit still works", async () => {
    const res = await trpcPOST(post("http://localhost/api/trpc/auth.login", JSON.stringify({ email: "nobody@example.test", password: "Password123" }), fromIp(freshIp())));
    expect(res.status).toBe(401);
    expect((await res.json()).error.detail).toBe("Invalid email or password");
  });
});

describe("the credential endpoints ignore any Authorization header", () => {
  it("a client sending a stale access token along can log in, refresh, log out", async () => {
    const agent = await createAgent(api);
    const stale = { token: "expired.or.garbage" };
    const login = await api.post("/auth/login", { email: agent.email, password: agent.password }, stale);
    expect(login.status).toBe(200);
    const refreshed = await api.post("/auth/refresh", { refresh_token: login.body.refresh_token }, stale);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token_type).toBe("bearer");
    const logout = await api.post("/auth/logout", { refresh_token: refreshed.body.refresh_token }, stale);
    expect(logout.status).toBe(204);
    const exchange = await api.post("/auth/oauth/exchange", { code: "not-a-code" }, stale);
    expect([400, 401]).toContain(exchange.status);
    expect(exchange.body.detail).not.toBe("Invalid or expired token");
    const register = await api.post("/auth/register", { email: `x${agent.email}`, password: "Password123", username: `x${agent.username}`.slice(0, 30) }, stale);
    expect(register.status).toBe(201);
    // Everywhere else a bad token is still a 401.
    expect((await api.get("/claims", stale)).status).toBe(401);
  });
});

describe("the session cookie", () => {
  it("is Secure in production unless NEXTAUTH_URL explicitly names plain http on a loopback host", () => {
    expect(useSecureCookies({ NODE_ENV: "production", NEXTAUTH_URL: undefined })).toBe(true);
    expect(useSecureCookies({ NODE_ENV: "production", NEXTAUTH_URL: "https://claims.example" })).toBe(true);
    expect(useSecureCookies({ NODE_ENV: "production", NEXTAUTH_URL: "http://claims.example" })).toBe(true);
    expect(useSecureCookies({ NODE_ENV: "production", NEXTAUTH_URL: "http://localhost:3000" })).toBe(false);
    expect(useSecureCookies({ NODE_ENV: "production", NEXTAUTH_URL: "http://127.0.0.1:4000" })).toBe(false);
    expect(useSecureCookies({ NODE_ENV: "development", NEXTAUTH_URL: undefined })).toBe(false);
    expect(useSecureCookies({ NODE_ENV: "test", NEXTAUTH_URL: "https://claims.example" })).toBe(true);
  });
});
