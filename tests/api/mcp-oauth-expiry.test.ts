// Registered MCP clients do not pile up (docs/features/mcp.md#oauth, "Lifetimes"): a client no one
// granted anything expires CLIENT_NEVER_USED_TTL after its registration (clients register on every
// connect), a used one CLIENT_UNUSED_TTL after its last use, never before a grant given to it ends, and the OAuth server's writes prune what has expired (clients, tokens, codes, grants,
// interactions) at most once a minute per process. In process, through the node-level guard.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, readSql } from "../../server/db/client.ts";
import { CLIENT_NEVER_USED_TTL, CLIENT_UNUSED_TTL, oauthPruneClock, pruneOAuthArtifacts } from "../../server/oauth/artifacts.ts";
import type { TestAgent } from "../helpers/api.ts";
import { authorizePath, browse, CALLBACK, consentThrough, form, Jar, pkce, registerClient, registeredClient, startOAuthAppWithPerson, type OAuthApp } from "../helpers/mcp-oauth.ts";

let app: OAuthApp;
let person: TestAgent;
const DAY_MS = 24 * 3600_000;
let servers: Awaited<ReturnType<typeof startOAuthAppWithPerson>> | undefined;
beforeAll(async () => void ({ app, person } = servers = await startOAuthAppWithPerson()));
afterAll(() => servers?.close());

const register = (name = "Expiring agent") => registeredClient(app.base, { client_name: name });

async function expiresAt(kind: string, id: string): Promise<Date | null | undefined> {
  const [row] = await readSql<{ expires_at: Date | null }>`SELECT expires_at FROM mcp_oauth_artifacts WHERE kind = ${kind} AND id = ${id}`;
  return row ? row.expires_at && new Date(row.expires_at) : undefined;
}

/** An artifact row as the provider would have left it, expiring at `expires` (null: no expiry). */
async function artifact(kind: string, payload: Record<string, unknown>, expires: Date | null, createdAt = new Date()) {
  const id = randomBytes(12).toString("base64url");
  await db().$executeRaw`
    INSERT INTO mcp_oauth_artifacts (kind, id, payload, expires_at, created_at)
    VALUES (${kind}, ${id}, ${JSON.stringify({ ...payload, jti: id })}::jsonb, ${expires}, ${createdAt})`;
  return id;
}

const exists = async (kind: string, id: string) => (await expiresAt(kind, id)) !== undefined;

/** Registration → consent → tokens: the client is used. */
async function use(clientId: string) {
  const { verifier, back } = await consentThrough(app.base, new Jar(), clientId, person.id);
  const code = new URL(back.location).searchParams.get("code")!;
  const tokens = await form(app.base, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
  expect(tokens.status, tokens.text).toBe(200);
  return tokens.body as { access_token: string; refresh_token: string };
}

describe("client lifetime", () => {
  it("a write prunes what has expired, at most once a minute per process", async () => {
    oauthPruneClock().lastAt = 0;
    const deadToken = await artifact("AccessToken", { clientId: "gone" }, new Date(Date.now() - 1000));
    const deadClient = await artifact("Client", { client_id: "gone" }, new Date(Date.now() - 1000));
    await register(); // the process's first write in a minute
    expect(await exists("AccessToken", deadToken)).toBe(false);
    expect(await exists("Client", deadClient)).toBe(false);
    const later = await artifact("Interaction", {}, new Date(Date.now() - 1000));
    await register();
    expect(await exists("Interaction", later)).toBe(true);
    expect(await pruneOAuthArtifacts()).toBeGreaterThanOrEqual(1);
    expect(await exists("Interaction", later)).toBe(false);
  });

  it(`a client no one granted anything lives ${CLIENT_NEVER_USED_TTL / 86400} days from its registration, is then unknown, and is pruned with its registration access token`, async () => {
    const registered = await registerClient(app.base, { client_name: "Never granted" });
    const clientId = registered.body.client_id as string;
    const until = (await expiresAt("Client", clientId))!;
    expect(Math.abs(until.getTime() - (Date.now() + CLIENT_NEVER_USED_TTL * 1000))).toBeLessThan(60_000);
    expect(await pruneOAuthArtifacts(new Date(Date.now() + CLIENT_NEVER_USED_TTL * 1000 - 3600_000))).toBe(0);
    expect(await exists("Client", clientId)).toBe(true);
    const readBack = () => fetch(`${app.base}/oauth/register/${clientId}`, { headers: { authorization: `Bearer ${registered.body.registration_access_token}` } });
    expect((await readBack()).status).toBe(200);

    // Its time is up: the provider no longer knows it, and pruning deletes it.
    await db().$executeRaw`UPDATE mcp_oauth_artifacts SET expires_at = now() - interval '1 second' WHERE kind = 'Client' AND id = ${clientId}`;
    const refused = await browse(app.base, new Jar(), authorizePath(clientId, pkce().challenge));
    expect(refused.status).toBe(400);
    expect(await refused.res.json()).toMatchObject({ error: "invalid_client" });
    expect((await readBack()).status).toBe(401);
    await pruneOAuthArtifacts();
    expect(await exists("Client", clientId)).toBe(false);
    await pruneOAuthArtifacts();
    expect(await readSql`SELECT 1 FROM mcp_oauth_artifacts WHERE kind = 'RegistrationAccessToken' AND payload->>'clientId' = ${clientId}`).toEqual([]);
  });

  it("a client with a live grant stays as long as the grant; its dead tokens go, the grant and the client stay", async () => {
    const clientId = await register("Used agent");
    const tokens = await use(clientId);
    const [grant] = await readSql<{ id: string; expires_at: Date }>`
      SELECT id, expires_at FROM mcp_oauth_artifacts WHERE kind = 'Grant' AND payload->>'clientId' = ${clientId}`;
    expect(new Date(grant.expires_at).getTime()).toBeGreaterThan(Date.now() + 300 * DAY_MS);
    expect((await expiresAt("Client", clientId))!.getTime()).toBeGreaterThanOrEqual(new Date(grant.expires_at).getTime());

    // Forty days on: the access and refresh tokens have expired and are pruned; the grant and its client are not.
    expect(await exists("AccessToken", tokens.access_token)).toBe(true);
    expect(await exists("RefreshToken", tokens.refresh_token)).toBe(true);
    await pruneOAuthArtifacts(new Date(Date.now() + 40 * DAY_MS));
    expect(await exists("AccessToken", tokens.access_token)).toBe(false);
    expect(await exists("RefreshToken", tokens.refresh_token)).toBe(false);
    expect(await exists("Grant", grant.id)).toBe(true);
    expect(await exists("Client", clientId)).toBe(true);
  });

  it("a refresh is a use: the client lives 30 days from it", async () => {
    const clientId = await register("Refreshing agent");
    const tokens = await use(clientId);
    // As if its grant ended long ago and the client were near its end: a refresh keeps it.
    await db().$executeRaw`UPDATE mcp_oauth_artifacts SET expires_at = now() + interval '1 hour' WHERE kind = 'Client' AND id = ${clientId}`;
    const renewed = await form(app.base, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(renewed.status, renewed.text).toBe(200);
    expect((await expiresAt("Client", clientId))!.getTime()).toBeGreaterThan(Date.now() + CLIENT_UNUSED_TTL * 1000 - 60_000);
  });

  it("clients registered before they had a lifetime go 30 days after registration unless a live grant names them", async () => {
    const old = new Date(Date.now() - (CLIENT_UNUSED_TTL * 1000 + DAY_MS));
    const unused = await artifact("Client", { client_name: "Old unused" }, null, old);
    const granted = await artifact("Client", { client_name: "Old granted" }, null, old);
    const recent = await artifact("Client", { client_name: "Recent" }, null);
    await artifact("Grant", { clientId: granted, accountId: person.id }, new Date(Date.now() + 100 * DAY_MS));
    await pruneOAuthArtifacts();
    expect(await exists("Client", unused)).toBe(false);
    expect(await exists("Client", granted)).toBe(true);
    expect(await exists("Client", recent)).toBe(true);
  });
});
