// The authorization server behind a TLS proxy (docs/security.md, "The public address"): with
// NEXTAUTH_URL on https, its cookies are Secure and the addresses it hands out name NEXTAUTH_URL's
// host, whatever Host, X-Forwarded-Host or X-Forwarded-Proto the request carries (the proxy ends TLS;
// the request reaching the process is plain http). Production refuses to start without NEXTAUTH_URL.
// (Its own file: the configuration is read once per process.)
process.env.NEXTAUTH_URL = "https://claims.example";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consentRequest } from "../../server/oauth/consent.ts";
import { parseConfig } from "../../server/config.ts";
import { authorizationServerMetadataResponse, protectedResourceMetadataResponse } from "../../server/mcp/metadata.ts";
import { llmsTxtResponse } from "../../server/mcp/site.ts";
import { authorizePath, browse, Jar, pkce, registerClient, startOAuthApp, type OAuthApp } from "../helpers/mcp-oauth.ts";

const PUBLIC = "https://claims.example";
let app: OAuthApp;

beforeAll(async () => {
  app = await startOAuthApp();
});
afterAll(() => app?.close());

const FORGED = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };

describe("behind a TLS proxy", () => {
  it("the OAuth server's cookies are Secure and the consent returns to NEXTAUTH_URL's host, whatever the request's headers say", async () => {
    const registered = await registerClient(app.base, { client_name: "Proxied agent" });
    expect(registered.status, registered.text).toBe(201);
    const start = await browse(app.base, new Jar(), authorizePath(registered.body.client_id, pkce().challenge), FORGED);
    expect(start.status).toBe(303);
    expect(start.location).toMatch(/^\/consent\//);
    const cookies = start.res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase().split("; ")).toContain("secure");
    const request = await consentRequest(start.location.split("/")[2]);
    expect(request?.returnTo.startsWith(`${PUBLIC}/oauth/authorize/`), request?.returnTo).toBe(true);
  });

  it("the metadata documents and /llms.txt name NEXTAUTH_URL, never the Host header", async () => {
    const forged = (path: string) => new Request(`http://evil.example${path}`, { headers: FORGED });
    const as = await authorizationServerMetadataResponse(forged("/.well-known/oauth-authorization-server")).json();
    expect(as.issuer).toBe(PUBLIC);
    expect(as.token_endpoint).toBe(`${PUBLIC}/oauth/token`);
    const pr = await protectedResourceMetadataResponse(forged("/.well-known/oauth-protected-resource")).json();
    expect(pr).toMatchObject({ resource: `${PUBLIC}/mcp`, authorization_servers: [PUBLIC] });
    const llms = await (await llmsTxtResponse(forged("/llms.txt"))).text();
    expect(llms).toContain(`${PUBLIC}/mcp`);
    expect(llms).not.toContain("evil.example");
  });
});

describe("NEXTAUTH_URL in production", () => {
  const secrets = {
    JWT_SECRET: "jwt-Kq8vT2mZ9xLp4RbN7cWd1YhF6sJe3Ug5",
    NEXTAUTH_SECRET: "na-Hs5Pw1Qz8Tn3Vx6By0Cm4Dk7Fj2Gl9Rt",
    WEBHOOK_SECRET_KEY: "wh-Vb6Nm2Qa9Ws3Ed7Rf1Tg5Yh8Uj4Ik0Ol",
    DATA_DIR: "/tmp/claims-config-test",
  };
  it("is required: no URL the service hands out may follow a request's Host header", () => {
    expect(() => parseConfig({ ...secrets, NODE_ENV: "production" })).toThrow(/NEXTAUTH_URL: required in production/);
    expect(parseConfig({ ...secrets, NODE_ENV: "production", NEXTAUTH_URL: PUBLIC }).NEXTAUTH_URL).toBe(PUBLIC);
    // Development keeps working without it (the Host header, on the developer's own machine).
    expect(() => parseConfig({ ...secrets, NODE_ENV: "development" })).not.toThrow();
  });
});
