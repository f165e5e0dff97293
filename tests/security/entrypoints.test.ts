// Every way in, over real HTTP, in every way the app starts: `npm start` (server/main.ts, 320 MB
// heap as in package.json) and `next start` (no main.ts: instrumentation.ts installs the same guard).
//   - 300 MB posted to each entry point (declared Content-Length, and chunked) is answered 413 without
//     being buffered, and the server keeps serving;
//   - the client IP is the address our trusted proxy appended (TRUST_PROXY=1: the rightmost), so a
//     client-written leftmost hop changes nothing, on /api/v1, /api/trpc and pages;
//   - page renders have their own budget (PAGE_RATE_LIMIT), answered with a plain 429 page.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, root } from "../helpers/built-server.ts";
import { inOneBucket } from "../helpers/time.ts";

const MB = 1024 * 1024;
const PAGE_LIMIT = 8;

interface Running {
  base: string;
  child: ChildProcess;
  dataDir: string;
  output: () => string;
}

async function launch(kind: "npm start" | "next start"): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "claims-guard-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    TRUST_PROXY: "1",
    RATE_LIMIT_SCALE: "1",
    PAGE_RATE_LIMIT: String(PAGE_LIMIT),
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NODE_OPTIONS: "--max-old-space-size=320",
    LOG_LEVEL: "error",
  };
  delete env.PGLITE_DATA_DIR;
  const args =
    kind === "npm start"
      ? ["--max-old-space-size=320", "--import", "tsx", "server/main.ts"]
      : [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"];
  const child = spawn(process.execPath, args, { cwd: root, env, detached: true });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${kind} did not start:\n${out}`);
    // /auth/me answers (401) once the database is open and migrated.
    const ok = await fetch(`${base}/api/v1/auth/me`).then((r) => r.status === 401, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  return { base, child, dataDir, output: () => out };
}

/** Posts `total` bytes, 1 MiB at a time with backpressure, until the server answers or drops the connection. */
function blast(base: string, pathname: string, total: number, declare: boolean, headers: Record<string, string> = {}) {
  return new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
    const url = new URL(pathname, base);
    const req = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: "POST",
      headers: { "content-type": "application/json", ...(declare ? { "content-length": String(total) } : {}), ...headers },
    });
    let done = false;
    const finish = (r: { status?: number; body?: string; error?: string }) => {
      if (done) return;
      done = true;
      resolve(r);
      req.destroy();
    };
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => finish({ status: res.statusCode, body }));
      res.on("error", () => finish({ status: res.statusCode, body }));
    });
    // A reset may overtake the answer already on its way: give it a moment.
    req.on("error", (err: NodeJS.ErrnoException) => setTimeout(() => finish({ error: err.code ?? err.message }), 500));
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const pump = () => {
      while (!done && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!done) req.end();
    };
    if (declare) {
      // A declared size over the limit is refused before a byte of the body is read: the answer comes
      // with the headers alone (pumping at once could lose it to EPIPE once the server closes).
      req.flushHeaders();
      setTimeout(pump, 1500);
    } else pump();
  });
}

let ipCounter = 0;
const freshIp = () => `10.${(process.pid >> 8) % 250}.${process.pid % 250}.${++ipCounter}`;
/** Our (pretend) load balancer appended the client's address; the client wrote whatever it liked before it. */
const via = (ip: string, spoofed = `198.18.${ipCounter % 250}.${Math.floor(Math.random() * 250)}`) => ({ "x-forwarded-for": `${spoofed}, ${ip}` });

beforeAll(() => ensureBuilt());

describe.each(["npm start", "next start"] as const)("%s", (kind) => {
  let app: Running;
  beforeAll(async () => {
    app = await launch(kind);
  }, 180_000);
  afterAll(() => {
    if (app?.child.pid) process.kill(-app.child.pid, "SIGKILL");
    if (app?.dataDir) rmSync(app.dataDir, { recursive: true, force: true });
  });

  const alive = async () => {
    const res = await fetch(`${app.base}/api/v1/health`, { headers: via(freshIp()) });
    expect(res.status, app.output()).toBe(200);
  };

  const entryPoints: [string, Record<string, string>][] = [
    ["/api/v1/auth/login", {}],
    ["/api/trpc/auth.login?batch=1", {}],
    ["/api/auth/callback/credentials", { "content-type": "application/x-www-form-urlencoded" }],
    ["/", { "next-action": "0".repeat(42) }],
    ["/mcp", { accept: "application/json, text/event-stream" }],
  ];

  it.each(entryPoints.flatMap(([p, h]) => [[p, "Content-Length", h], [p, "chunked", h]] as const))(
    "300 MB to %s (%s): 413, never buffered, and the server keeps serving",
    async (pathname, mode, headers) => {
      const res = await blast(app.base, pathname, 300 * MB, mode === "Content-Length", { ...headers, ...via(freshIp()) });
      if (pathname === "/" && mode === "chunked") {
        // A page POST is a server action: Next reads it with its 256 KiB serverActions.bodySizeLimit
        // (an unknown action may be refused before any reading). Never a 5xx, never a crash.
        expect(res.status ?? 0, JSON.stringify(res)).toBeLessThan(500);
      } else if (mode === "chunked" && res.error) {
        // The 413 was sent and the connection closed while the client was still writing: its TCP stack
        // may report the reset before handing over the answer (the exact 413 of a streamed body is
        // checked in process: tests/api/guards.test.ts).
        expect(["EPIPE", "ECONNRESET"]).toContain(res.error);
      } else {
        expect(res.status, JSON.stringify(res)).toBe(413);
        if (res.body?.startsWith("{")) expect(JSON.parse(res.body)).toEqual({ code: "payload_too_large", detail: "Request body too large (limit 256 KiB)" });
      }
      await alive();
    },
    120_000,
  );

  it("several 300 MB uploads at once leave the server serving", async () => {
    const all = await Promise.all(entryPoints.slice(0, 3).map(([p, h]) => blast(app.base, p, 300 * MB, false, { ...h, ...via(freshIp()) })));
    for (const r of all) expect(r.status === 413 || r.error === "EPIPE" || r.error === "ECONNRESET", JSON.stringify(r)).toBe(true);
    await alive();
  }, 120_000);

  it("REST: a client-written leftmost X-Forwarded-For hop changes nothing (60 per minute per real IP)", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) statuses.push((await fetch(`${app.base}/api/v1/health`, { headers: via(ip, `203.0.113.${i}`) })).status);
      // A window boundary may hand back some of the count: at most one more may pass.
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(60);
      const last = await fetch(`${app.base}/api/v1/health`, { headers: via(ip, "203.0.113.250") });
      expect(last.status).toBe(429);
      // The same client with no spoofing at all: the same budget.
      expect((await fetch(`${app.base}/api/v1/health`, { headers: { "x-forwarded-for": ip } })).status).toBe(429);
      // Another real client is not affected: the IP was really told apart (not one shared "unknown").
      expect((await fetch(`${app.base}/api/v1/health`, { headers: via(freshIp(), "203.0.113.1") })).status).toBe(200);
    });
  }, 60_000);

  it("tRPC: a batch of 10 costs 10; batches over 10 are refused with 400; spoofing changes nothing", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const batch = (n: number) =>
        `${app.base}/api/trpc/${Array(n).fill("claims.list").join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]))))}`;
      const tooBig = await fetch(batch(200), { headers: via(ip) });
      expect(tooBig.status).toBe(400);
      expect(await tooBig.json()).toMatchObject({ code: "validation_failed", detail: "batch: at most 10 calls per request (got 200)" });
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await fetch(batch(10), { headers: via(ip, `203.0.113.${i}`) })).status);
      // 60 units: six batches of 10, the seventh is refused.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      // The same budget as /api/v1.
      expect((await fetch(`${app.base}/api/v1/health`, { headers: via(ip, "203.0.113.99") })).status).toBe(429);
    });
  }, 60_000);

  it("pages under attack: hostile paths, queries and every method, from IPv4 and IPv6 clients, are never a 5xx", async () => {
    const hostile = [
      "/?q=" + encodeURIComponent("'; DROP TABLE claims; --"),
      "/?q=" + "x".repeat(5000),
      "/?q=%00%ff%fe",
      "/?q=a&q=b&limit=-1&offset=1e309&sort=__proto__",
      "/?page=99999999999999999999",
      "/claims/not-a-uuid",
      "/claims/" + "%E0%A4%A".repeat(3),
      "/claims/00000000-0000-0000-0000-000000000000",
      "/profiles/" + encodeURIComponent("<script>alert(1)</script>"),
      "/profiles/%00",
      "/topics/" + "t".repeat(3000),
      "/topics/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      "/..%2f..%2fpackage.json",
      "/_next/static/../../server/config.ts",
    ];
    let n = 0;
    for (const target of hostile) {
      // Every method renders a page (server/http/page-routes.ts); clients over IPv4 and IPv6.
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const client = ++n % 2 ? freshIp() : `2001:db8:${(process.pid % 0xffff).toString(16)}:${n.toString(16)}::${n.toString(16)}`;
        const withBody = method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
        const res = await fetch(`${app.base}${target}`, {
          method,
          headers: { ...via(client), ...(withBody ? { "content-type": "text/plain", "next-action": "x" } : {}) },
          body: withBody ? "garbage" : undefined,
        });
        const text = await res.text();
        expect(res.status, `${method} ${target}: ${text.slice(0, 200)}`).toBeLessThan(500);
        expect(text).not.toMatch(/prisma|postgres|node_modules|at \w+ \(/i);
      }
    }
  }, 120_000);

  it("MCP: 401 pointing at the resource metadata; tool calls charge the caller's API budget, never the page budget", async () => {
    const ip = freshIp();
    const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream", ...via(ip) };
    const call = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "trending_claims", arguments: {} } });
    const anonymous = await fetch(`${app.base}/mcp`, { method: "POST", headers: mcpHeaders, body: call(1) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${app.base}/.well-known/oauth-protected-resource"`);
    expect((await fetch(`${app.base}/mcp`, { headers: via(ip) })).status).toBe(405);

    const username = `guard_mcp_${process.pid % 10000}_${kind === "npm start" ? "a" : "b"}`;
    const credentials = { email: `${username}@example.test`, password: "Password123" };
    expect((await fetch(`${app.base}/api/v1/auth/register`, { method: "POST", headers: { "content-type": "application/json", ...via(ip) }, body: JSON.stringify({ ...credentials, username }) })).status).toBe(201);
    const { access_token } = await (await fetch(`${app.base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json", ...via(ip) }, body: JSON.stringify(credentials) })).json();
    await inOneBucket(60_000, async () => {
    const remaining: number[] = [];
    for (let i = 0; i < PAGE_LIMIT + 2; i++) {
      const res = await fetch(`${app.base}/mcp`, { method: "POST", headers: { ...mcpHeaders, authorization: `Bearer ${access_token}` }, body: call(i) });
      expect(res.status).toBe(200);
      expect((await res.json()).result.isError).toBeFalsy();
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    // One unit per tool call, from the same budget as REST.
    expect(remaining[0] - remaining[remaining.length - 1]).toBe(remaining.length - 1);
    const me = await fetch(`${app.base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${access_token}`, ...via(ip) } });
    expect(Number(me.headers.get("x-ratelimit-remaining"))).toBeLessThan(remaining[remaining.length - 1]);
    });
    // More MCP calls than the page budget, and that IP still renders pages.
    expect((await fetch(`${app.base}/`, { headers: via(ip) })).status).toBe(200);
  }, 60_000);

  it("pages: their own per-IP budget, a plain 429 page with Retry-After; spoofing changes nothing", async () => {
    await inOneBucket(60_000, async () => {
      const ip = freshIp();
      const pages = ["/", "/?q=guard", "/topics/science", "/profiles/nobody_here", `/claims/${crypto.randomUUID()}`];
      const statuses: number[] = [];
      for (let i = 0; i < PAGE_LIMIT; i++) {
        const res = await fetch(`${app.base}${pages[i % pages.length]}`, { headers: via(ip, `203.0.113.${i}`) });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses.every((s) => s === 200 || s === 404), String(statuses)).toBe(true);
      const refused = await fetch(`${app.base}/claims/${crypto.randomUUID()}`, { headers: via(ip, "203.0.113.77") });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toMatch(/^text\/html/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await refused.text()).toContain("Too many requests");
      // The API budget of that IP is its own.
      expect((await fetch(`${app.base}/api/v1/health`, { headers: via(ip) })).status).toBe(200);
      // Next's files and the app's route handlers are not renders (an unknown "/favicon.ico" is: it
      // renders the not-found page).
      expect((await fetch(`${app.base}/icon.svg`, { headers: via(ip) })).status).toBe(200);
      expect((await fetch(`${app.base}/_next/static/missing.js`, { headers: via(ip) })).status).toBe(404);
      expect((await fetch(`${app.base}/favicon.ico`, { headers: via(ip) })).status).toBe(429);
    });
  }, 60_000);
});
