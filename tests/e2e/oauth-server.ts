// A local stand-in for GitHub, Google and Twitter: one oauth2-mock-server (a real OAuth 2.0 / OpenID
// Connect server: authorization codes, PKCE, signed id_tokens, discovery) on 127.0.0.1, with a small
// layer that makes it behave like each provider:
//   - GET /authorize shows a consent page where the test (or a person) types who signs in: account id,
//     login, name, email and whether the email is verified; "Authorize" continues to the real mock,
//     "Deny" returns access_denied. The provider is told apart by client_id (MOCK_CLIENTS).
//   - tokens: Google gets an id_token carrying the identity; GitHub and Twitter (plain OAuth 2.0) get
//     none, as openid-client refuses an id_token on a non-OIDC flow.
//   - GET /userinfo answers in each provider's shape; GET /user/emails is GitHub's email list.
// Run it alone with `node --import tsx tests/e2e/oauth-server.ts` (port: E2E_OAUTH_PORT, default 3199).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { OAuth2Issuer, OAuth2Service, type MutableResponse, type MutableToken } from "oauth2-mock-server";

export type MockProvider = "github" | "google" | "twitter";

export const MOCK_CLIENTS: Record<MockProvider, { clientId: string; clientSecret: string }> = {
  github: { clientId: "e2e-github-client", clientSecret: "e2e-github-secret" },
  google: { clientId: "e2e-google-client", clientSecret: "e2e-google-secret" },
  twitter: { clientId: "e2e-twitter-client", clientSecret: "e2e-twitter-secret" },
};

interface MockIdentity {
  provider: MockProvider;
  sub: string;
  login: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
}

export interface MockProviders {
  /** http://127.0.0.1:<port> — also Google's issuer. */
  url: string;
  /** The app's environment for all three providers against this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Environment variables that point the app's three providers at a mock at `url`. */
export function mockProviderEnv(url: string): Record<string, string> {
  return {
    GITHUB_CLIENT_ID: MOCK_CLIENTS.github.clientId,
    GITHUB_CLIENT_SECRET: MOCK_CLIENTS.github.clientSecret,
    GITHUB_AUTHORIZATION_URL: `${url}/authorize`,
    GITHUB_TOKEN_URL: `${url}/token`,
    GITHUB_USERINFO_URL: `${url}/userinfo`,
    GITHUB_EMAILS_URL: `${url}/user/emails`,
    GOOGLE_CLIENT_ID: MOCK_CLIENTS.google.clientId,
    GOOGLE_CLIENT_SECRET: MOCK_CLIENTS.google.clientSecret,
    GOOGLE_ISSUER: url,
    TWITTER_CLIENT_ID: MOCK_CLIENTS.twitter.clientId,
    TWITTER_CLIENT_SECRET: MOCK_CLIENTS.twitter.clientSecret,
    TWITTER_AUTHORIZATION_URL: `${url}/authorize`,
    TWITTER_TOKEN_URL: `${url}/token`,
    TWITTER_USERINFO_URL: `${url}/userinfo`,
  };
}

const PROVIDER_NAMES: Record<MockProvider, string> = { github: "GitHub", google: "Google", twitter: "Twitter" };

function providerOfClient(clientId: unknown): MockProvider | null {
  const entry = Object.entries(MOCK_CLIENTS).find(([, c]) => c.clientId === clientId);
  return entry ? (entry[0] as MockProvider) : null;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function consentPage(provider: MockProvider, query: URLSearchParams): string {
  const hidden = [...query]
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("\n");
  const suggested = `${provider}-${Math.random().toString(36).slice(2, 10)}`;
  const emailFields =
    provider === "twitter"
      ? ""
      : `<p><label for="email">Email</label> <input id="email" name="mock_email" type="email"></p>
         <p><label><input name="mock_email_verified" type="checkbox" value="1" checked> Email verified</label></p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${PROVIDER_NAMES[provider]} (local test provider)</title></head>
<body><main><h1>Sign in to ${PROVIDER_NAMES[provider]}</h1><p>Local test provider: choose who signs in.</p>
<form method="get" action="/authorize">
${hidden}
<p><label for="sub">Account id</label> <input id="sub" name="mock_sub" value="${suggested}" required></p>
<p><label for="login">Login</label> <input id="login" name="mock_login" value="${suggested}"></p>
<p><label for="name">Name</label> <input id="name" name="mock_name"></p>
${emailFields}
<button type="submit" name="mock_decision" value="allow">Authorize</button>
<button type="submit" name="mock_decision" value="deny">Deny</button>
</form></main></body></html>`;
}

function identityFromConsent(provider: MockProvider, q: Record<string, unknown>): MockIdentity {
  const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const sub = str(q.mock_sub) || `${provider}-anonymous`;
  const email = provider === "twitter" ? "" : str(q.mock_email);
  return {
    provider,
    sub,
    login: str(q.mock_login) || sub,
    name: str(q.mock_name) || str(q.mock_login) || sub,
    email: email || null,
    emailVerified: q.mock_email_verified === "1",
  };
}

function userinfoBody(identity: MockIdentity): Record<string, unknown> {
  switch (identity.provider) {
    case "github": {
      const numericId = /^\d+$/.test(identity.sub) ? Number(identity.sub) : identity.sub;
      // GitHub's /user shows the public email; whether it is verified is only in /user/emails.
      return { id: numericId, login: identity.login, name: identity.name, email: identity.email, avatar_url: `https://avatars.example.test/${identity.login}.png` };
    }
    case "google":
      return { sub: identity.sub, name: identity.name, email: identity.email, email_verified: identity.emailVerified };
    case "twitter":
      return { data: { id: identity.sub, name: identity.name, username: identity.login } };
  }
}

function bearer(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return match ? match[1] : null;
}

export async function startMockProviders(opts: { port?: number; host?: string } = {}): Promise<MockProviders> {
  const host = opts.host ?? "127.0.0.1";
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate("RS256");
  const service = new OAuth2Service(issuer);
  /** authorization code → who consented; access token → who it belongs to */
  const byCode = new Map<string, MockIdentity>();
  const byAccessToken = new Map<string, MockIdentity>();
  const pendingConsent = new WeakMap<IncomingMessage, MockIdentity>();

  service.on("beforeAuthorizeRedirect", ({ url }: { url: URL }, req: IncomingMessage) => {
    const identity = pendingConsent.get(req);
    const code = url.searchParams.get("code");
    if (identity && code) byCode.set(code, identity);
  });
  service.on("beforeTokenSigning", (token: MutableToken, req: IncomingMessage & { body?: Record<string, unknown> }) => {
    const identity = byCode.get(String(req.body?.code ?? ""));
    if (!identity) return;
    token.payload.sub = identity.sub;
    if (identity.provider === "google") {
      Object.assign(token.payload, { email: identity.email, email_verified: identity.emailVerified, name: identity.name });
    }
  });
  service.on("beforeResponse", (response: MutableResponse, req: IncomingMessage & { body?: Record<string, unknown> }) => {
    const code = String(req.body?.code ?? "");
    const identity = byCode.get(code);
    if (!identity || response.statusCode !== 200) return;
    byCode.delete(code);
    const body = response.body as Record<string, unknown>;
    byAccessToken.set(String(body.access_token), identity);
    if (identity.provider !== "google") delete body.id_token;
  });
  service.on("beforeUserinfo", (response: MutableResponse, req: IncomingMessage) => {
    const identity = byAccessToken.get(bearer(req) ?? "");
    if (!identity) {
      response.statusCode = 401;
      response.body = { error: "invalid_token" };
      return;
    }
    response.body = userinfoBody(identity);
  });

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    if (req.method === "GET" && url.pathname === "/authorize") {
      const provider = providerOfClient(url.searchParams.get("client_id"));
      const decision = url.searchParams.get("mock_decision");
      if (!provider) {
        res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "unauthorized_client" }));
        return;
      }
      if (!decision) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(consentPage(provider, url.searchParams));
        return;
      }
      if (decision === "deny") {
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("error", "access_denied");
        const state = url.searchParams.get("state");
        if (state) back.searchParams.set("state", state);
        res.writeHead(302, { Location: back.href }).end();
        return;
      }
      pendingConsent.set(req, identityFromConsent(provider, Object.fromEntries(url.searchParams)));
    }
    if (req.method === "GET" && url.pathname === "/user/emails") {
      const identity = byAccessToken.get(bearer(req) ?? "");
      if (!identity) {
        res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "Bad credentials" }));
        return;
      }
      const emails = identity.email ? [{ email: identity.email, primary: true, verified: identity.emailVerified, visibility: "private" }] : [];
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(emails));
      return;
    }
    service.requestHandler(req, res);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  issuer.url = url;
  return {
    url,
    env: mockProviderEnv(url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Started by Playwright's webServer (playwright.config.ts).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.E2E_OAUTH_PORT ?? 3199);
  startMockProviders({ port }).then((mock) => {
    console.log(`OAuth test provider on ${mock.url}`);
  });
}
