// An MCP client authorised the way a real one is (docs/features/mcp.md#oauth), in-process: the OAuth
// server (`oidc-provider`) on a node:http server that passes every request through the node-level
// guard, which serves /oauth/* itself as in production, and /mcp through its route handler. Registration, the authorization request with
// PKCE, the token exchange, refresh and the provider's browser session are the real ones; the consent
// page's answer is given by `finishConsent`, which the page's form handler calls once it has checked
// the person's web session (the caller checks that session first, as the page would).
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { finishConsent } from "../../server/oauth/consent.ts";
import { dbReady } from "../../server/db/client.ts";
import { guarded } from "../../server/http/guard.ts";
import { publicOrigin } from "../../server/http/public-origin.ts";
import { handleMcp } from "../../server/mcp/handler.ts";

/** The client's redirect URI (a loopback one, as desktop MCP clients register). */
export const MCP_CALLBACK = "http://127.0.0.1:51234/cb";

/** Cookies as a browser keeps them (name → value; paths ignored: every request here may carry them). */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(headers: Headers): void {
    for (const c of headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface McpTokens {
  access: string;
  refresh: string;
}

export interface McpAuthorisation extends McpTokens {
  clientId: string;
  /** The browser that consented: it holds the OAuth server's session cookie. */
  jar: CookieJar;
}

export interface McpWorld {
  /** The service's public origin (NEXTAUTH_URL): the issuer, and the resource is `${origin}/mcp`. */
  origin: string;
  /** Registers a public client with MCP_CALLBACK as its redirect URI. */
  registerClient(name: string): Promise<string>;
  /** The whole code flow for `agentId`, who consents to `scope`. */
  authorise(clientId: string, agentId: string, scope?: string): Promise<McpAuthorisation>;
  /**
   * With the browser's cookies alone (no consent page, no sign-in): a code when the OAuth server's
   * session and the client's grant still stand, else null (it asks for consent again, or refuses).
   */
  codeWithoutConsent(clientId: string, jar: CookieJar): Promise<{ status: number; code: string | null }>;
  /** POST /oauth/token with a refresh token: the status, and the new pair on 200. */
  refresh(clientId: string, refreshToken: string): Promise<{ status: number; tokens: McpTokens | null }>;
  /** tools/list at /mcp with the token: the HTTP status. */
  listTools(token: string): Promise<number>;
  /** Any request to the OAuth server, for the caller to check (redirects are not followed). */
  fetchOAuth(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Starts the OAuth server; `onAnswer` sees every status it answers (for a no-5xx check). */
export async function startMcpWorld(onAnswer: (what: string, status: number) => void = () => {}): Promise<McpWorld> {
  await dbReady();
  // The guard answers /oauth/* itself (server/main.ts mounts the same); nothing else is served here.
  const server: Server = createServer((req, res) => guarded(req, res, () => void res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const origin = publicOrigin(new Request(`${base}/`));

  /** The provider names its own URLs at the public origin; here they are served at `base`. */
  const local = (location: string) => {
    const url = new URL(location, origin);
    return url.origin === origin ? `${base}${url.pathname}${url.search}` : url.toString();
  };

  async function fetchOAuth(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(local(path), { redirect: "manual", ...init });
    onAnswer(`${init.method ?? "GET"} ${new URL(local(path)).pathname}`, res.status);
    return res;
  }

  const form = (path: string, fields: Record<string, string>) =>
    fetchOAuth(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

  function authorizePath(clientId: string, challenge: string, scope: string) {
    const params = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: MCP_CALLBACK,
      scope,
      state: "st",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: `${origin}/mcp`,
    });
    return `/oauth/authorize?${params}`;
  }

  /** GET with the jar, following the provider's redirects until the client's callback or the consent page. */
  async function browse(jar: CookieJar, path: string): Promise<{ status: number; location: string }> {
    let url = local(path);
    for (let hops = 0; hops < 10; hops++) {
      const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
      onAnswer(`GET ${new URL(url).pathname}`, res.status);
      jar.take(res.headers);
      await res.arrayBuffer();
      const location = res.headers.get("location");
      if (res.status < 300 || res.status >= 400 || !location) return { status: res.status, location: url };
      const next = new URL(location, origin);
      if (next.toString().startsWith(MCP_CALLBACK) || next.pathname.startsWith("/consent/")) return { status: res.status, location: next.toString() };
      url = local(next.toString());
    }
    throw new Error("too many redirects");
  }

  async function exchange(clientId: string, code: string, verifier: string): Promise<McpTokens> {
    const res = await form("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: MCP_CALLBACK, client_id: clientId, code_verifier: verifier });
    const body = (await res.json()) as { access_token?: string; refresh_token?: string };
    if (res.status !== 200 || !body.access_token || !body.refresh_token) throw new Error(`token exchange: ${res.status} ${JSON.stringify(body)}`);
    return { access: body.access_token, refresh: body.refresh_token };
  }

  return {
    origin,
    fetchOAuth,
    async registerClient(name) {
      const res = await fetchOAuth("/oauth/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // A web client: the person's approval stands for its next authorization (a client with a
        // loopback redirect that does not say what it is registers as a native app, asked every time).
        body: JSON.stringify({ client_name: name, application_type: "web", redirect_uris: [MCP_CALLBACK], token_endpoint_auth_method: "none" }),
      });
      const body = (await res.json()) as { client_id?: string };
      if (res.status !== 201 || !body.client_id) throw new Error(`client registration: ${res.status} ${JSON.stringify(body)}`);
      return body.client_id;
    },
    async authorise(clientId, agentId, scope = "read vote write") {
      const jar = new CookieJar();
      const { verifier, challenge } = pkce();
      const toConsent = await browse(jar, authorizePath(clientId, challenge, scope));
      const consentPath = new URL(toConsent.location).pathname;
      if (!consentPath.startsWith("/consent/")) throw new Error(`authorize: expected the consent page, got ${toConsent.status} ${toConsent.location}`);
      const returnTo = await finishConsent({ uid: consentPath.slice("/consent/".length), agentId, approve: true });
      if (!returnTo) throw new Error("consent: the interaction is gone");
      const back = await browse(jar, returnTo);
      const callback = new URL(back.location);
      const code = callback.searchParams.get("code");
      if (!back.location.startsWith(MCP_CALLBACK) || !code) throw new Error(`consent: no code (${back.status} ${back.location})`);
      return { clientId, jar, ...(await exchange(clientId, code, verifier)) };
    },
    async codeWithoutConsent(clientId, jar) {
      const probe = new CookieJar();
      // A copy of the browser's cookies: the probe must not change what the browser holds.
      for (const pair of jar.header().split("; ").filter(Boolean)) probe.take(new Headers({ "set-cookie": pair }));
      const back = await browse(probe, authorizePath(clientId, pkce().challenge, "read"));
      const code = back.location.startsWith(MCP_CALLBACK) ? new URL(back.location).searchParams.get("code") : null;
      return { status: back.status, code };
    },
    async refresh(clientId, refreshToken) {
      const res = await form("/oauth/token", { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });
      const body = (await res.json()) as { access_token?: string; refresh_token?: string };
      if (res.status !== 200) return { status: res.status, tokens: null };
      return { status: 200, tokens: { access: body.access_token!, refresh: body.refresh_token ?? refreshToken } };
    },
    async listTools(token) {
      const res = await handleMcp(
        new Request(`${origin}/mcp`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
      await res.arrayBuffer();
      onAnswer("POST /mcp (tools/list)", res.status);
      return res.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
