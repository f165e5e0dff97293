// OAuth for MCP clients against the production build, over plain HTTP (docs/features/mcp.md#oauth):
// both metadata documents with the fields MCP clients rely on, registration of public clients only
// (https or loopback redirect URIs), PKCE required, the MCP endpoint as the only resource, and the
// whole code flow with a web session — consent (the return address shown large), token, a tool call
// at /mcp, the token refused at /api/v1, refresh, revocation, and a suspension ending the client's
// access; and no `npm start` without NEXTAUTH_URL, the address all of it is named by.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { root, startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { dataDirWithAdmin } from "../helpers/seeded-admin.ts";
import { CALLBACK, Jar, pkce, webSignIn } from "../helpers/oauth-browser.ts";

// A verified admin, made before the server starts: ADMIN_EMAILS does not make a password registration one.
const ADMIN_EMAIL = `oauth-admin-${process.pid % 10000}@example.org`;
const ADMIN_PASSWORD = "Oauth-admin-passw0rd";
let adminDataDir: string | undefined;

let server: BuiltServer;

async function json(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.base}${path}`, { redirect: "manual", ...init });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    /* a page */
  }
  return { status: res.status, body, headers: res.headers };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  json(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  json(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });

async function registerClient(name: string, redirectUris = [CALLBACK]) {
  // A web client: its approval stands for its next authorization (a native app is asked every time).
  return post("/oauth/register", { client_name: name, application_type: "web", redirect_uris: redirectUris, token_endpoint_auth_method: "none" });
}

function authorizePath(clientId: string, challenge: string | null, extra: Record<string, string> = {}) {
  const pkceParams: Record<string, string> = challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {};
  const params = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: CALLBACK, scope: "read vote", state: "st", ...pkceParams, ...extra });
  return `/oauth/authorize?${params}`;
}

async function account(name: string) {
  const username = `${name}_${process.pid % 10000}`;
  const email = `${username}@example.test`;
  const reg = await post("/api/v1/auth/register", { email, password: "Password123", username });
  expect(reg.status).toBe(201);
  const login = await post("/api/v1/auth/login", { email, password: "Password123" });
  return { id: reg.body.id as string, email, token: login.body.access_token as string };
}

/** Follows redirects as a browser would, with the jar, until the client's callback. */
async function browse(jar: Jar, path: string, init: RequestInit = {}): Promise<{ location: string; status: number }> {
  let url = `${server.base}${path}`;
  let res = await fetch(url, { redirect: "manual", ...init, headers: { ...(init.headers ?? {}), cookie: jar.header() } });
  for (let hops = 0; hops < 10; hops++) {
    jar.take(res.headers);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return { location: url, status: res.status };
    url = new URL(location, url).toString();
    if (url.startsWith(CALLBACK) || new URL(url).pathname.startsWith("/consent/") || new URL(url).pathname === "/signin") return { location: url, status: res.status };
    res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  }
  throw new Error("too many redirects");
}

async function mcpList(token: string) {
  return json("/mcp", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

beforeAll(async () => {
  adminDataDir = dataDirWithAdmin(ADMIN_EMAIL, ADMIN_PASSWORD);
  server = await startBuiltServer((base) => ({ LOG_LEVEL: "error", NEXTAUTH_URL: base, DATA_DIR: adminDataDir }));
}, 240_000);

afterAll(() => {
  server?.stop();
  if (adminDataDir) rmSync(adminDataDir, { recursive: true, force: true });
});

describe("NEXTAUTH_URL", () => {
  it("npm start refuses to start without it, naming it: every address the service hands out is named by it", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: "1", DATA_DIR: adminDataDir };
    delete env.NEXTAUTH_URL;
    delete env.PGLITE_DATA_DIR;
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("NEXTAUTH_URL: required in production");
  }, 60_000);
});

describe("metadata", () => {
  it("the protected-resource document names the resource and its authorization server", async () => {
    const res = await json("/.well-known/oauth-protected-resource");
    expect(res.status).toBe(200);
    expect(res.body.resource).toBe(`${server.base}/mcp`);
    expect(res.body.authorization_servers).toEqual([server.base]);
    expect(res.body.scopes_supported).toEqual(["read", "vote", "write", "webhooks"]);
    expect(res.body.bearer_methods_supported).toEqual(["header"]);
  });

  it("the protected-resource document also answers at its path-suffixed address (RFC 9728 §3.1, tried first by clients that discover before their first call), for any origin", async () => {
    const plain = await json("/.well-known/oauth-protected-resource");
    const res = await fetch(`${server.base}/.well-known/oauth-protected-resource/mcp`, { headers: { origin: "https://inspector.example", "mcp-protocol-version": "2025-11-25" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(body).toEqual(plain.body);
    expect(body.resource).toBe(`${server.base}/mcp`);
    expect(body.authorization_servers).toEqual([server.base]);
    // A browser-based client sending MCP-Protocol-Version asks first.
    const preflight = await fetch(`${server.base}/.well-known/oauth-protected-resource/mcp`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
  });

  it("the authorization-server document has what an MCP client needs (RFC 8414)", async () => {
    const res = await json("/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    const m = res.body;
    expect(m.issuer).toBe(server.base);
    for (const field of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"]) {
      expect(String(m[field])).toMatch(new RegExp(`^${server.base}/oauth/`));
    }
    expect(m.code_challenge_methods_supported).toEqual(["S256"]);
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(m.response_types_supported).toEqual(["code"]);
    expect(m.token_endpoint_auth_methods_supported).toEqual(["none"]);
  });
});

describe("registration and authorization requests", () => {
  it("registers public clients with https or loopback redirect URIs on any port, and nothing else", async () => {
    const loopback = await registerClient("Loopback", ["http://localhost:61111/callback", "http://127.0.0.1:7/cb", "https://agent.example/cb"]);
    expect(loopback.status).toBe(201);
    expect(loopback.body.client_secret).toBeUndefined();
    const plainHttp = await registerClient("Plain http", ["http://agent.example/cb"]);
    expect(plainHttp.status).toBe(400);
    expect(plainHttp.body.error).toBe("invalid_redirect_uri");
    const confidential = await post("/oauth/register", { client_name: "Secret", redirect_uris: [CALLBACK], token_endpoint_auth_method: "client_secret_basic" });
    expect(confidential.status).toBe(400);
    expect(confidential.body.error).toBe("invalid_client_metadata");
  });

  it("requires PKCE and the MCP endpoint as the resource", async () => {
    const client = await registerClient("Strict");
    const id = client.body.client_id as string;
    const noPkce = await json(authorizePath(id, null));
    expect(noPkce.status).toBe(303);
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
    // "plain" is not a method here: no consent page for it.
    const plain = await json(authorizePath(id, "x".repeat(43), { code_challenge_method: "plain" }));
    expect(plain.headers.get("location") ?? "").not.toMatch(/^\/consent\//);
    expect(plain.status === 400 || new URL(plain.headers.get("location")!).searchParams.get("error") === "invalid_request").toBe(true);
    const elsewhere = await json(authorizePath(id, pkce().challenge, { resource: `${server.base}/api/v1` }));
    expect(new URL(elsewhere.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
    const good = await json(authorizePath(id, pkce().challenge, { resource: `${server.base}/mcp` }));
    expect(good.status).toBe(303);
    expect(good.headers.get("location")).toMatch(/^\/consent\//);
  });
});

describe("the code flow with a web session", () => {
  it("consent → code → token → /mcp; refused at /api/v1; refresh; revocation; suspension ends it", async () => {
    const person = await account("oauth_flow");
    const client = await registerClient("Flow agent");
    const clientId = client.body.client_id as string;
    const { verifier, challenge } = pkce();
    const jar = new Jar();

    // Not signed in: the consent page sends the person to sign in.
    const toConsent = await browse(jar, authorizePath(clientId, challenge, { resource: `${server.base}/mcp` }));
    const consentPath = new URL(toConsent.location).pathname;
    expect(consentPath).toMatch(/^\/consent\//);
    // (The app streams its pages, so the redirect may come inside the page rather than as a 307.)
    const signInFirst = await fetch(`${server.base}${consentPath}`, { redirect: "manual", headers: { cookie: jar.header() } });
    const signInTarget = `/signin?redirect_to=${encodeURIComponent(consentPath)}`;
    expect(signInFirst.headers.get("location") ?? (await signInFirst.text())).toContain(signInTarget.replace(/&/g, "&amp;").split("&amp;")[0]);

    await webSignIn(server.base, jar, person.email);
    expect(jar.header()).toContain("next-auth.session-token");
    const page = await fetch(`${server.base}${consentPath}`, { headers: { cookie: jar.header() } });
    const html = await page.text();
    expect(html).toContain("Flow agent");
    // Where the answer goes, large and once: the one thing the client's chosen name cannot change.
    expect(html).toMatch(/<code[^>]*data-return-host="true"[^>]*>127\.0\.0\.1:51234<\/code>/);
    expect(html).toContain('data-scope="read"');
    expect(html).toContain('data-scope="vote"');
    expect(html).not.toContain('data-scope="write"');

    // A cross-site form is refused and changes nothing.
    const crossSite = await form(`${consentPath}/decision`, { decision: "allow" }, { cookie: jar.header(), origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);

    const allowed = await browse(jar, `${consentPath}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base },
      body: new URLSearchParams({ decision: "allow" }),
    });
    const callback = new URL(allowed.location);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    const code = callback.searchParams.get("code")!;
    expect(code).toBeTruthy();

    const tokens = await form("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const access = tokens.body.access_token as string;
    const refresh = tokens.body.refresh_token as string;
    expect(refresh).toBeTruthy();

    const listed = await mcpList(access);
    expect(listed.status).toBe(200);
    const names = ((listed.body.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(names).toContain("cast_vote");
    expect(names).not.toContain("create_claim");

    expect((await json("/api/v1/auth/me", { headers: { authorization: `Bearer ${access}` } })).status).toBe(401);

    // Refresh, then revoke the new access token: it stops working at once.
    const renewed = await form("/oauth/token", { grant_type: "refresh_token", refresh_token: refresh, client_id: clientId });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const access2 = renewed.body.access_token as string;
    expect((await mcpList(access2)).status).toBe(200);
    const revoked = await form("/oauth/revoke", { token: access2, token_type_hint: "access_token", client_id: clientId });
    expect(revoked.status).toBe(200);
    expect((await mcpList(access2)).status).toBe(401);

    // A refusal for another client goes back with access_denied.
    const other = await registerClient("Refused agent");
    const second = await browse(jar, authorizePath(other.body.client_id as string, pkce().challenge));
    const secondConsent = new URL(second.location).pathname;
    expect(secondConsent).toMatch(/^\/consent\//);
    const denied = await browse(jar, `${secondConsent}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base },
      body: new URLSearchParams({ decision: "deny" }),
    });
    expect(new URL(denied.location).searchParams.get("error")).toBe("access_denied");

    // Revoking a token ends the grant: its refresh token is dead too.
    const afterRevoke = await form("/oauth/token", { grant_type: "refresh_token", refresh_token: renewed.body.refresh_token as string, client_id: clientId });
    expect(afterRevoke.status).toBe(400);

    // A new authorization (the consent stands), then a suspension deletes the grant: the access token stops working.
    const { verifier: v3, challenge: c3 } = pkce();
    const third = await browse(jar, authorizePath(clientId, c3));
    expect(third.location.startsWith(CALLBACK)).toBe(true);
    const code3 = new URL(third.location).searchParams.get("code")!;
    const tokens3 = await form("/oauth/token", { grant_type: "authorization_code", code: code3, redirect_uri: CALLBACK, client_id: clientId, code_verifier: v3 });
    expect(tokens3.status, JSON.stringify(tokens3.body)).toBe(200);
    const access3 = tokens3.body.access_token as string;
    expect((await mcpList(access3)).status).toBe(200);
    const adminLogin = await post("/api/v1/auth/login", { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(adminLogin.status).toBe(200);
    const admin = { token: adminLogin.body.access_token as string };
    const suspended = await post(`/api/v1/moderation/agents/${person.id}/suspend`, { reason: "testing" }, { authorization: `Bearer ${admin.token}` });
    expect(suspended.status, JSON.stringify(suspended.body)).toBeLessThan(300);
    expect((await mcpList(access3)).status).toBe(401);
    const afterSuspension = await form("/oauth/token", { grant_type: "refresh_token", refresh_token: tokens3.body.refresh_token as string, client_id: clientId });
    expect(afterSuspension.status).toBe(400);

    // A code is good once.
    const replay = await form("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
    expect(replay.status).toBe(400);
  });
});
