// The authorization server for MCP clients alone (its node handler, as the node-level guard hands
// /oauth/* to it) and an MCP client's whole code flow through it, in a browser of its own. The consent
// page's answer is recorded through finishConsent, the function its route calls once it has checked
// the web session and the interaction cookie; /mcp is called through its route handler.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { POST as mcpPost } from "../../app/mcp/route.ts";
import { finishConsent } from "../../server/oauth/consent.ts";
import { handleOAuthRequest } from "../../server/oauth/endpoint.ts";
import { oauthIssuer } from "../../server/oauth/provider.ts";
import { startApi, uniqueName, type TestApi } from "./api.ts";
import { authorizePath } from "./mcp-oauth.ts";
import { CALLBACK, Jar, pkce } from "./oauth-browser.ts";
import { startSmtpSink, type SmtpSink } from "./smtp-sink.ts";

/** A browser in which the person has answered the consent page; it has not come back into the provider yet. */
export interface AnsweredConsent {
  clientId: string;
  /** The browser that approved it: holds the OAuth server's session cookie. */
  jar: Jar;
  uid: string;
  returnTo: string;
  verifier: string;
}

export interface McpClient extends AnsweredConsent {
  access: string;
  refresh: string;
}

/** Where the provider sends a browser: the consent page (its interaction), the client's callback (the code), or no redirect (its status). */
export type Outcome = { consent?: string; code?: string; refused?: number };

export class OAuthProviderServer {
  /** Where it listens. */
  base: string;
  /** The issuer it names itself and its addresses by: the process's (NEXTAUTH_URL's origin in tests). */
  issuer: string;
  private server: Server;

  private constructor(server: Server, base: string, issuer: string) {
    this.server = server;
    this.base = base;
    this.issuer = issuer;
  }

  /**
   * Starts the process's provider on a port of its own. It answers as the issuer (one provider per
   * process), not as the address it listens on: every request is handed in as reaching the issuer.
   */
  static async start(): Promise<OAuthProviderServer> {
    const issuer = oauthIssuer();
    const server = createServer((req, res) => void handleOAuthRequest(req, res, { origin: issuer }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new OAuthProviderServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, issuer);
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** An address the provider names (absolute under the issuer, or a path) at this server. */
  at(location: string): string {
    const url = new URL(location, this.issuer);
    return `${this.base}${url.pathname}${url.search}`;
  }

  /** A form POST (the token endpoint): its status and JSON body. */
  async form(path: string, fields: Record<string, string>) {
    const res = await fetch(this.at(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  /** Follows the provider's redirects from `location` with the jar until the consent page, the client's callback or an answer that is no redirect. */
  async follow(jar: Jar, location: string): Promise<Outcome> {
    for (let hops = 0; hops < 6; hops++) {
      const res = await fetch(this.at(location), { redirect: "manual", headers: { cookie: jar.header() } });
      jar.take(res.headers);
      const next = res.headers.get("location");
      if (!next) {
        expect(res.status, await res.text()).toBeLessThan(500);
        return { refused: res.status };
      }
      if (next.startsWith(CALLBACK)) return { code: new URL(next).searchParams.get("code") ?? undefined };
      const path = new URL(next, this.issuer).pathname;
      if (path.startsWith("/consent/")) return { consent: path.slice("/consent/".length) };
      location = next;
    }
    throw new Error("too many redirects");
  }

  async registerClient(): Promise<string> {
    const res = await fetch(this.at("/oauth/register"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      // A web client: its approval stands for its next authorization (silentCode).
      body: JSON.stringify({ client_name: uniqueName("agent"), application_type: "web", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  /** A new client, and the agent answers its consent page in a fresh browser. */
  async answerConsent(agentId: string, scope = "read write"): Promise<AnsweredConsent> {
    const clientId = await this.registerClient();
    const jar = new Jar();
    const { verifier, challenge } = pkce();
    const { consent } = await this.follow(jar, authorizePath(clientId, challenge, { scope }));
    expect(consent).toBeTruthy();
    const returnTo = await finishConsent({ uid: consent!, agentId, approve: true });
    return { clientId, jar, uid: consent!, returnTo: returnTo!, verifier };
  }

  /** The whole code flow in a fresh browser, then tokens. */
  async connectMcpClient(agentId: string, scope = "read write"): Promise<McpClient> {
    const answered = await this.answerConsent(agentId, scope);
    const { code } = await this.follow(answered.jar, answered.returnTo);
    expect(code).toBeTruthy();
    const tokens = await this.form("/oauth/token", { grant_type: "authorization_code", code: code!, redirect_uri: CALLBACK, client_id: answered.clientId, code_verifier: answered.verifier });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    return { ...answered, access: tokens.body.access_token, refresh: tokens.body.refresh_token };
  }

  /** A new access token from the client's refresh token: 200, or the provider's 400 invalid_grant. */
  async refreshStatus(client: McpClient): Promise<number> {
    return (await this.form("/oauth/token", { grant_type: "refresh_token", refresh_token: client.refresh, client_id: client.clientId })).status;
  }

  /** Where a new authorization from the browser that approved the client goes, without anyone signing in or consenting. */
  reauthorize(client: AnsweredConsent, scope = "read write"): Promise<Outcome> {
    return this.follow(client.jar, authorizePath(client.clientId, pkce().challenge, { scope }));
  }

  /** Whether that browser gets a code again (else the provider sends it to the consent page). */
  async silentCode(client: AnsweredConsent): Promise<boolean> {
    const outcome = await this.reauthorize(client);
    expect(outcome.refused, "the provider answers with a redirect").toBeUndefined();
    return outcome.code !== undefined;
  }

  /** A tools/list at /mcp (the issuer's resource) with the token: its status. */
  async mcpStatus(token: string): Promise<number> {
    const res = await mcpPost(
      new Request(`${this.issuer}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    return res.status;
  }
}

/** What the tests of ending credentials talk to: the REST adapter, an SMTP sink (set as SMTP_URL) and the provider. */
export async function startCredentialServers() {
  const smtp: SmtpSink = await startSmtpSink();
  process.env.SMTP_URL = smtp.url;
  const api: TestApi = await startApi();
  const oauth = await OAuthProviderServer.start();
  const close = async () => {
    await oauth.close();
    await api.close();
    await smtp.close();
  };
  return { smtp, api, oauth, close };
}
