// The authorization server for MCP clients in process, as production serves it: a node:http server
// running the node-level guard on every request (server/http/guard.ts hands /oauth/* to the provider,
// as `npm start` does) and /api/v1 with the REST adapter; and what an MCP client and a browser do
// with it (registration, PKCE, cookies). The consent page is the web UI's: a test records the
// person's answer with finishConsent, as its form's handler does.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dbReady } from "../../server/db/client.ts";
import { guarded } from "../../server/http/guard.ts";
import { handleNodeRest } from "../../server/rest/node.ts";

export interface OAuthApp {
  base: string;
  close(): Promise<void>;
}

export async function startOAuthApp(): Promise<OAuthApp> {
  await dbReady();
  const server: Server = createServer((req, res) => guarded(req, res, () => void handleNodeRest(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies as a browser keeps them (name → value; paths ignored: every request here may carry them). */
export class Jar {
  private cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const c of headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export const CALLBACK = "http://127.0.0.1:51234/cb";

export async function answer(res: Response) {
  const text = await res.text();
  let body: Record<string, any> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text, headers: res.headers };
}

export function registerClient(base: string, metadata: Record<string, unknown> | string) {
  const body = typeof metadata === "string" ? metadata : JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", ...metadata });
  return fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body }).then(answer);
}

export function authorizePath(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: CALLBACK,
    scope: "read vote",
    state: "st",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  return `/oauth/authorize?${params}`;
}

/** A GET as a browser's, with the jar, not following redirects. */
export async function browse(base: string, jar: Jar, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(path.startsWith("http") ? path : `${base}${path}`, { redirect: "manual", headers: { ...headers, cookie: jar.header() } });
  jar.take(res.headers);
  return { status: res.status, location: res.headers.get("location") ?? "", res };
}

export const form = (base: string, path: string, fields: Record<string, string>) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }).then(answer);
