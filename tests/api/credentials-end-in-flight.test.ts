// What a request in flight writes back after an account's credentials end
// (docs/security.md#which-action-ends-which-credential). Completing a password reset and "sign out
// everywhere" delete the account's rows at the OAuth server for MCP clients, but the provider saves by
// upsert: a request that loaded a row before the deletion writes it again when it ends (the browser's
// session on every request, a token minted by a refresh, a grant and an answered consent from the
// consent page). The write-back is simulated by saving the deleted rows again through the provider's
// own adapter, as that request would, after the action; what a person or program would notice is then
// checked over real HTTP (the OAuth server's node handler, /mcp's route handler, the REST adapter).
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AdapterPayload } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "../../app/mcp/route.ts";
import { finishConsent, handleOAuthRequest, listMcpGrants, oauthProvider } from "../../server/auth/mcp-oauth.ts";
import { readSql } from "../../server/db/client.ts";
import { createAgent, startApi, uniqueName, type TestAgent, type TestApi } from "../helpers/api.ts";
import { startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

/** The public origin (NEXTAUTH_URL in tests): the issuer, and the resource `${ORIGIN}/mcp`. */
const ORIGIN = "http://localhost:3000";
const CALLBACK = "http://127.0.0.1:51234/cb";

let api: TestApi;
let smtp: SmtpSink;
let oauth: Server;
let oauthBase: string;
beforeAll(async () => {
  smtp = await startSmtpSink();
  process.env.SMTP_URL = smtp.url;
  api = await startApi();
  oauth = createServer((req, res) => void handleOAuthRequest(ORIGIN, req, res));
  await new Promise<void>((resolve) => oauth.listen(0, "127.0.0.1", resolve));
  oauthBase = `http://127.0.0.1:${(oauth.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => oauth.close(() => resolve()));
  await api.close();
  await smtp.close();
});

// ---- a browser and an MCP client at the OAuth server ----

class Jar {
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

const atOAuthServer = (location: string) => {
  const url = new URL(location, ORIGIN);
  return `${oauthBase}${url.pathname}${url.search}`;
};

async function oauthForm(path: string, fields: Record<string, string>) {
  const res = await fetch(atOAuthServer(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * Follows the provider's redirects from `location` until the consent page (its interaction), the
 * client's callback (the code), or an answer that is no redirect (its status: the provider's error page).
 */
async function follow(jar: Jar, location: string): Promise<{ consent?: string; code?: string; refused?: number }> {
  for (let hops = 0; hops < 6; hops++) {
    const res = await fetch(atOAuthServer(location), { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res.headers);
    const next = res.headers.get("location");
    if (!next) {
      expect(res.status, await res.text()).toBeLessThan(500);
      return { refused: res.status };
    }
    if (next!.startsWith(CALLBACK)) return { code: new URL(next!).searchParams.get("code") ?? undefined };
    const path = new URL(next!, ORIGIN).pathname;
    if (path.startsWith("/consent/")) return { consent: path.slice("/consent/".length) };
    location = next!;
  }
  throw new Error("too many redirects");
}

const authorizePath = (clientId: string, challenge: string) =>
  `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: CALLBACK, scope: "read write", state: "st", code_challenge: challenge, code_challenge_method: "S256" })}`;

async function registerClient(): Promise<string> {
  const res = await fetch(atOAuthServer("/oauth/register"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: uniqueName("agent"), redirect_uris: [CALLBACK], token_endpoint_auth_method: "none" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** A browser in which the person has answered the consent page; it has not come back into the provider yet. */
interface AnsweredConsent {
  clientId: string;
  jar: Jar;
  uid: string;
  returnTo: string;
  verifier: string;
}

async function answerConsent(agentId: string): Promise<AnsweredConsent> {
  const clientId = await registerClient();
  const jar = new Jar();
  const { verifier, challenge } = pkce();
  const { consent } = await follow(jar, authorizePath(clientId, challenge));
  expect(consent).toBeTruthy();
  const returnTo = await finishConsent(ORIGIN, consent!, agentId, true);
  return { clientId, jar, uid: consent!, returnTo: returnTo!, verifier };
}

interface McpClient extends AnsweredConsent {
  access: string;
  refresh: string;
}

/** The whole code flow in a fresh browser, then tokens. */
async function connectMcpClient(agentId: string): Promise<McpClient> {
  const answered = await answerConsent(agentId);
  const { code } = await follow(answered.jar, answered.returnTo);
  expect(code).toBeTruthy();
  const tokens = await oauthForm("/oauth/token", { grant_type: "authorization_code", code: code!, redirect_uri: CALLBACK, client_id: answered.clientId, code_verifier: answered.verifier });
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
  return { ...answered, access: tokens.body.access_token, refresh: tokens.body.refresh_token };
}

async function mcpStatus(token: string): Promise<number> {
  const res = await mcpPost(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );
  return res.status;
}

const refreshStatus = async (client: McpClient) =>
  (await oauthForm("/oauth/token", { grant_type: "refresh_token", refresh_token: client.refresh, client_id: client.clientId })).status;

/** Whether the browser that approved the client gets a code again without anyone signing in or consenting. */
const silentCode = async (client: AnsweredConsent) => (await follow(client.jar, authorizePath(client.clientId, pkce().challenge))).code !== undefined;

// ---- the rows, and writing them back as a request in flight would ----

interface Artifact {
  kind: string;
  id: string;
  payload: AdapterPayload;
  expires_at: Date | null;
}

/** The account's rows at the OAuth server, and the answered consents named. */
const artifactsOf = (agentId: string, interactions: string[]) =>
  readSql<Artifact>`
    SELECT kind, id, payload, expires_at FROM mcp_oauth_artifacts
    WHERE agent_id = ${agentId}::uuid OR (kind = 'Interaction' AND id = ANY(${interactions}::text[]))`;

type Kind = "Session" | "Grant" | "AccessToken" | "RefreshToken" | "Interaction";

/**
 * Saves rows again through the provider's adapter (its upsert), as the request that had loaded them
 * does when it ends. `savedNow`: the rows as a request saves a new one after the action (a grant made
 * by a consent being answered meanwhile), dated now.
 */
async function writeBack(rows: Artifact[], kind: Kind, which: (row: Artifact) => boolean = () => true, savedNow = false) {
  const chosen = rows.filter((row) => row.kind === kind && which(row));
  expect(chosen.length, `${kind} rows to write back`).toBeGreaterThan(0);
  for (const row of chosen) {
    const ttl = Math.max(1, Math.floor(((row.expires_at ? new Date(row.expires_at).getTime() : Date.now() + 3_600_000) - Date.now()) / 1000));
    const payload = savedNow ? { ...row.payload, iat: Math.floor(Date.now() / 1000) } : row.payload;
    await oauthProvider(ORIGIN)[kind].adapter.upsert(row.id, payload, ttl);
  }
}

/** Waits for the next whole second: the action's cut-off then falls after everything made so far (cut-offs are to the second). */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));

async function resetLink(email: string): Promise<string> {
  const since = Date.now();
  expect((await api.post("/auth/password-reset", { email })).status).toBe(202);
  return tokenIn(await smtp.waitForMail(email, { subject: /Reset your password/, since }), "/reset-password");
}

// ---- the actions ----

const actions: { name: string; prepare: (a: TestAgent) => Promise<() => Promise<void>> }[] = [
  {
    name: "sign out everywhere",
    prepare: async (a) => async () => {
      expect((await api.post("/auth/logout-everywhere", {}, { token: a.token })).status).toBe(204);
    },
  },
  {
    name: "a completed password reset",
    prepare: async (a) => {
      const link = await resetLink(a.email);
      return async () => {
        const done = await api.post("/auth/password-reset/confirm", { token: link, new_password: "Owner1234" });
        expect(done.status, done.text).toBe(204);
      };
    },
  },
];

describe.each(actions)("after $name", ({ prepare }) => {
  it("what a request in flight writes back stays ended; approving a client again works", async () => {
    const a = await createAgent(api);
    const mcp = await connectMcpClient(a.id);
    // Another browser: the person has answered the consent page, and it has not come back yet.
    const pending = await answerConsent(a.id);
    const act = await prepare(a);
    const before = await artifactsOf(a.id, [pending.uid]);
    await nextSecond();
    await act();
    expect(await mcpStatus(mcp.access)).toBe(401);

    // A token minted by a refresh that had loaded its grant before the deletion: its grant is gone.
    await writeBack(before, "AccessToken");
    await writeBack(before, "RefreshToken");
    expect(await mcpStatus(mcp.access), "a token whose grant is gone").toBe(401);
    expect(await refreshStatus(mcp)).toBe(400);

    // Its grant written back as well (a consent being answered re-saves it): made before the cut-off.
    await writeBack(before, "Grant", (g) => g.payload.clientId === mcp.clientId);
    expect(await mcpStatus(mcp.access), "a token whose grant predates the cut-off").toBe(401);
    expect(await listMcpGrants(a.id)).toEqual([]);

    // The browser's session at the OAuth server, as the provider re-saves it at the end of every
    // request: signed in before the cut-off, it gives no code even beside a grant for its client that
    // counts (saved again now), and the browser is sent to the consent page, which needs a sign-in.
    await writeBack(before, "Session");
    await writeBack(before, "Grant", (g) => g.payload.clientId === mcp.clientId, true);
    expect(await follow(mcp.jar, authorizePath(mcp.clientId, pkce().challenge)), "a code from the written-back session").toEqual({ consent: expect.any(String) });

    // The answered consent written back, with the grant it made saved after the action: coming back
    // into the provider, the browser finds its consent gone (the provider's error page), no code.
    await writeBack(before, "Interaction");
    await writeBack(before, "Grant", (g) => g.payload.clientId === pending.clientId, true);
    expect(await follow(pending.jar, pending.returnTo), "a code from the consent answered before the cut-off").toEqual({ refused: 400 });
    expect(await silentCode(pending)).toBe(false);

    // The person approving a client from now on gets a code and a working token, and the browser's session gives codes again.
    const again = await connectMcpClient(a.id);
    expect(await mcpStatus(again.access)).toBe(200);
    expect(await silentCode(again)).toBe(true);
  });
});
