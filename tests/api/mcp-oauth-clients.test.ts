// Real MCP clients' registrations and authorization requests, replayed (docs/features/mcp.md#oauth,
// "Clients"): the bodies each sends are kept in tests/fixtures/mcp-clients/ with their source noted.
// Each registers, authorizes as it does (ChatGPT reconnecting without scope, VS Code on another
// loopback port, Cursor to its own scheme), reaches a token and a working tool call at /mcp. Beside
// them, what registration refuses, its CORS, and the metadata clients read. In process, through the
// node-level guard as `npm start` serves /oauth/*; /mcp through its route handler.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "../../app/mcp/route.ts";
import { OPTIONS as authorizationServerPreflight } from "../../app/oauth/authorization-server/route.ts";
import { OPTIONS as protectedResourcePreflight } from "../../app/oauth/protected-resource/route.ts";
import { readSql } from "../../server/db/client.ts";
import { consentRequest, finishConsent } from "../../server/oauth/consent.ts";
import { listMcpGrants } from "../../server/oauth/grants.ts";
import { authorizationServerMetadata } from "../../server/oauth/provider.ts";
import type { TestAgent } from "../helpers/api.ts";
import { answer, browse, form, Jar, pkce, startOAuthAppWithPerson, type OAuthApp } from "../helpers/mcp-oauth.ts";

const ORIGIN = new URL(process.env.NEXTAUTH_URL!).origin;
const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/mcp-clients");

interface Authorization {
  what: string;
  redirect_uri: string;
  scope: string | null;
  resource: boolean;
  /** Whether the person is shown the consent page. */
  consent: boolean;
  fresh_browser?: boolean;
  /** The scopes the token carries, when not `scope`. */
  granted?: string;
}
interface RecordedClient {
  client: string;
  source: string;
  registration: Record<string, unknown>;
  authorizations: Authorization[];
}

const recorded: [string, RecordedClient][] = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(path.join(FIXTURES, f), "utf8")) as RecordedClient]);

let app: OAuthApp;
let person: TestAgent;
let servers: Awaited<ReturnType<typeof startOAuthAppWithPerson>> | undefined;
beforeAll(async () => void ({ app, person } = servers = await startOAuthAppWithPerson()));
afterAll(() => servers?.close());

const register = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }).then(answer);

async function mcp(token: string, method: string, params: Record<string, unknown> = {}) {
  const res = await mcpPost(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    }),
  );
  return { status: res.status, body: (await res.json()) as { result?: Record<string, any>; error?: unknown } };
}

/**
 * One authorization as the client sends it, with the person's browser (`jar`): through the consent
 * page when the provider sends the browser there (the person allows), to the client's redirect URI.
 */
async function authorize(clientId: string, jar: Jar, step: Authorization) {
  const { verifier, challenge } = pkce();
  const params: Record<string, string> = { response_type: "code", client_id: clientId, redirect_uri: step.redirect_uri, state: "st", code_challenge: challenge, code_challenge_method: "S256" };
  if (step.scope !== null) params.scope = step.scope;
  if (step.resource) params.resource = `${ORIGIN}/mcp`;
  let at = await browse(app.base, jar, `/oauth/authorize?${new URLSearchParams(params)}`);
  expect(at.status, at.location).toBe(303);
  let consented: string[] | null = null;
  if (at.location.startsWith("/consent/")) {
    const uid = at.location.split("/")[2];
    consented = (await consentRequest(uid, person.id))!.scopes;
    const next = await finishConsent({ uid, agentId: person.id, approve: true });
    const url = new URL(next!);
    at = await browse(app.base, jar, `${url.pathname}${url.search}`);
  }
  expect(at.location.startsWith(`${step.redirect_uri}?`), at.location).toBe(true);
  const back = new URL(at.location);
  expect(back.searchParams.get("iss")).toBe(ORIGIN);
  expect(back.searchParams.get("state")).toBe("st");
  return { code: back.searchParams.get("code")!, verifier, consented };
}

describe("real clients, replayed", () => {
  it.each(recorded)("%s: registers as it does, authorizes as it does, and reaches a token and a tool call", async (_name, recording) => {
    const registered = await register(recording.registration);
    expect(registered.status, registered.text).toBe(201);
    const clientId = registered.body.client_id as string;
    expect(registered.body.redirect_uris).toEqual(recording.registration.redirect_uris);
    if (typeof recording.registration.scope === "string") expect(registered.body.scope).toBe(recording.registration.scope);
    let jar = new Jar();
    for (const step of recording.authorizations) {
      if (step.fresh_browser) jar = new Jar();
      const { code, verifier, consented } = await authorize(clientId, jar, step);
      const expected = (step.granted ?? step.scope ?? "").split(" ");
      expect(consented !== null, `${step.what}: the consent page`).toBe(step.consent);
      if (consented) expect(consented, step.what).toEqual(expected);
      const tokens = await form(app.base, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: step.redirect_uri, client_id: clientId, code_verifier: verifier });
      expect(tokens.status, `${step.what}: ${tokens.text}`).toBe(200);
      expect(String(tokens.body.scope).split(" ").sort(), step.what).toEqual([...expected].sort());
      const tools = await mcp(tokens.body.access_token, "tools/list");
      expect(tools.status).toBe(200);
      const names = (tools.body.result!.tools as { name: string }[]).map((t) => t.name);
      expect(names).toContain("search_claims");
      expect(names.includes("create_claim"), `${step.what}: write tools`).toBe(expected.includes("write"));
      const call = await mcp(tokens.body.access_token, "tools/call", { name: "search_claims", arguments: { limit: 1 } });
      expect(call.body.result?.isError, JSON.stringify(call.body)).toBeFalsy();
    }
    // However often it reconnected, the person sees the client once in settings.
    expect((await listMcpGrants(person.id)).filter((g) => g.client_id === clientId)).toHaveLength(1);
  });
});

describe("registration", () => {
  it.each([
    ["javascript:", "javascript:alert(1)", "scheme runs code or reads the device"],
    ["data:", "data:text/html,hi", "scheme runs code or reads the device"],
    ["file:", "file:///etc/passwd", "scheme runs code or reads the device"],
    ["plain http to another host", "http://agent.example/cb", "uses http on a host that is not this computer"],
    ["a bare scheme nobody allowed", "myagent://callback", "reverse-domain form"],
    ["a fragment", "https://agent.example/cb#x", "has a fragment"],
  ])("refuses %s with invalid_redirect_uri naming the URI, whatever else the registration holds; nothing stored", async (_what, uri, why) => {
    const before = await readSql<{ n: bigint }>`SELECT count(*) AS n FROM mcp_oauth_artifacts WHERE kind = 'Client'`;
    const res = await register({ client_name: "Refused", redirect_uris: ["https://agent.example/cb", uri], token_endpoint_auth_method: "none" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_redirect_uri");
    expect(res.body.error_description).toContain(JSON.stringify(uri));
    expect(res.body.error_description).toContain(why);
    const after = await readSql<{ n: bigint }>`SELECT count(*) AS n FROM mcp_oauth_artifacts WHERE kind = 'Client'`;
    expect(after[0].n).toBe(before[0].n);
  });

  it("accepts app schemes in reverse-domain form and those MCP_REDIRECT_SCHEMES names; such a client is a native app", async () => {
    const res = await register({ client_name: "Apps", redirect_uris: ["com.example.agent:/oauth2redirect", "vscode://vscode.mcp/cb", "windsurf://auth"], token_endpoint_auth_method: "none" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.application_type).toBe("native");
    const web = await register({ client_name: "Web", redirect_uris: ["https://agent.example/cb"], token_endpoint_auth_method: "none" });
    expect(web.body.application_type).toBe("web");
  });

  it("keeps the scopes it knows, drops any other, and holds the client to what it registered", async () => {
    const res = await register({ client_name: "Scoped", redirect_uris: ["https://agent.example/cb"], token_endpoint_auth_method: "none", scope: "read profile vote email" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.scope).toBe("read vote");
    const { challenge } = pkce();
    const params = new URLSearchParams({ response_type: "code", client_id: res.body.client_id, redirect_uri: "https://agent.example/cb", scope: "read write", state: "s", code_challenge: challenge, code_challenge_method: "S256" });
    const asked = await browse(app.base, new Jar(), `/oauth/authorize?${params}`);
    expect(new URL(asked.location).searchParams.get("error")).toBe("invalid_scope");
  });

  it("a client that registered no scope and asks for none is asked for every scope a tool needs, never read alone", async () => {
    const res = await register({ client_name: "Silent", redirect_uris: ["https://agent.example/cb"], token_endpoint_auth_method: "none" });
    const params = new URLSearchParams({ response_type: "code", client_id: res.body.client_id, redirect_uri: "https://agent.example/cb", state: "s", code_challenge: pkce().challenge, code_challenge_method: "S256" });
    const asked = await browse(app.base, new Jar(), `/oauth/authorize?${params}`);
    expect(asked.location).toMatch(/^\/consent\//);
    expect((await consentRequest(asked.location.split("/")[2], person.id))?.scopes).toEqual(["read", "vote", "write"]);
  });

  it("a native app's loopback redirect may use any port at authorization; a web client's may not", async () => {
    const native = await register({ client_name: "Native", redirect_uris: ["http://127.0.0.1:1234/cb"], token_endpoint_auth_method: "none" });
    const web = await register({ client_name: "Web loopback", application_type: "web", redirect_uris: ["http://127.0.0.1:1234/cb"], token_endpoint_auth_method: "none" });
    const at = (clientId: string, redirect: string) =>
      browse(app.base, new Jar(), `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirect, scope: "read", state: "s", code_challenge: pkce().challenge, code_challenge_method: "S256" })}`);
    expect((await at(native.body.client_id, "http://127.0.0.1:40404/cb")).location).toMatch(/^\/consent\//);
    expect((await at(native.body.client_id, "http://127.0.0.1:40404/other")).status).toBe(400);
    expect((await at(web.body.client_id, "http://127.0.0.1:40404/cb")).status).toBe(400);
    expect((await at(web.body.client_id, "http://127.0.0.1:1234/cb")).location).toMatch(/^\/consent\//);
  });

  it("answers CORS, preflight and request alike, so that a client in a browser can register", async () => {
    const preflight = await fetch(`${app.base}/oauth/register`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
    const origin = { origin: "https://inspector.example" };
    const ok = await register({ client_name: "Browser", redirect_uris: ["https://inspector.example/cb"], token_endpoint_auth_method: "none" }, origin);
    expect(ok.status).toBe(201);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    const refused = await register({ client_name: "Browser", redirect_uris: ["javascript:x"] }, origin);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    // The token endpoint answers CORS by itself, with the MCP header allowed.
    const token = await fetch(`${app.base}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST", "access-control-request-headers": "mcp-protocol-version" },
    });
    expect(token.status).toBe(204);
    expect(token.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
    // The metadata documents' preflight, for a GET that carries MCP-Protocol-Version.
    for (const preflight of [authorizationServerPreflight(), protectedResourcePreflight()]) {
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-headers")).toContain("MCP-Protocol-Version");
    }
  });
});

describe("metadata", () => {
  it("declares the iss parameter it sends and Client ID Metadata Documents", () => {
    expect(authorizationServerMetadata(ORIGIN)).toMatchObject({ authorization_response_iss_parameter_supported: true, client_id_metadata_document_supported: true });
  });
});
