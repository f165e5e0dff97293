// Clients we did not write, against the production build by the URL alone (docs/features/mcp.md#clients):
// the official SDK's own auth() (discovery, registration with the resource's scopes, PKCE, resource,
// the code exchange) with a person signing in and consenting in the web UI, then a write tool over
// its StreamableHTTPClientTransport; and oauth4webapi, an independent OAuth client that validates every
// answer it reads (the issuer, the `iss` of the authorization response, the token responses), through
// registration, PKCE, the resource indicator, refresh and revocation.
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { CALLBACK, Jar, webSignIn } from "../helpers/oauth-browser.ts";

let server: BuiltServer;
let person: { email: string; token: string };
let claimId: string;

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
}

async function account(name: string) {
  const username = `${name}_${process.pid % 10000}`;
  const email = `${username}@example.test`;
  expect((await post("/api/v1/auth/register", { email, password: "Password123", username })).status).toBe(201);
  const login = await post("/api/v1/auth/login", { email, password: "Password123" });
  return { email, token: login.body.access_token as string };
}

beforeAll(async () => {
  server = await startBuiltServer((base) => ({ LOG_LEVEL: "error", NEXTAUTH_URL: base }));
  person = await account("sdk_person");
  const author = await account("sdk_author");
  const claim = await post("/api/v1/claims", { statement: "Honey found in ancient tombs is still edible", tags: ["food"] }, author.token);
  expect(claim.status).toBe(201);
  claimId = claim.body.id;
}, 240_000);
afterAll(() => server?.stop());

/**
 * The person's browser from the authorization URL to the client's callback: the provider sends it to
 * the consent page, which sends it to sign in (naming the client) and back; the person allows.
 */
async function personAllows(authorizationUrl: URL, clientName: string): Promise<URL> {
  const jar = new Jar();
  const get = async (url: string) => {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res.headers);
    return res;
  };
  let res = await get(authorizationUrl.toString());
  let url = authorizationUrl.toString();
  while (res.status >= 300 && res.status < 400 && !new URL(res.headers.get("location")!, url).pathname.startsWith("/consent/")) {
    url = new URL(res.headers.get("location")!, url).toString();
    res = await get(url);
  }
  const consentPath = new URL(res.headers.get("location")!, url).pathname;
  // Not signed in: the sign-in page says which client asks.
  const signIn = await (await get(`${server.base}/signin?redirect_to=${encodeURIComponent(consentPath)}`)).text();
  expect(signIn).toContain("data-client-asking");
  expect(signIn).toContain(clientName);
  await webSignIn(server.base, jar, person.email);
  const page = await (await get(`${server.base}${consentPath}`)).text();
  expect(page).toContain(clientName);
  const decision = await fetch(`${server.base}${consentPath}/decision`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base, cookie: jar.header() },
    body: new URLSearchParams({ decision: "allow" }),
  });
  jar.take(decision.headers);
  url = new URL(decision.headers.get("location")!, server.base).toString();
  for (let hops = 0; hops < 5 && !url.startsWith(CALLBACK); hops++) {
    res = await get(url);
    url = new URL(res.headers.get("location")!, url).toString();
  }
  expect(url.startsWith(`${CALLBACK}?`), url).toBe(true);
  return new URL(url);
}

/** What an application keeps for the SDK's auth(): in memory here. */
class RememberingProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = CALLBACK;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "SDK auth() agent",
    redirect_uris: [CALLBACK],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe("the official SDK's auth(), by the URL alone", () => {
  it("discovers, registers with the resource's scopes, sends the person to consent, exchanges the code, and calls a write tool", async () => {
    const serverUrl = new URL(`${server.base}/mcp`);
    const provider = new RememberingProvider();
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    // It registered with scopes_supported (refused with 400 while only openid could be registered).
    expect(String((provider.information as { scope?: string }).scope).split(" ")).toEqual(["read", "vote", "write", "webhooks"]);
    expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(`${server.base}/mcp`);
    const callback = await personAllows(provider.authorizationUrl!, "SDK auth() agent");
    expect(await auth(provider, { serverUrl, authorizationCode: callback.searchParams.get("code")! })).toBe("AUTHORIZED");
    expect(provider.saved?.refresh_token).toBeTruthy();

    const client = new Client({ name: "sdk-auth-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
    try {
      const voted = (await client.callTool({ name: "cast_vote", arguments: { claim_id: claimId, value: 0.8 } })) as CallToolResult;
      expect(voted.isError, JSON.stringify(voted.content)).toBeFalsy();
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("create_claim");
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe("oauth4webapi, an independent client", () => {
  it("discovery, registration, PKCE, resource, the iss of the answer, refresh and revocation all pass its checks", async () => {
    const insecure = { [oauth.allowInsecureRequests]: true }; // the build listens on plain http here
    const issuer = new URL(server.base);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: "oauth4webapi agent", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", scope: "read vote write" }, insecure),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" };
    const resource = `${server.base}/mcp`;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({ client_id: client.client_id, redirect_uri: CALLBACK, response_type: "code", scope: "read vote write", state, resource, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" })) {
      authorizationUrl.searchParams.set(k, v);
    }
    const callback = await personAllows(authorizationUrl, "oauth4webapi agent");
    // Checks `iss` against the issuer (RFC 9207) and the state.
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK, verifier, { additionalParameters: { resource }, ...insecure }),
    );
    expect(tokens.token_type).toBe("bearer");
    const tools = (token: string) =>
      fetch(resource, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }).then((r) => r.status);
    expect(await tools(tokens.access_token)).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, { additionalParameters: { resource }, ...insecure }));
    expect(await tools(refreshed.access_token)).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, insecure));
    expect(await tools(refreshed.access_token)).toBe(401);
  }, 120_000);
});
