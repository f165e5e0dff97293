// OAuth for MCP clients in a real browser (docs/features/mcp.md#oauth): a client registers over HTTP,
// sends the person to the authorization endpoint with PKCE, the person signs in and consents in the
// web UI, the code becomes tokens, and the official MCP SDK client calls a tool with the access token.
// Refusing gives the client access_denied; the token is refused at /api/v1; revoking the client in
// settings makes the next /mcp call 401.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { api, createPerson, PASSWORD, screenshot, signIn, unique } from "./ui-helpers.ts";

/** A loopback redirect URI on a port of its own, as desktop MCP clients register them: a real listener. */
let CALLBACK = "";
let arrivals: URL[] = [];
let waiters: ((url: URL) => void)[] = [];
const callbackServer = createServer((req, res) => {
  const url = new URL(req.url ?? "/", CALLBACK);
  // The browser also asks this origin for /favicon.ico after the page loads, at a moment of its own
  // choosing; only the redirect itself is an arrival.
  if (url.pathname !== "/callback") {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "text/html" });
  res.end("<!doctype html><title>Client</title><p>Back at the client.</p>");
  const waiter = waiters.shift();
  if (waiter) waiter(url);
  else arrivals.push(url);
});

test.beforeAll(async () => {
  await new Promise<void>((resolve) => callbackServer.listen(0, "127.0.0.1", resolve));
  CALLBACK = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
});
test.afterAll(() => callbackServer.close());

interface Registered {
  client_id: string;
  client_name: string;
}

async function register(request: APIRequestContext, name: string): Promise<Registered> {
  const res = await request.post("/oauth/register", {
    data: { client_name: name, application_type: "web", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  expect(body.token_endpoint_auth_method).toBe("none");
  expect(body.client_secret).toBeUndefined();
  return body;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(base: string, client: Registered, challenge: string, state: string, scope: string) {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: CALLBACK,
    scope,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${base}/mcp`,
  });
  return `/oauth/authorize?${params}`;
}

/** Resolves with the next URL the client's loopback listener is sent to. */
async function captureCallback(_page: Page): Promise<() => Promise<URL>> {
  arrivals = [];
  const arrived = new Promise<URL>((resolve) => {
    waiters = [resolve];
  });
  return () => arrived;
}

async function connect(base: string, token: string): Promise<Client> {
  const client = new Client({ name: "oauth-test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

test("register → PKCE → sign in → consent → token → tool call; deny → access_denied; revoke in settings → 401", async ({ page, request, baseURL }) => {
  const base = baseURL!;
  const person = await createPerson(request, "mcpoauth_");
  const client = await register(request, unique("Desk agent "));
  const { challenge } = pkce();
  const callback = await captureCallback(page);

  // Not signed in: the authorization request goes through the sign-in page to the consent page.
  await page.goto(authorizeUrl(base, client, challenge, "state-1", "read vote"));
  await page.waitForURL((url) => url.pathname === "/signin");
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/consent/"));

  // The consent page names the client, where it returns, and the scopes asked for.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(client.client_name);
  await expect(page.getByText(new URL(CALLBACK).host)).toBeVisible();
  const scopes = page.getByRole("list", { name: "Requested scopes" }).getByRole("listitem");
  await expect(scopes).toHaveCount(2);
  await expect(scopes.nth(0)).toContainText("read");
  await expect(scopes.nth(1)).toContainText("vote");
  await screenshot(page, "mcp-oauth-consent");
  await page.getByRole("button", { name: "Allow" }).click();

  const back = await callback();
  expect(back.searchParams.get("state")).toBe("state-1");
  expect(back.searchParams.get("error")).toBeNull();
  const code = back.searchParams.get("code");
  expect(code).toBeTruthy();

  // Code → tokens, with the PKCE verifier (a wrong verifier is refused first).
  const wrong = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: code!, redirect_uri: CALLBACK, client_id: client.client_id, code_verifier: pkce().verifier },
  });
  expect(wrong.status()).toBe(400);
  expect((await wrong.json()).error).toBe("invalid_grant");
  // The refused attempt spent the code (one use only): start again, now already signed in and consented.
  const { verifier: v2, challenge: c2 } = pkce();
  const callback2 = await captureCallback(page);
  await page.goto(authorizeUrl(base, client, c2, "state-2", "read vote"));
  const again = await callback2();
  expect(again.searchParams.get("state")).toBe("state-2");
  const tokenRes = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: again.searchParams.get("code")!, redirect_uri: CALLBACK, client_id: client.client_id, code_verifier: v2 },
  });
  expect(tokenRes.status(), await tokenRes.text()).toBe(200);
  const tokens = await tokenRes.json();
  expect(tokens.token_type).toBe("Bearer");
  expect(tokens.refresh_token).toBeTruthy();

  // A tool call with that token, through the official SDK client: read and vote only.
  const mcp = await connect(base, tokens.access_token);
  const names = (await mcp.listTools()).tools.map((t) => t.name);
  expect(names).toContain("search_claims");
  expect(names).toContain("cast_vote");
  expect(names).not.toContain("create_claim");
  const found = await mcp.callTool({ name: "search_claims", arguments: { q: "anything at all" } });
  expect(found.isError).toBeFalsy();
  await mcp.close();

  // Valid only at /mcp: /api/v1 refuses it.
  const rest = await request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  expect(rest.status()).toBe(401);

  // The refresh token gives a new access token.
  const refreshed = await request.post("/oauth/token", { form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id } });
  expect(refreshed.status(), await refreshed.text()).toBe(200);
  const accessToken = (await refreshed.json()).access_token as string;

  // Another client, refused: the client hears access_denied, and gets no token.
  const other = await register(request, unique("Refused agent "));
  const refusedCallback = await captureCallback(page);
  await page.goto(authorizeUrl(base, other, pkce().challenge, "state-3", "read write"));
  await page.waitForURL((url) => url.pathname.startsWith("/consent/"));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(other.client_name);
  await page.getByRole("button", { name: "Deny" }).click();
  const refused = await refusedCallback();
  expect(refused.searchParams.get("error")).toBe("access_denied");
  expect(refused.searchParams.get("code")).toBeNull();
  expect(refused.searchParams.get("state")).toBe("state-3");

  // Settings lists the granted client (not the refused one); revoking it ends its access at once.
  await page.goto("/settings/api-keys");
  const table = page.getByRole("table", { name: "Connected MCP clients" });
  const row = table.getByRole("row").filter({ hasText: client.client_name });
  await expect(row).toContainText("read, vote");
  await expect(table.getByRole("row").filter({ hasText: other.client_name })).toHaveCount(0);
  const before = await connect(base, accessToken);
  await before.close();
  await row.getByRole("button", { name: `Revoke ${client.client_name}` }).click();
  await page.waitForURL("**/settings/api-keys");
  await expect(page.getByText("No MCP client has been granted access.")).toBeVisible();
  const after = await request.post("/mcp", {
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(after.status()).toBe(401);
  expect(after.headers()["www-authenticate"]).toContain("resource_metadata=");
  // The refresh token went with the grant.
  const dead = await request.post("/oauth/token", { form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.client_id } });
  expect(dead.status()).toBe(400);
});

test("a person already signed in goes straight to the consent page", async ({ page, request, baseURL }) => {
  const person = await createPerson(request, "mcpoauth2_");
  await signIn(page, person);
  const client = await register(request, unique("Second agent "));
  await page.goto(authorizeUrl(baseURL!, client, pkce().challenge, "s", "read"));
  await page.waitForURL((url) => url.pathname.startsWith("/consent/"));
  await expect(page.getByRole("list", { name: "Requested scopes" }).getByRole("listitem")).toHaveCount(1);
});

/** What an application keeps for the SDK's auth(), in memory; redirectToAuthorization opens the URL in the browser. */
class BrowserProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    private readonly open: (url: URL) => Promise<void>,
  ) {}
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
    return this.open(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

test("the official SDK's auth() by the URL alone: a new person creates an account from the sign-in page, consents in the browser, and the SDK calls a write tool", async ({ page, request, baseURL }) => {
  const base = baseURL!;
  const author = await createPerson(request, "sdkauthor_");
  const claim = await api<{ id: string }>(request, author, "POST", "/claims", { statement: `Sourdough starters can live for decades ${unique("")}`, tags: ["food"] });
  expect(claim.status).toBe(201);

  const serverUrl = new URL(`${base}/mcp`);
  const clientName = unique("SDK agent ");
  const provider = new BrowserProvider(CALLBACK, { client_name: clientName, redirect_uris: [CALLBACK], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }, async (url) => {
    await page.goto(url.toString());
  });
  const callback = await captureCallback(page);
  // Discovery from /mcp's 401, registration with the resource's scopes, then the browser is sent on.
  expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
  expect(String((provider.information as { scope?: string }).scope).split(" ")).toEqual(["read", "vote", "write", "webhooks"]);

  // Not signed in: the sign-in page names the client; a new person follows "Create an account".
  await page.waitForURL((url) => url.pathname === "/signin");
  await expect(page.locator("[data-client-asking]")).toContainText(clientName);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.waitForURL((url) => url.pathname === "/signup" && url.searchParams.get("redirect_to")?.startsWith("/consent/") === true);
  const username = unique("sdkperson_");
  await page.getByLabel("Email", { exact: true }).fill(`${username}@example.test`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const started = Date.now();
  await page.getByRole("button", { name: "Create account" }).click();
  // Signed in and on the consent page in seconds, not stuck on a pending button.
  await page.waitForURL((url) => url.pathname.startsWith("/consent/"), { timeout: 20_000 });
  expect(Date.now() - started).toBeLessThan(20_000);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(clientName);
  await expect(page.getByRole("list", { name: "Requested scopes" }).getByRole("listitem")).toHaveCount(4);
  await page.getByRole("button", { name: "Allow" }).click();

  const back = await callback();
  expect(back.searchParams.get("iss")).toBe(base);
  expect(await auth(provider, { serverUrl, authorizationCode: back.searchParams.get("code")! })).toBe("AUTHORIZED");
  expect(provider.saved?.refresh_token).toBeTruthy();

  // The SDK's transport with the provider: a write tool under the new person's name.
  const client = new Client({ name: "sdk-auth-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  try {
    const followed = (await client.callTool({ name: "follow_claim", arguments: { claim_id: claim.body.id } })) as CallToolResult;
    expect(followed.isError, JSON.stringify(followed.content)).toBeFalsy();
    const voted = (await client.callTool({ name: "cast_vote", arguments: { claim_id: claim.body.id, value: 0.7 } })) as CallToolResult;
    expect(voted.isError, JSON.stringify(voted.content)).toBeFalsy();
  } finally {
    await client.close();
  }
  // The person sees the client in settings.
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("table", { name: "Connected MCP clients" }).getByRole("row").filter({ hasText: clientName })).toBeVisible();
});
