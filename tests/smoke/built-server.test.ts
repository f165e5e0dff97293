// Smoke test of the production build: `next build` output served by server/main.ts (what
// `npm start` runs), on an embedded database in a fresh DATA_DIR (or a fresh PostgreSQL schema).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, root } from "../helpers/built-server.ts";

let server: ChildProcess;
let base: string;
let dataDir: string;
let output = "";

beforeAll(async () => {
  ensureBuilt();
  const port = await freePort();
  dataDir = mkdtempSync(path.join(tmpdir(), "claims-smoke-"));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir };
  delete env.PGLITE_DATA_DIR;
  server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, detached: true });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!/Ready on/.test(output)) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 240_000);

afterAll(() => {
  if (server?.pid) process.kill(-server.pid, "SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the built server", () => {
  it("serves the home page through Next and the API through the adapter", async () => {
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<html");

    const username = `smoke_${process.pid}`;
    const reg = await fetch(`${base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${username}@example.test`, password: "Password123", username }),
    });
    expect(reg.status).toBe(201);
    expect(reg.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);

    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${username}@example.test`, password: "Password123" }),
    });
    expect(login.status).toBe(200);
    const pair = await login.json();
    const me = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${pair.access_token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe(username);

    const missing = await fetch(`${base}/api/v1/does-not-exist`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: "not_found", detail: "Not found" });

    const doc = await fetch(`${base}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).paths["/auth/login"]).toBeDefined();
  });

  it("refuses to start in production without secrets, naming the variable", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir };
    delete env.JWT_SECRET;
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("JWT_SECRET");
  });

  it.each([
    ["RATE_LIMIT_SCALE", "-2"],
    ["TRENDING_CACHE_SECONDS", "half a minute"],
    ["RECOMMENDED_CACHE_SECONDS", "-5"],
    ["SHUTDOWN_GRACE_SECONDS", "-1"],
  ])("refuses a bad %s, naming the variable", (name, value) => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, [name]: value },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(name);
  });

  // docs/architecture.md#pages-from-data, "Scripts only where a page is interactive": a visitor's phone
  // loads no query library and no date library for pages it only reads. The sign-up page, which writes
  // through the tRPC client, is the control: the same marker is found there.
  it("loads the query client only on pages that use it, and no date library anywhere", async () => {
    // One at a time, each asked again once if its connection broke (seen on a loaded CI machine): the
    // test reads what the scripts contain; a server that really stopped fails the second try too.
    const text = async (url: string | URL) => {
      try {
        return await (await fetch(url)).text();
      } catch {
        return await (await fetch(url)).text();
      }
    };
    const scriptsOf = async (page: string) => {
      const html = await text(`${base}${page}`);
      const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
      expect(srcs.length).toBeGreaterThan(0);
      const code: string[] = [];
      for (const src of srcs) code.push(await text(new URL(src, base)));
      return code.join("\n");
    };
    const QUERY_CLIENT = "No QueryClient set";
    const DATE_FNS = "lessThanXSeconds";
    for (const page of ["/", "/leaderboard", "/docs/standing"]) {
      const code = await scriptsOf(page);
      expect(code, page).not.toContain(QUERY_CLIENT);
      expect(code, page).not.toContain(DATE_FNS);
    }
    const signup = await scriptsOf("/signup");
    expect(signup).toContain(QUERY_CLIENT);
    expect(signup).not.toContain(DATE_FNS);
  });

  // server/http/static-brotli.ts: the build's scripts go in brotli to a browser that accepts it (once
  // encoded, in the background after start-up), byte for byte the file; gzip to one that does not;
  // a path that is not one of the build's files is never read from disk by it.
  it("sends the build's scripts in brotli to browsers that accept it, the same bytes, smaller than gzip", async () => {
    const home = await (await fetch(`${base}/`)).text();
    const script = [...home.matchAll(/<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1])[0];
    expect(script).toBeDefined();
    const { request } = await import("node:http");
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const get = (pathname: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        request(`${base}${pathname}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on("error", reject)
          .end();
      });
    let br = await get(script, { "accept-encoding": "gzip, deflate, br" });
    for (let i = 0; i < 60 && br.headers["content-encoding"] !== "br"; i++) {
      await new Promise((r) => setTimeout(r, 500));
      br = await get(script, { "accept-encoding": "gzip, deflate, br" });
    }
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(br.headers["x-content-type-options"]).toBe("nosniff");
    const gz = await get(script, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(brotliDecompressSync(br.body).equals(gunzipSync(gz.body))).toBe(true);
    expect(br.body.length).toBeLessThan(gz.body.length);
    const again = await get(script, { "accept-encoding": "br", "if-none-match": String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect((await get("/_next/static/chunks/%2e%2e/%2e%2e/server/config.ts", { "accept-encoding": "br" })).status).toBe(404);
  });

  // docs/architecture.md#pages-from-data, "No loading state where the page waits for its data anyway":
  // React's server renderer moves a finished Suspense boundary out of the first flush once the page
  // passes 12.8 KB, into a hidden block that only a script reveals — after the page has painted (the
  // part pushes the rest down on a phone) and never without scripts. A claim page with a long
  // evidence list and its author's profile must carry their text in the visible page.
  it("writes a claim page and a profile visibly, with nothing left in a hidden block for a script to reveal", async () => {
    const post = async (pathname: string, body: unknown, token?: string) => {
      const res = await fetch(`${base}/api/v1${pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      expect(res.status, `${pathname}: ${res.status}`).toBeLessThan(300);
      return (await res.json()) as Record<string, unknown>;
    };
    const username = `visible_${process.pid}`;
    await post("/auth/register", { email: `${username}@example.test`, password: "Password123", username });
    const { access_token: token } = await post("/auth/login", { email: `${username}@example.test`, password: "Password123" });
    const statement = `A claim whose page is long enough that its parts would be streamed apart (${process.pid}).`;
    const claim = await post("/claims", { statement }, token as string);
    for (let i = 0; i < 8; i++) {
      await post(`/claims/${claim.id}/evidence`, { position: i % 2 ? "opposes" : "supports", content_type: "text", content: `Evidence ${i}: ${"a measured observation ".repeat(60)}` }, token as string);
    }
    const hiddenBlocks = (html: string) => html.match(/<div hidden id="S:\d+"/g)?.length ?? 0;
    const claimPage = await (await fetch(`${base}/claims/${claim.id}`)).text();
    expect(claimPage.length).toBeGreaterThan(20_000);
    expect(hiddenBlocks(claimPage)).toBe(0);
    expect(claimPage).toContain("Evidence 7: a measured observation");
    const profile = await (await fetch(`${base}/profiles/${username}`)).text();
    expect(hiddenBlocks(profile)).toBe(0);
    // The list of the person's claims is in the page, not a "Loading…" waiting for a script's fetch.
    expect(profile).toContain(statement.slice(0, 60));
  });
});
