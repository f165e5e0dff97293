// Client ID Metadata Documents (docs/features/mcp.md#client-id-metadata-documents): a client known by
// the https URL of its metadata document, as VS Code connects first. The document is served by a local
// https server (a certificate for localhost, trusted by this process) and fetched under the webhooks'
// rules, with their test allowance for private addresses (WEBHOOK_ALLOW_PRIVATE, set before the
// configuration is read: its own file). In process, through the node-level guard.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "../../app/mcp/route.ts";
import { consentRequest, finishConsent } from "../../server/oauth/consent.ts";
import { getPublic } from "../../server/outbound/public-agent.ts";
import type { TestAgent } from "../helpers/api.ts";
import { browse, form, Jar, pkce, startOAuthAppWithPerson, type OAuthApp } from "../helpers/mcp-oauth.ts";

const ORIGIN = new URL(process.env.NEXTAUTH_URL!).origin;
const TLS_DIR = path.resolve(import.meta.dirname, "../fixtures/tls");
const cert = readFileSync(path.join(TLS_DIR, "localhost.crt"), "utf8");

let app: OAuthApp;
let person: TestAgent;
let servers: Awaited<ReturnType<typeof startOAuthAppWithPerson>> | undefined;
let documents: Server;
let docs = "";
/** What the document server answers, by path, and how often each was asked for. */
const served = new Map<string, { status: number; body: unknown; headers?: Record<string, string> }>();
const fetches = new Map<string, number>();

beforeAll(async () => {
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), cert]);
  documents = createServer({ cert, key: readFileSync(path.join(TLS_DIR, "localhost.key")) }, (req, res) => {
    fetches.set(req.url!, (fetches.get(req.url!) ?? 0) + 1);
    const doc = served.get(req.url!);
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(doc.status, { "content-type": "application/json", ...doc.headers });
    res.end(typeof doc.body === "string" ? doc.body : JSON.stringify(doc.body));
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  docs = `https://localhost:${(documents.address() as AddressInfo).port}`;
  ({ app, person } = servers = await startOAuthAppWithPerson());
});
afterAll(async () => {
  await servers?.close();
  documents?.close();
});

/** A metadata document for `name` at `/name.json`, as VS Code publishes one. */
function publish(name: string, extra: Record<string, unknown> = {}, status = 200, headers: Record<string, string> = {}): string {
  const clientId = `${docs}/${name}.json`;
  served.set(`/${name}.json`, {
    status,
    headers,
    body: { client_id: clientId, client_name: "Visual Studio Code", redirect_uris: ["http://127.0.0.1:33418/", "https://vscode.dev/redirect"], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...extra },
  });
  return clientId;
}

const authorizeUrl = (clientId: string, redirectUri: string, challenge: string) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, scope: "read vote write", state: "st", code_challenge: challenge, code_challenge_method: "S256", resource: `${ORIGIN}/mcp` })}`;

describe("a client known by its metadata document", () => {
  it("is fetched once, named on the consent page, and reaches a token (on any loopback port: the document makes it a native app)", async () => {
    const clientId = publish("vscode");
    const jar = new Jar();
    const { verifier, challenge } = pkce();
    const redirect = "http://127.0.0.1:51999/";
    const start = await browse(app.base, jar, authorizeUrl(clientId, redirect, challenge));
    expect(start.location).toMatch(/^\/consent\//);
    const uid = start.location.split("/")[2];
    expect(await consentRequest(uid, person.id)).toMatchObject({ clientId, clientName: "Visual Studio Code", returnsToLoopback: true, scopes: ["read", "vote", "write"] });
    const next = new URL((await finishConsent({ uid, agentId: person.id, approve: true }))!);
    const back = await browse(app.base, jar, `${next.pathname}${next.search}`);
    expect(back.location.startsWith(`${redirect}?`), back.location).toBe(true);
    const tokens = await form(app.base, "/oauth/token", { grant_type: "authorization_code", code: new URL(back.location).searchParams.get("code")!, redirect_uri: redirect, client_id: clientId, code_verifier: verifier });
    expect(tokens.status, tokens.text).toBe(200);
    const listed = await mcpPost(
      new Request(`${ORIGIN}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.body.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(listed.status).toBe(200);
    // The provider keeps the document for at least 30 s: the consent, the code and the token needed one fetch.
    expect(fetches.get("/vscode.json")).toBe(1);
  });

  it.each([
    ["names another client_id", { client_id: "https://elsewhere.example/client.json" }, 200],
    ["has a redirect URI this server refuses", { redirect_uris: ["javascript:alert(1)"] }, 200],
    ["holds a client secret", { client_secret: "s3cret", token_endpoint_auth_method: "client_secret_post" }, 200],
    ["is a redirect elsewhere (never followed)", {}, 302],
    ["is not there", {}, 404],
  ])("a document that %s: refused with 400, no consent page, no redirect to the client", async (what, extra, status) => {
    const name = `bad-${what.replace(/\W+/g, "-")}`;
    const clientId = publish(name, extra, status, status === 302 ? { location: `${docs}/vscode.json` } : {});
    const res = await browse(app.base, new Jar(), authorizeUrl(clientId, "http://127.0.0.1:33418/", pkce().challenge));
    expect(res.status, res.location).toBe(400);
    expect(["invalid_client", "invalid_client_metadata", "invalid_redirect_uri"]).toContain((await res.res.json()).error);
  });

  it("is fetched through the webhooks' public-only agent: without the test allowance a private address is refused on the connection", async () => {
    const clientId = publish("private");
    // The address the socket connects to is what is checked (127.0.0.1: the certificate names it too).
    const byAddress = new URL(clientId.replace("//localhost:", "//127.0.0.1:"));
    await expect(getPublic(byAddress, { maxBytes: 5120, timeoutMs: 2500, allowPrivate: false })).rejects.toThrow(/not allowed/);
    expect((await getPublic(byAddress, { maxBytes: 5120, timeoutMs: 2500, allowPrivate: true })).status).toBe(200);
    const allowed = await getPublic(new URL(clientId), { maxBytes: 5120, timeoutMs: 2500, allowPrivate: true });
    expect(allowed.status).toBe(200);
    // …and a body over the bound is refused.
    await expect(getPublic(new URL(clientId), { maxBytes: 10, timeoutMs: 2500, allowPrivate: true })).rejects.toThrow(/too large/);
  });
});
