// Which action ends which credential (docs/security.md#which-action-ends-which-credential), over real
// HTTP: the REST adapter, the OAuth server for MCP clients (its node handler, as the node-level guard
// mounts it), /mcp (its route handler) and mail received by a real SMTP server in this process. The
// consent page's answer is recorded through finishConsent, the function its route calls once it has
// checked the web session and the interaction cookie.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as trpcGet, POST as trpcPost } from "../../app/api/trpc/[trpc]/route.ts";
import { POST as mcpPost } from "../../app/mcp/route.ts";
import { finishConsent, handleOAuthRequest, listMcpGrants } from "../../server/auth/mcp-oauth.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { createAgent, startApi, uniqueName, type TestAgent, type TestApi } from "../helpers/api.ts";
import { startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

/** The public origin (NEXTAUTH_URL in tests): the issuer, and the resource `${ORIGIN}/mcp`. */
const ORIGIN = "http://localhost:3000";
const CALLBACK = "http://127.0.0.1:51234/cb";

let api: TestApi;
let smtp: SmtpSink;
let oauth: Server;
let oauthBase: string;
beforeAll(async () => {
  smtp = await startSmtpSink();
  process.env.SMTP_URL = smtp.url;
  api = await startApi();
  oauth = createServer((req, res) => void handleOAuthRequest(ORIGIN, req, res));
  await new Promise<void>((resolve) => oauth.listen(0, "127.0.0.1", resolve));
  oauthBase = `http://127.0.0.1:${(oauth.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => oauth.close(() => resolve()));
  await api.close();
  await smtp.close();
});

// ---- a browser at the OAuth server ----

/** Cookies as a browser keeps them (name → value; every request here may carry them). */
class Jar {
  private cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const c of headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** An address the provider names (absolute under the issuer, or a path) at the OAuth server here. */
const atOAuthServer = (location: string) => {
  const url = new URL(location, ORIGIN);
  return `${oauthBase}${url.pathname}${url.search}`;
};

const oauthFetch = (path: string, init: RequestInit = {}) => fetch(atOAuthServer(path), { redirect: "manual", ...init });

async function oauthForm(path: string, fields: Record<string, string>) {
  const res = await oauthFetch(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/**
 * Follows the provider's redirects with the jar until it hands the browser to the consent page or to
 * the client's callback: which of the two, and the interaction or the code.
 */
async function authorize(jar: Jar, clientId: string, challenge: string): Promise<{ consent?: string; code?: string }> {
  const params = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: CALLBACK, scope: "read write", state: "st", code_challenge: challenge, code_challenge_method: "S256" });
  let location = `/oauth/authorize?${params}`;
  for (let hops = 0; hops < 6; hops++) {
    const res = await oauthFetch(location, { headers: { cookie: jar.header() } });
    jar.take(res.headers);
    const next = res.headers.get("location");
    expect(next, `${res.status} ${await res.text()}`).toBeTruthy();
    if (next!.startsWith(CALLBACK)) return { code: new URL(next!).searchParams.get("code") ?? undefined };
    const path = new URL(next!, ORIGIN).pathname;
    if (path.startsWith("/consent/")) return { consent: path.slice("/consent/".length) };
    location = next!;
  }
  throw new Error("too many redirects");
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

interface McpClient {
  clientId: string;
  /** The browser that approved it: holds the OAuth server's session cookie. */
  jar: Jar;
  access: string;
  refresh: string;
}

/** Registers a client, and the agent approves it in a fresh browser: the whole code flow, then tokens. */
async function connectMcpClient(agentId: string): Promise<McpClient> {
  const registered = await oauthFetch("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: uniqueName("agent"), redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
  });
  expect(registered.status).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const jar = new Jar();
  const { verifier, challenge } = pkce();
  const first = await authorize(jar, clientId, challenge);
  expect(first.consent).toBeTruthy();
  const resume = await finishConsent(ORIGIN, first.consent!, agentId, true);
  const back = await oauthFetch(resume!, { headers: { cookie: jar.header() } });
  jar.take(back.headers);
  const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
  const tokens = await oauthForm("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return { clientId, jar, access: tokens.body.access_token, refresh: tokens.body.refresh_token };
}

// ---- what a person or program would notice ----

async function mcpStatus(token: string): Promise<number> {
  const res = await mcpPost(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
  return res.status;
}

/** A new access token from the MCP refresh token: 200, or the provider's 400 invalid_grant. */
const mcpRefreshStatus = async (client: McpClient) =>
  (await oauthForm("/oauth/token", { grant_type: "refresh_token", refresh_token: client.refresh, client_id: client.clientId })).status;

/** Whether the browser that approved the client gets a code again without anyone signing in or consenting. */
async function silentCode(client: McpClient): Promise<boolean> {
  const outcome = await authorize(client.jar, client.clientId, pkce().challenge);
  return outcome.code !== undefined;
}

async function webSessionCookie(agentId: string): Promise<string> {
  const sid = await startWebSession(agentId);
  const token = await encode({ token: { sub: agentId, authTime: Math.floor(Date.now() / 1000), sid }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${token}`;
}

const webMeStatus = async (cookie: string) =>
  (await trpcGet(new Request(`${ORIGIN}/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { cookie } }))).status;

const readNotifications = async (key: string) => (await api.get("/notifications", { token: key })).status;

async function apiKey(agent: TestAgent): Promise<string> {
  const res = await api.post("/auth/api-keys", { name: "bot", scopes: ["read", "write"] }, { token: agent.token });
  expect(res.status).toBe(201);
  return res.body.key as string;
}

async function resetLink(email: string): Promise<string> {
  const since = Date.now();
  expect((await api.post("/auth/password-reset", { email })).status).toBe(202);
  return tokenIn(await smtp.waitForMail(email, { subject: /Reset your password/, since }), "/reset-password");
}

// ---- the actions ----

describe("completing a password reset", () => {
  it("ends everything a squatter held on the owner's address: key, MCP tokens, OAuth session, web session, logins", async () => {
    // Someone registers the owner's address before the owner does, and equips the account.
    const squatter = await createAgent(api);
    const key = await apiKey(squatter);
    const web = await webSessionCookie(squatter.id);
    const mcp = await connectMcpClient(squatter.id);
    expect(await readNotifications(key)).toBe(200);
    expect(await mcpStatus(mcp.access)).toBe(200);
    expect(await webMeStatus(web)).toBe(200);
    expect(await silentCode(mcp)).toBe(true);

    // The owner proves the address.
    const done = await api.post("/auth/password-reset/confirm", { token: await resetLink(squatter.email), new_password: "Owner1234" });
    expect(done.status, done.text).toBe(204);

    expect(await readNotifications(key)).toBe(401);
    expect(await mcpStatus(mcp.access)).toBe(401);
    expect(await mcpRefreshStatus(mcp)).toBe(400);
    expect(await webMeStatus(web)).toBe(401);
    expect((await api.get("/auth/me", { token: squatter.token })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: squatter.refreshToken })).status).toBe(401);
    // The OAuth server's session cookie gets no code: its browser is sent to the consent page, which needs a sign-in.
    expect(await silentCode(mcp)).toBe(false);
    expect(await listMcpGrants(squatter.id)).toEqual([]);
    // The owner's new password works, and what they make from now on works.
    const login = await api.post("/auth/login", { email: squatter.email, password: "Owner1234" });
    expect(login.status).toBe(200);
    expect((await api.get("/auth/me", { token: login.body.access_token })).status).toBe(200);
  });
});

describe("sign out everywhere", () => {
  it("ends logins, web sessions, MCP grants and tokens and the OAuth server's session; API keys keep working", async () => {
    const a = await createAgent(api);
    const key = await apiKey(a);
    const web = await webSessionCookie(a.id);
    const mcp = await connectMcpClient(a.id);
    expect(await silentCode(mcp)).toBe(true);

    expect((await api.post("/auth/logout-everywhere", {}, { token: a.token })).status).toBe(204);

    expect(await mcpStatus(mcp.access)).toBe(401);
    expect(await mcpRefreshStatus(mcp)).toBe(400);
    // The 14-day session cookie of the OAuth server no longer yields a code for the approved client.
    expect(await silentCode(mcp)).toBe(false);
    expect(await webMeStatus(web)).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    expect(await readNotifications(key)).toBe(200);
  });

  it("revokes the API keys too when asked, from the settings page's tRPC call", async () => {
    const a = await createAgent(api);
    const key = await apiKey(a);
    const web = await webSessionCookie(a.id);
    const res = await trpcPost(
      new Request(`${ORIGIN}/api/trpc/account.signOutEverywhere`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: web },
        body: JSON.stringify({ revoke_api_keys: true }),
      }),
    );
    expect(res.status, await res.text()).toBe(200);
    expect(await readNotifications(key)).toBe(401);
    expect(await webMeStatus(web)).toBe(401);
    // Strict: the string "false" is not false (nor true), and a refused request ends nothing.
    const b = await createAgent(api);
    const bad = await api.post("/auth/logout-everywhere", { revoke_api_keys: "false" }, { token: b.token });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("revoke_api_keys: must be true or false");
    expect((await api.get("/auth/me", { token: b.token })).status).toBe(200);
  });
});

describe("a password change", () => {
  it("ends the OAuth server's sessions and earlier reset links; the caller's login and MCP clients stay", async () => {
    const a = await createAgent(api);
    const mcp = await connectMcpClient(a.id);
    const link = await resetLink(a.email);
    expect(await silentCode(mcp)).toBe(true);

    const changed = await api.post("/auth/password", { current_password: a.password, new_password: "Changed123" }, { token: a.token });
    expect(changed.status, changed.text).toBe(204);

    // Whoever had the mailed link (or the old session at the OAuth server) cannot undo the change.
    const reset = await api.post("/auth/password-reset/confirm", { token: link, new_password: "Attack1234" });
    expect(reset.status).toBe(400);
    expect(reset.body.detail).toBe("token: the link is invalid, used or expired");
    expect(await silentCode(mcp)).toBe(false);
    expect((await api.post("/auth/login", { email: a.email, password: "Changed123" })).status).toBe(200);
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(200);
    expect(await mcpStatus(mcp.access)).toBe(200);
    // A link asked for after the change works.
    expect((await api.post("/auth/password-reset/confirm", { token: await resetLink(a.email), new_password: "Later1234" })).status).toBe(204);
  });
});

describe("revoking one MCP client", () => {
  it("ends its tokens; the OAuth session stays, and the client must be approved again", async () => {
    const a = await createAgent(api);
    const mcp = await connectMcpClient(a.id);
    const [grant] = await listMcpGrants(a.id);
    const { revokeMcpGrant } = await import("../../server/auth/mcp-oauth.ts");
    expect(await revokeMcpGrant(a.id, grant.grant_id)).toBe(true);
    expect(await mcpStatus(mcp.access)).toBe(401);
    expect(await mcpRefreshStatus(mcp)).toBe(400);
    expect(await silentCode(mcp)).toBe(false);
  });
});
