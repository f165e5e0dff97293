// MCP client registrations are limited per client IP (docs/features/mcp.md#oauth, "Guards";
// MCP_REGISTRATION_LIMIT), a budget of their own charged at the door (server/door/budgets.ts): past it,
// POST /oauth/register answers 429 with the door's refusal and Retry-After, and nothing is stored; the
// same client's other OAuth requests (its registration read back, an authorization, the token endpoint)
// go on, and another client IP still registers. In process, through the node-level guard as
// `npm start` serves it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSql } from "../../server/db/client.ts";
import { answer, authorizePath, browse, CALLBACK, Jar, pkce, startOAuthApp, type OAuthApp } from "../helpers/mcp-oauth.ts";

// Before anything reads the configuration: the contract's own budgets, three registrations an hour,
// and the client IP taken from X-Forwarded-For (one proxy) so that two clients can be told apart.
process.env.RATE_LIMIT_SCALE = "1";
process.env.MCP_REGISTRATION_LIMIT = "3";
process.env.TRUST_PROXY = "1";

let app: OAuthApp;
beforeAll(async () => void (app = await startOAuthApp()));
afterAll(() => app?.close());

let ipCounter = 0;
const freshIp = () => `10.78.${process.pid % 250}.${++ipCounter}`;

const metadata = (name: string) => JSON.stringify({ client_name: name, application_type: "web", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" });

const register = (ip: string, name: string, path = "/oauth/register") =>
  fetch(`${app.base}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: metadata(name) }).then(answer);

const clientCount = async () => Number((await readSql<{ n: bigint }>`SELECT count(*) AS n FROM mcp_oauth_artifacts WHERE kind = 'Client'`)[0].n);

describe("registrations per client IP (MCP_REGISTRATION_LIMIT)", () => {
  it("past the limit a registration is refused 429 with Retry-After, whatever the path's spelling; nothing is stored", async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await register(ip, `Agent ${i}`)).status).toBe(201);
    const before = await clientCount();
    for (const path of ["/oauth/register", "/oauth/register/", "/oauth/REGISTER"]) {
      const refused = await register(ip, "One too many", path);
      expect(refused.status, `${path}: ${refused.text}`).toBe(429);
      expect(refused.body).toEqual({ code: "rate_limited", detail: "Rate limit exceeded" });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      // A browser-based client reads the refusal and when to try again.
      expect(refused.headers.get("access-control-allow-origin")).toBe("*");
      expect(refused.headers.get("access-control-expose-headers")).toMatch(/Retry-After/i);
    }
    expect(await clientCount()).toBe(before);
  });

  it("the client's other OAuth requests go on, and another client IP still registers", async () => {
    const ip = freshIp();
    const first = await register(ip, "Connected agent");
    expect(first.status).toBe(201);
    const clientId = String(first.body.client_id);
    for (let i = 0; i < 2; i++) expect((await register(ip, `Agent ${i}`)).status).toBe(201);
    expect((await register(ip, "One too many")).status).toBe(429);

    // The registration read back (RFC 7592) with its token.
    const uri = new URL(String(first.body.registration_client_uri));
    const read = await fetch(`${app.base}${uri.pathname}${uri.search}`, {
      headers: { authorization: `Bearer ${first.body.registration_access_token}`, "x-forwarded-for": ip },
    }).then(answer);
    expect(read.status, read.text).toBe(200);
    expect(read.body.client_id).toBe(clientId);

    // An authorization request goes on to the sign-in or consent page.
    const start = await browse(app.base, new Jar(), authorizePath(clientId, pkce().challenge), { "x-forwarded-for": ip });
    expect(start.status).toBe(303);
    expect(start.location).toMatch(/^\/consent\//);

    // The token endpoint answers the OAuth error of a bad code, not 429.
    const token = await fetch(`${app.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "not-a-code", client_id: clientId, code_verifier: pkce().verifier, redirect_uri: CALLBACK }),
    }).then(answer);
    expect(token.status, token.text).toBe(400);
    expect(token.body.error).toBe("invalid_grant");

    // Another client IP has its own registrations.
    expect((await register(freshIp(), "Someone else")).status).toBe(201);
  });
});
