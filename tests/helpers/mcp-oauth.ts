// The authorization server for MCP clients in process, as production serves it: a node:http server
// running the node-level guard on every request (server/http/guard.ts hands /oauth/* to the provider,
// as `npm start` does) and /api/v1 with the REST adapter; and what an MCP client and a browser do
// with it (registration, PKCE, cookies). The consent page is the web UI's: a test records the
// person's answer with finishConsent, as its form's handler does.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { finishConsent } from "../../server/oauth/consent.ts";
import { dbReady } from "../../server/db/client.ts";
import { guarded } from "../../server/http/guard.ts";
import { handleNodeRest } from "../../server/rest/node.ts";
import { createAgent, startApi } from "./api.ts";
import { CALLBACK, Jar, pkce } from "./oauth-browser.ts";

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

/** The OAuth app, the REST adapter beside it, and a person with an account. */
export async function startOAuthAppWithPerson() {
  const app = await startOAuthApp();
  const api = await startApi();
  const person = await createAgent(api);
  const close = async () => {
    await app.close();
    await api.close();
  };
  return { app, api, person, close };
}

export { CALLBACK, Jar, pkce };

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

/**
 * Registers a web client (its approval stands for its next authorization; a client with a loopback
 * redirect that does not say what it is registers as a native app, asked every time) unless
 * `metadata` says otherwise.
 */
export function registerClient(base: string, metadata: Record<string, unknown> | string) {
  const body = typeof metadata === "string" ? metadata : JSON.stringify({ application_type: "web", redirect_uris: [CALLBACK], token_endpoint_auth_method: "none", ...metadata });
  return fetch(`${base}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body }).then(answer);
}

/** A client registered with `metadata` (as registerClient takes it), which must be taken: its client_id. */
export async function registeredClient(base: string, metadata: Record<string, unknown>): Promise<string> {
  const res = await registerClient(base, metadata);
  expect(res.status, res.text).toBe(201);
  return res.body.client_id as string;
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

/** Through consent (the person `agentId` allows) back into the provider; returns the PKCE verifier and the provider's next redirect. */
export async function consentThrough(base: string, jar: Jar, clientId: string, agentId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const start = await browse(base, jar, authorizePath(clientId, challenge, extra));
  expect(start.status).toBe(303);
  expect(start.location).toMatch(/^\/consent\//);
  const uid = start.location.split("/")[2];
  const next = await finishConsent({ uid, agentId, approve: true });
  expect(next).toBeTruthy();
  return { verifier, back: await browse(base, jar, new URL(next!).pathname) };
}
