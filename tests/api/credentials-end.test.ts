// Which action ends which credential (docs/security.md#which-action-ends-which-credential), over real
// HTTP: the REST adapter, the OAuth server for MCP clients (its node handler, as the node-level guard
// mounts it), /mcp (its route handler) and mail received by a real SMTP server in this process. The
// consent page's answer is recorded through finishConsent, the function its route calls once it has
// checked the web session and the interaction cookie.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as trpcGet, POST as trpcPost } from "../../app/api/trpc/[trpc]/route.ts";
import { listMcpGrants, revokeMcpGrant } from "../../server/oauth/grants.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { createAgent, type TestAgent, type TestApi } from "../helpers/api.ts";
import { OAuthProviderServer, startCredentialServers } from "../helpers/mcp-code-flow.ts";
import { tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

/** The public origin (NEXTAUTH_URL in tests): the issuer, and the resource `${ORIGIN}/mcp`. */
const ORIGIN = "http://localhost:3000";

let api: TestApi;
let smtp: SmtpSink;
let oauth: OAuthProviderServer;
let servers: Awaited<ReturnType<typeof startCredentialServers>>;
beforeAll(async () => void ({ api, smtp, oauth } = servers = await startCredentialServers()));
afterAll(() => servers.close());

// ---- what a person or program would notice ----

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
    const mcp = await oauth.connectMcpClient(squatter.id);
    expect(await readNotifications(key)).toBe(200);
    expect(await oauth.mcpStatus(mcp.access)).toBe(200);
    expect(await webMeStatus(web)).toBe(200);
    expect(await oauth.silentCode(mcp)).toBe(true);

    // The owner proves the address.
    const done = await api.post("/auth/password-reset/confirm", { token: await resetLink(squatter.email), new_password: "Owner1234" });
    expect(done.status, done.text).toBe(204);

    expect(await readNotifications(key)).toBe(401);
    expect(await oauth.mcpStatus(mcp.access)).toBe(401);
    expect(await oauth.refreshStatus(mcp)).toBe(400);
    expect(await webMeStatus(web)).toBe(401);
    expect((await api.get("/auth/me", { token: squatter.token })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: squatter.refreshToken })).status).toBe(401);
    // The OAuth server's session cookie gets no code: its browser is sent to the consent page, which needs a sign-in.
    expect(await oauth.silentCode(mcp)).toBe(false);
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
    const mcp = await oauth.connectMcpClient(a.id);
    expect(await oauth.silentCode(mcp)).toBe(true);

    expect((await api.post("/auth/logout-everywhere", {}, { token: a.token })).status).toBe(204);

    expect(await oauth.mcpStatus(mcp.access)).toBe(401);
    expect(await oauth.refreshStatus(mcp)).toBe(400);
    // The 14-day session cookie of the OAuth server no longer yields a code for the approved client.
    expect(await oauth.silentCode(mcp)).toBe(false);
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
    const mcp = await oauth.connectMcpClient(a.id);
    const link = await resetLink(a.email);
    expect(await oauth.silentCode(mcp)).toBe(true);

    const changed = await api.post("/auth/password", { current_password: a.password, new_password: "Changed123" }, { token: a.token });
    expect(changed.status, changed.text).toBe(204);

    // Whoever had the mailed link (or the old session at the OAuth server) cannot undo the change.
    const reset = await api.post("/auth/password-reset/confirm", { token: link, new_password: "Attack1234" });
    expect(reset.status).toBe(400);
    expect(reset.body.detail).toBe("token: the link is invalid, used or expired");
    expect(await oauth.silentCode(mcp)).toBe(false);
    expect((await api.post("/auth/login", { email: a.email, password: "Changed123" })).status).toBe(200);
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(200);
    expect(await oauth.mcpStatus(mcp.access)).toBe(200);
    // A link asked for after the change works.
    expect((await api.post("/auth/password-reset/confirm", { token: await resetLink(a.email), new_password: "Later1234" })).status).toBe(204);
  });
});

describe("revoking one MCP client", () => {
  it("ends its tokens; the OAuth session stays, and the client must be approved again", async () => {
    const a = await createAgent(api);
    const mcp = await oauth.connectMcpClient(a.id);
    const [grant] = await listMcpGrants(a.id);
    await expect(revokeMcpGrant({ agentId: a.id, grantId: grant.grant_id })).resolves.toBeUndefined();
    expect(await oauth.mcpStatus(mcp.access)).toBe(401);
    expect(await oauth.refreshStatus(mcp)).toBe(400);
    expect(await oauth.silentCode(mcp)).toBe(false);
  });
});
