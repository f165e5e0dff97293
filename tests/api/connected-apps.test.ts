// The MCP clients a person has allowed (docs/features/mcp.md#oauth, "Granted clients"), as the settings
// page lists and revokes them: through the web's tRPC endpoint (connectedApps.list, connectedApps.revoke)
// with the person's web session, against a real OAuth server and /mcp.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as trpcGet, POST as trpcPost } from "../../app/api/trpc/[trpc]/route.ts";
import { startWebSession } from "../../server/services/web-sessions.ts";
import { createAgent, type TestAgent, type TestApi } from "../helpers/api.ts";
import { OAuthProviderServer, startCredentialServers } from "../helpers/mcp-code-flow.ts";

const ORIGIN = "http://localhost:3000";

let api: TestApi;
let oauth: OAuthProviderServer;
let servers: Awaited<ReturnType<typeof startCredentialServers>>;
beforeAll(async () => void ({ api, oauth } = servers = await startCredentialServers()));
afterAll(() => servers.close());

async function webSession(agentId: string): Promise<Record<string, string>> {
  const sid = await startWebSession(agentId);
  const token = await encode({ token: { sub: agentId, authTime: Math.floor(Date.now() / 1000), sid }, secret: process.env.NEXTAUTH_SECRET! });
  return { cookie: `next-auth.session-token=${token}` };
}

async function listApps(headers: Record<string, string>) {
  const res = await trpcGet(new Request(`${ORIGIN}/api/trpc/connectedApps.list?input=${encodeURIComponent("{}")}`, { headers }));
  const body = (await res.json()) as { result?: { data: { connected_apps: { grant_id: string; client_name: string; scopes: string[]; created_at: string }[] } } };
  return { status: res.status, apps: body.result?.data.connected_apps ?? [] };
}

async function revokeApp(headers: Record<string, string>, grantId: string) {
  const res = await trpcPost(
    new Request(`${ORIGIN}/api/trpc/connectedApps.revoke`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ grant_id: grantId }),
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function apiKey(agent: TestAgent): Promise<string> {
  const res = await api.post("/auth/api-keys", { name: "bot", scopes: ["read", "vote", "write", "webhooks"] }, { token: agent.token });
  expect(res.status).toBe(201);
  return res.body.key as string;
}

describe("connected apps in settings", () => {
  it("lists each client the person allowed, with its scopes; revoking one ends its tokens at once and leaves the others", async () => {
    const person = await createAgent(api);
    const web = await webSession(person.id);
    expect((await listApps(web)).apps).toEqual([]);
    const reader = await oauth.connectMcpClient(person.id, "read");
    const writer = await oauth.connectMcpClient(person.id, "read vote write");

    const listed = await listApps(web);
    expect(listed.status).toBe(200);
    expect(listed.apps).toHaveLength(2);
    const readerApp = listed.apps.find((a) => a.scopes.join(" ") === "read")!;
    const writerApp = listed.apps.find((a) => a.scopes.join(" ") === "read vote write")!;
    expect(readerApp.client_name).toMatch(/^agent/);
    expect(Date.parse(writerApp.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const revoked = await revokeApp(web, readerApp.grant_id);
    expect(revoked.status).toBe(200);
    expect(await oauth.mcpStatus(reader.access)).toBe(401);
    expect(await oauth.refreshStatus(reader)).toBe(400);
    expect(await oauth.mcpStatus(writer.access)).toBe(200);
    expect((await listApps(web)).apps.map((a) => a.grant_id)).toEqual([writerApp.grant_id]);
  });

  it("another person's grant is a 404 and keeps working; revoking twice is a 404", async () => {
    const owner = await createAgent(api);
    const stranger = await createAgent(api);
    const client = await oauth.connectMcpClient(owner.id);
    const [app] = (await listApps(await webSession(owner.id))).apps;
    const strangers = await revokeApp(await webSession(stranger.id), app.grant_id);
    expect(strangers.status).toBe(404);
    expect(await oauth.mcpStatus(client.access)).toBe(200);
    expect((await listApps(await webSession(stranger.id))).apps).toEqual([]);
    const web = await webSession(owner.id);
    expect((await revokeApp(web, app.grant_id)).status).toBe(200);
    expect((await revokeApp(web, app.grant_id)).status).toBe(404);
  });

  it("an API key can neither see nor revoke them (scope account); an access token can", async () => {
    const person = await createAgent(api);
    const client = await oauth.connectMcpClient(person.id);
    const key = { authorization: `Bearer ${await apiKey(person)}` };
    expect((await listApps(key)).status).toBe(403);
    const login = { authorization: `Bearer ${person.token}` };
    const [app] = (await listApps(login)).apps;
    expect((await revokeApp(key, app.grant_id)).status).toBe(403);
    expect(await oauth.mcpStatus(client.access)).toBe(200);
    expect((await revokeApp(login, app.grant_id)).status).toBe(200);
    expect(await oauth.mcpStatus(client.access)).toBe(401);
  });

  it("without a session: 401, nothing listed", async () => {
    expect((await listApps({})).status).toBe(401);
  });
});
