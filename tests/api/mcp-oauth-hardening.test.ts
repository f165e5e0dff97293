// The authorization server for MCP clients refuses what it cannot honestly take (docs/features/mcp.md#oauth,
// "Guards"), in process through the node-level guard as `npm start` serves it: a NUL or another control
// character in any parameter is a 400 with the OAuth error a client expects, and nothing is stored; a
// client name that hides characters (a right-to-left override) is refused as a display name is; a
// registration is bounded; the consent page's return address is the redirect URI's host in ASCII; and
// a client asking for `openid` gets its code after one consent instead of the consent page forever.
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, readSql } from "../../server/db/client.ts";
import { consentRequest } from "../../server/oauth/consent.ts";
import { OAUTH_MAX_BODY_BYTES } from "../../server/oauth/endpoint.ts";
import { listMcpGrants } from "../../server/oauth/grants.ts";
import { CLIENT_METADATA_MAX_BYTES, CLIENT_NAME_MAX_CHARS, REDIRECT_URIS_MAX } from "../../server/oauth/registration.ts";
import type { TestAgent } from "../helpers/api.ts";
import {
  answer,
  authorizePath,
  browse,
  CALLBACK,
  consentThrough,
  form,
  Jar,
  pkce,
  registerClient,
  registeredClient,
  startOAuthAppWithPerson,
  type OAuthApp,
} from "../helpers/mcp-oauth.ts";

let app: OAuthApp;
let person: TestAgent;
// The issuer: NEXTAUTH_URL's origin (tests/setup.ts), whatever address the test server listens on.
const ORIGIN = new URL(process.env.NEXTAUTH_URL!).origin;
let servers: Awaited<ReturnType<typeof startOAuthAppWithPerson>> | undefined;
beforeAll(async () => void ({ app, person } = servers = await startOAuthAppWithPerson()));
afterAll(() => servers?.close());

const artifactCount = async () => Number((await readSql<{ n: bigint }>`SELECT count(*) AS n FROM mcp_oauth_artifacts`)[0].n);

const client = (name = "Hardening agent", redirectUris = [CALLBACK]) => registeredClient(app.base, { client_name: name, redirect_uris: redirectUris });

/** Through consent (the person allows) back into the provider; returns the provider's next redirect. */
const consent = (jar: Jar, clientId: string, extra: Record<string, string> = {}) => consentThrough(app.base, jar, clientId, person.id, extra);

describe("control characters in OAuth parameters (a NUL was a 500)", () => {
  it.each([
    ["a NUL in the client_id of a token request", "/oauth/token", { grant_type: "authorization_code", code: "abc", client_id: "a\u0000b", code_verifier: "x", redirect_uri: CALLBACK }, "client_id"],
    ["a NUL in the code", "/oauth/token", { grant_type: "authorization_code", code: "a\u0000b", code_verifier: "x", redirect_uri: CALLBACK }, "code"],
    ["a NUL in a refresh token", "/oauth/token", { grant_type: "refresh_token", refresh_token: "r\u0000t" }, "refresh_token"],
    ["a control character in the client_id", "/oauth/token", { grant_type: "refresh_token", refresh_token: "rt", client_id: "a\u0001b" }, "client_id"],
    ["a NUL in the token to revoke", "/oauth/revoke", { token: "t\u0000k" }, "token"],
    ["a line break in the token to revoke", "/oauth/revoke", { token: "t\nk" }, "token"],
  ])("%s: 400 invalid_request naming it, nothing stored", async (_name, path, fields, field) => {
    const clientId = await client();
    const before = await artifactCount();
    const res = await form(app.base, path, { client_id: clientId, ...fields });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", error_description: `${field}: must not contain control characters` });
    expect(await artifactCount()).toBe(before);
  });

  it.each([
    ["client_id", { client_id: "a\u0000b" }],
    ["state", { state: "s\u0000t" }],
    ["redirect_uri", { redirect_uri: `${CALLBACK}\u0000` }],
    ["code_challenge", { code_challenge: `${"a".repeat(42)}\u0007` }],
  ])("GET /oauth/authorize with a NUL or control character in %s: 400 invalid_request, no redirect, no interaction", async (field, extra) => {
    const clientId = await client();
    const before = await artifactCount();
    const res = await browse(app.base, new Jar(), authorizePath(clientId, pkce().challenge, extra));
    expect(res.status).toBe(400);
    expect(res.location).toBe("");
    expect((await answer(res.res)).body).toMatchObject({ error: "invalid_request", error_description: `${field}: must not contain control characters` });
    expect(res.res.headers.getSetCookie()).toEqual([]);
    expect(await artifactCount()).toBe(before);
  });

  it.each([
    ["a NUL in client_name", JSON.stringify({ client_name: "a\u0000b", redirect_uris: [CALLBACK] }), "client_name"],
    ["a NUL in a redirect URI", JSON.stringify({ client_name: "x", redirect_uris: [`${CALLBACK}\u0000`] }), "redirect_uris.0"],
    ["an unpaired surrogate in client_name", '{"client_name":"x\\ud800","redirect_uris":["http://127.0.0.1:51234/cb"]}', "client_name"],
    ["a NUL in a contact", JSON.stringify({ client_name: "x", redirect_uris: [CALLBACK], contacts: ["a\u0000@example.org"] }), "contacts.0"],
  ])("POST /oauth/register with %s: 400 invalid_client_metadata, no client", async (_name, body, field) => {
    const before = await artifactCount();
    const res = await registerClient(app.base, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_client_metadata", error_description: `${field}: must not contain control characters` });
    expect(await artifactCount()).toBe(before);
  });

  it("a live token stays live after a revocation with a NUL in it", async () => {
    const clientId = await client();
    const jar = new Jar();
    const { verifier, back } = await consent(jar, clientId);
    const code = new URL(back.location).searchParams.get("code")!;
    const tokens = await form(app.base, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
    expect(tokens.status, tokens.text).toBe(200);
    expect((await form(app.base, "/oauth/revoke", { token: `${tokens.body.access_token}\u0000`, client_id: clientId })).status).toBe(400);
    const renewed = await form(app.base, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token, client_id: clientId });
    expect(renewed.status, renewed.text).toBe(200);
  });
});

describe("client names that hide characters (the consent page could be spoofed)", () => {
  it.each([
    ["a right-to-left override", "Claims\u202E tnega"],
    ["a right-to-left isolate", "\u2067Claims official"],
    ["a zero-width space", "Cla\u200Bims"],
    ["a left-to-right mark", "Claims\u200E"],
    ["a byte-order mark", "\uFEFFClaims"],
    ["a tab", "Claims\tofficial"],
  ])("%s in client_name: 400 invalid_client_metadata, as a display name is refused", async (_name, clientName) => {
    const before = await artifactCount();
    const res = await registerClient(app.base, { client_name: clientName });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("invalid_client_metadata");
    expect(res.body.error_description).toMatch(/^client_name: must not contain (invisible format or )?control characters/);
    expect(await artifactCount()).toBe(before);
  });

  it("a client stored with such a name before the rule is refused where it would be shown, and listed without them", async () => {
    const clientId = await client("Plain name");
    const jar = new Jar();
    await consent(jar, clientId);
    await db().$executeRaw`
      UPDATE mcp_oauth_artifacts SET payload = jsonb_set(payload, '{client_name}', to_jsonb(${"Claims\u202E tnega"}::text))
      WHERE kind = 'Client' AND id = ${clientId}`;
    const start = await browse(app.base, new Jar(), authorizePath(clientId, pkce().challenge));
    expect(start.status).toBe(400);
    expect((await answer(start.res)).body.error).toBe("invalid_client_metadata");
    expect((await listMcpGrants(person.id)).find((g) => g.client_id === clientId)?.client_name).toBe("Claims tnega");
  });

  it("any script and emoji are welcome", async () => {
    const res = await registerClient(app.base, { client_name: "Агент 助手 Ünïcode 🤖" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.client_name).toBe("Агент 助手 Ünïcode 🤖");
  });

  it("the consent page's return address is the redirect URI's host, an internationalised one in its ASCII form", async () => {
    const clientId = await client("Shop agent", ["https://bücher.example/oauth/cb"]);
    const start = await browse(app.base, new Jar(), authorizePath(clientId, pkce().challenge, { redirect_uri: "https://bücher.example/oauth/cb" }));
    expect(start.location).toMatch(/^\/consent\//);
    const request = await consentRequest(start.location.split("/")[2]);
    expect(request).toMatchObject({ clientName: "Shop agent", returnHost: "xn--bcher-kva.example", returnsToLoopback: false });
    const loopback = await browse(app.base, new Jar(), authorizePath(await client(), pkce().challenge));
    expect(await consentRequest(loopback.location.split("/")[2])).toMatchObject({ returnHost: "127.0.0.1:51234", returnsToLoopback: true });
  });
});

describe("the size of a registration", () => {
  it(`a name over ${CLIENT_NAME_MAX_CHARS} characters, more than ${REDIRECT_URIS_MAX} redirect URIs, or metadata over ${CLIENT_METADATA_MAX_BYTES / 1024} KiB: 400, no client`, async () => {
    const before = await artifactCount();
    const long = await registerClient(app.base, { client_name: "n".repeat(CLIENT_NAME_MAX_CHARS + 1) });
    expect(long.body).toMatchObject({ error: "invalid_client_metadata", error_description: `client_name: at most ${CLIENT_NAME_MAX_CHARS} characters` });
    const many = await registerClient(app.base, { redirect_uris: Array.from({ length: REDIRECT_URIS_MAX + 1 }, (_, i) => `${CALLBACK}${i}`) });
    expect(many.body).toMatchObject({ error: "invalid_redirect_uri", error_description: `redirect_uris: at most ${REDIRECT_URIS_MAX}` });
    const big = await registerClient(app.base, { client_uri: `https://agent.example/${"p".repeat(CLIENT_METADATA_MAX_BYTES)}` });
    expect(big.body).toMatchObject({ error: "invalid_client_metadata", error_description: `client metadata: at most ${CLIENT_METADATA_MAX_BYTES / 1024} KiB` });
    for (const res of [long, many, big]) expect(res.status).toBe(400);
    expect(await artifactCount()).toBe(before);
  });

  it(`a body over ${OAUTH_MAX_BODY_BYTES / 1024} KiB: 413 before the provider parses it`, async () => {
    const res = await registerClient(app.base, { client_name: "x", software_statement: "s".repeat(OAUTH_MAX_BODY_BYTES) });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe(`Request body too large (limit ${OAUTH_MAX_BODY_BYTES / 1024} KiB)`);
  });

  it("nothing the server would fetch on the client's word (sector_identifier_uri, jwks_uri); a registration access token reads the registration back", async () => {
    // An address inside our network: the registration must not even connect to it.
    let connections = 0;
    const inside = createNetServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
    const target = `https://127.0.0.1:${(inside.address() as AddressInfo).port}`;
    try {
      for (const metadata of [{ sector_identifier_uri: `${target}/sector` }, { jwks_uri: `${target}/jwks` }]) {
        const res = await registerClient(app.base, metadata);
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({ error: "invalid_client_metadata", error_description: `${Object.keys(metadata)[0]}: not supported (public clients only)` });
      }
    } finally {
      inside.close();
    }
    expect(connections).toBe(0);
    const ok = await registerClient(app.base, { client_name: "Plain" });
    expect(ok.status).toBe(201);
    // RFC 7592: the registration_client_uri answers with the registration, for its token only.
    const uri = new URL(String(ok.body.registration_client_uri));
    expect(uri.pathname).toBe(`/oauth/register/${ok.body.client_id}`);
    const read = await fetch(`${app.base}${uri.pathname}`, { headers: { authorization: `Bearer ${ok.body.registration_access_token}` } }).then(answer);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ client_id: ok.body.client_id, client_name: "Plain" });
    expect((await fetch(`${app.base}${uri.pathname}`, { headers: { authorization: "Bearer not-the-token" } })).status).toBe(401);
    expect((await fetch(`${app.base}${uri.pathname}`)).status).toBe(401);
  });
});

describe("the openid scope", () => {
  it.each(["openid read", "openid offline_access profile read"])("%s: one consent, then the code (it looped back to the consent page), and an ID token naming the account", async (scope) => {
    const clientId = await client("OpenID agent");
    const jar = new Jar();
    const { verifier, back } = await consent(jar, clientId, { scope });
    expect(back.status).toBe(303);
    expect(back.location.startsWith(`${CALLBACK}?`), back.location).toBe(true);
    const code = new URL(back.location).searchParams.get("code")!;
    const tokens = await form(app.base, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.scope).toBe("read"); // the MCP resource's scopes; openid is the ID token's
    const claims = JSON.parse(Buffer.from(String(tokens.body.id_token).split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: person.id, aud: clientId, iss: ORIGIN });
    // The consent stands: the next authorization goes straight back with a code.
    const again = await browse(app.base, jar, authorizePath(clientId, pkce().challenge, { scope }));
    expect(again.location.startsWith(`${CALLBACK}?code=`), again.location).toBe(true);
  });
});
