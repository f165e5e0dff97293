// "Sign out everywhere" against the production build, as a browser and an MCP client see it
// (docs/security.md#which-action-ends-which-credential): after it, the OAuth server's 14-day session
// cookie no longer gets a code for a client the person approved, the browser is sent to the consent
// page and from there to sign in, and the client's tokens are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type BuiltServer } from "../helpers/built-server.ts";
import { CALLBACK, Jar, pkce, webSignIn } from "../helpers/oauth-browser.ts";

let server: BuiltServer;

beforeAll(async () => {
  server = await startBuiltServer((base) => ({ LOG_LEVEL: "error", NEXTAUTH_URL: base }));
}, 240_000);
afterAll(() => server?.stop());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

const authorizePath = (clientId: string, challenge: string) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: CALLBACK, scope: "read", state: "st", code_challenge: challenge, code_challenge_method: "S256" })}`;

/** Follows redirects as a browser would, with the jar, until the client's callback, the consent page or sign-in. */
async function browse(jar: Jar, path: string, init: RequestInit = {}): Promise<string> {
  let url = `${server.base}${path}`;
  let res = await fetch(url, { redirect: "manual", ...init, headers: { ...(init.headers ?? {}), cookie: jar.header() } });
  for (let hops = 0; hops < 10; hops++) {
    jar.take(res.headers);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return url;
    url = new URL(location, url).toString();
    const pathname = new URL(url).pathname;
    if (url.startsWith(CALLBACK) || pathname.startsWith("/consent/") || pathname === "/signin") return url;
    res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  }
  throw new Error("too many redirects");
}

const mcpStatus = async (token: string) =>
  (
    await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" })
  ).status;

describe("sign out everywhere and the OAuth server's session", () => {
  it("the session cookie gets no new code for an approved client without signing in; the client's tokens are refused", async () => {
    const username = `signout_${process.pid % 100000}`;
    const email = `${username}@example.test`;
    expect((await post("/api/v1/auth/register", { email, password: "Password123", username })).status).toBe(201);
    const client = await post("/oauth/register", { client_name: "Sign-out agent", application_type: "web", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" });
    const clientId = ((await client.json()) as { client_id: string }).client_id;

    // The person approves the client in their browser.
    const jar = new Jar();
    const { verifier, challenge } = pkce();
    const consentPath = new URL(await browse(jar, authorizePath(clientId, challenge))).pathname;
    expect(consentPath).toMatch(/^\/consent\//);
    await webSignIn(server.base, jar, email);
    expect(jar.header()).toContain("session-token");
    const allowed = new URL(
      await browse(jar, `${consentPath}/decision`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base },
        body: new URLSearchParams({ decision: "allow" }),
      }),
    );
    const tokens = await fetch(`${server.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: allowed.searchParams.get("code")!, redirect_uri: CALLBACK, client_id: clientId, code_verifier: verifier }),
    });
    const access = ((await tokens.json()) as { access_token: string }).access_token;
    expect(await mcpStatus(access)).toBe(200);
    // The consent stands: the OAuth server's session gets a new code at once.
    expect(await browse(jar, authorizePath(clientId, pkce().challenge))).toMatch(new RegExp(`^${CALLBACK}\\?code=`));

    // From another device, the person signs out everywhere.
    const login = (await (await post("/api/v1/auth/login", { email, password: "Password123" })).json()) as { access_token: string };
    expect((await post("/api/v1/auth/logout-everywhere", {}, { authorization: `Bearer ${login.access_token}` })).status).toBe(204);

    const again = await browse(jar, authorizePath(clientId, pkce().challenge));
    expect(again.startsWith(CALLBACK)).toBe(false);
    const consentAgain = new URL(again).pathname;
    expect(consentAgain).toMatch(/^\/consent\//);
    // The consent page wants a sign-in (the app streams its pages: the redirect may come inside the page).
    const page = await fetch(`${server.base}${consentAgain}`, { redirect: "manual", headers: { cookie: jar.header() } });
    expect(page.headers.get("location") ?? (await page.text())).toContain("/signin?redirect_to=");
    expect(await mcpStatus(access)).toBe(401);
  });
});
