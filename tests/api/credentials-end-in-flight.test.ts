// What a request in flight writes back after an account's credentials end
// (docs/security.md#which-action-ends-which-credential). Completing a password reset and "sign out
// everywhere" delete the account's rows at the OAuth server for MCP clients, but the provider saves by
// upsert: a request that loaded a row before the deletion writes it again when it ends (the browser's
// session on every request, a token minted by a refresh, a grant and an answered consent from the
// consent page). The write-back is simulated by saving the deleted rows again through the provider's
// own adapter, as that request would, after the action; what a person or program would notice is then
// checked over real HTTP (the OAuth server's node handler, /mcp's route handler, the REST adapter).
import type { AdapterPayload } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMcpGrants } from "../../server/oauth/grants.ts";
import { oauthProvider } from "../../server/oauth/provider.ts";
import { readSql } from "../../server/db/client.ts";
import { createAgent, type TestAgent, type TestApi } from "../helpers/api.ts";
import { OAuthProviderServer, startCredentialServers } from "../helpers/mcp-code-flow.ts";
import { tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";


let api: TestApi;
let smtp: SmtpSink;
let oauth: OAuthProviderServer;
let servers: Awaited<ReturnType<typeof startCredentialServers>>;
beforeAll(async () => void ({ api, smtp, oauth } = servers = await startCredentialServers()));
afterAll(() => servers.close());

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
    await oauthProvider()[kind].adapter.upsert(row.id, payload, ttl);
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
    const mcp = await oauth.connectMcpClient(a.id);
    // Another browser: the person has answered the consent page, and it has not come back yet.
    const pending = await oauth.answerConsent(a.id);
    const act = await prepare(a);
    const before = await artifactsOf(a.id, [pending.uid]);
    await nextSecond();
    await act();
    expect(await oauth.mcpStatus(mcp.access)).toBe(401);

    // A token minted by a refresh that had loaded its grant before the deletion: its grant is gone.
    await writeBack(before, "AccessToken");
    await writeBack(before, "RefreshToken");
    expect(await oauth.mcpStatus(mcp.access), "a token whose grant is gone").toBe(401);
    expect(await oauth.refreshStatus(mcp)).toBe(400);

    // Its grant written back as well (a consent being answered re-saves it): made before the cut-off.
    await writeBack(before, "Grant", (g) => g.payload.clientId === mcp.clientId);
    expect(await oauth.mcpStatus(mcp.access), "a token whose grant predates the cut-off").toBe(401);
    expect(await listMcpGrants(a.id)).toEqual([]);

    // The browser's session at the OAuth server, as the provider re-saves it at the end of every
    // request: signed in before the cut-off, it gives no code even beside a grant for its client that
    // counts (saved again now), and the browser is sent to the consent page, which needs a sign-in.
    await writeBack(before, "Session");
    await writeBack(before, "Grant", (g) => g.payload.clientId === mcp.clientId, true);
    expect(await oauth.reauthorize(mcp), "a code from the written-back session").toEqual({ consent: expect.any(String) });

    // The answered consent written back, with the grant it made saved after the action: coming back
    // into the provider, the browser finds its consent gone (the provider's error page), no code.
    await writeBack(before, "Interaction");
    await writeBack(before, "Grant", (g) => g.payload.clientId === pending.clientId, true);
    expect(await oauth.follow(pending.jar, pending.returnTo), "a code from the consent answered before the cut-off").toEqual({ refused: 400 });
    expect(await oauth.silentCode(pending)).toBe(false);

    // The person approving a client from now on gets a code and a working token, and the browser's session gives codes again.
    const again = await oauth.connectMcpClient(a.id);
    expect(await oauth.mcpStatus(again.access)).toBe(200);
    expect(await oauth.silentCode(again)).toBe(true);
  });
});
