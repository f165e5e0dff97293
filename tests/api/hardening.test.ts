// The second hardening round's account and content rules, through real HTTP (the REST adapter, and
// NextAuth's and the web tRPC's own route handlers):
//   - every credential path checks suspension and the agent's sessions_valid_after: the OAuth
//     hand-off, its code exchange, refresh, and access tokens of a login from before a suspension;
//   - OPTIONS reads no credential; a hidden parent is not listed in parent_ids;
//   - display names refuse invisible format characters;
//   - a suspended agent gets no inbox entry and no webhook delivery;
//   - webhook signing secrets are stored encrypted, and clear ones from before are encrypted at start;
//   - setRole/suspend decide on the target row read inside their transaction (PostgreSQL only: it
//     needs a second connection holding the row).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.WEBHOOK_ALLOW_PRIVATE = "1";

const { db, readSql } = await import("../../server/db/client.ts");
const { grantAdmin } = await import("../../server/services/moderation.ts");
const { createExchangeCode, handOffLocation } = await import("../../server/services/oauth.ts");
const { hashToken, newRefreshToken, signAccessToken, REFRESH_TOKEN_TTL_MS } = await import("../../server/auth/tokens.ts");
const { startBackground, stopBackground } = await import("../../server/jobs/index.ts");
const { createAgent, startApi } = await import("../helpers/api.ts");
const { eventually, startReceiver } = await import("../helpers/webhook-receiver.ts");

type Api = Awaited<ReturnType<typeof startApi>>;
type Agent = Awaited<ReturnType<typeof createAgent>>;
let api: Api;
let admin: Agent;
beforeAll(async () => {
  api = await startApi();
  admin = await createAgent(api);
  await grantAdmin(admin.username);
  await startBackground();
});
afterAll(async () => {
  await stopBackground();
  await api.close();
});

const suspend = (agentId: string) => api.post(`/moderation/agents/${agentId}/suspend`, { reason: "testing suspension" }, { token: admin.token });
const unsuspend = (agentId: string) => api.post(`/moderation/agents/${agentId}/unsuspend`, { reason: "over" }, { token: admin.token });

describe("every credential path checks suspension and sessions_valid_after", () => {
  it("a hand-off code from before a suspension buys nothing while suspended; the hand-off gives no code", async () => {
    const agent = await createAgent(api);
    const code = await createExchangeCode(agent.id);
    const signedInAt = Math.floor(Date.now() / 1000) - 5;
    expect((await suspend(agent.id)).status).toBeLessThan(300);
    const exchanged = await api.post("/auth/oauth/exchange", { code });
    expect(exchanged.status, exchanged.text).toBe(403);
    expect(exchanged.body).toEqual({ code: "account_suspended", detail: "Account suspended" });
    // The web session from before the suspension gets no code at /auth/complete.
    expect(await handOffLocation({ agentId: agent.id, authTime: signedInAt }, "/claims")).toMatch(/^\/signin\?/);
    // …nor after the suspension is lifted: that sign-in predates the revocation.
    expect((await unsuspend(agent.id)).status).toBeLessThan(300);
    expect(await handOffLocation({ agentId: agent.id, authTime: signedInAt }, "/claims")).toMatch(/^\/signin\?/);
    const late = await createExchangeCode(agent.id);
    await db().oAuthExchangeCode.update({ where: { codeHash: hashToken(late) }, data: { createdAt: new Date(Date.now() - 60_000) } });
    expect((await api.post("/auth/oauth/exchange", { code: late })).status).toBe(401);
  });

  it("a login family minted around a suspension neither refreshes during it nor outlives it", async () => {
    const agent = await createAgent(api);
    expect((await suspend(agent.id)).status).toBeLessThan(300);
    // A family created while suspended (what the hand-off exchange used to mint), and one from before.
    const during = await db().refreshTokenFamily.create({ data: { agentId: agent.id, expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS), createdAt: new Date() } });
    const before = await db().refreshTokenFamily.create({ data: { agentId: agent.id, expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS), createdAt: new Date(Date.now() - 3_600_000) } });
    const tokens = [newRefreshToken(), newRefreshToken(), newRefreshToken()];
    await db().refreshToken.create({ data: { tokenHash: tokens[0].hash, familyId: during.id } });
    await db().refreshToken.create({ data: { tokenHash: tokens[1].hash, familyId: before.id } });
    const whileSuspended = await api.post("/auth/refresh", { refresh_token: tokens[0].token });
    expect(whileSuspended.status, whileSuspended.text).toBe(403);
    expect(whileSuspended.body).toEqual({ code: "account_suspended", detail: "Account suspended" });
    expect((await unsuspend(agent.id)).status).toBeLessThan(300);
    // The family from before the suspension stays dead after it, for refresh and for its access tokens.
    expect((await api.post("/auth/refresh", { refresh_token: tokens[1].token })).status).toBe(401);
    const oldAccess = await signAccessToken({ agentId: agent.id, familyId: before.id });
    expect((await api.get("/auth/me", { token: oldAccess })).status).toBe(401);
    // A fresh login works again.
    expect((await api.post("/auth/login", { email: agent.email, password: agent.password })).status).toBe(200);
  });
});

describe("requests that carry nothing they should not", () => {
  it("OPTIONS on /api/v1 resolves no credential: an API key's last use is not written", async () => {
    const agent = await createAgent(api);
    const created = await api.post("/auth/api-keys", { name: "preflight", scopes: ["read"] }, { token: agent.token });
    expect(created.status, created.text).toBe(201);
    const key = created.body.key as string;
    for (let i = 0; i < 3; i++) {
      const res = await api.request("OPTIONS", "/claims", { token: key });
      expect(res.status).toBe(204);
    }
    const [row] = await readSql<{ last_used_at: Date | null }>`SELECT last_used_at FROM api_keys WHERE id = ${created.body.id}::uuid`;
    expect(row.last_used_at).toBeNull();
  });

  it("a child claim's parent_ids leaves out a hidden parent", async () => {
    const author = await createAgent(api);
    const shown = await api.post("/claims", { statement: "A parent claim that stays visible." }, { token: author.token });
    const hidden = await api.post("/claims", { statement: "A parent claim that a moderator hides." }, { token: author.token });
    const child = await api.post("/claims", { statement: "A child of two parent claims.", parent_ids: [shown.body.id, hidden.body.id] }, { token: author.token });
    expect(child.status, child.text).toBe(201);
    expect((await api.post(`/moderation/claim/${hidden.body.id}/hide`, { reason: "spam" }, { token: admin.token })).status).toBeLessThan(300);
    expect((await api.get(`/claims/${child.body.id}`)).body.parent_ids).toEqual([shown.body.id]);
    const listed = await api.get(`/claims?q=${encodeURIComponent("child of two parent")}`);
    expect(listed.body.claims.find((c: { id: string }) => c.id === child.body.id)?.parent_ids).toEqual([shown.body.id]);
  });

  it("display names refuse bidi overrides, zero-width and control characters", async () => {
    const names = ["\u202Erotaredom", "Mod\u200Berator", "Moder\u2066ator\u2069", "Mod\uFEFFerator", "Mod\u200Derator", "Mod\u0007erator", "Mod\u061Cerator"];
    for (const display_name of names) {
      const username = `dn_${randomUUID().slice(0, 8)}`;
      const res = await api.post("/auth/register", { email: `${username}@example.test`, password: "Password123", username, display_name });
      expect(res.status, JSON.stringify(display_name)).toBe(400);
      expect(res.body.detail).toMatch(/^display_name: must not contain invisible/);
    }
    const username = `dn_${randomUUID().slice(0, 8)}`;
    const ok = await api.post("/auth/register", { email: `${username}@example.test`, password: "Password123", username, display_name: "Zoë 🙂 مدير" });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("a suspended agent is sent nothing", () => {
  it("no inbox entry and no webhook delivery while suspended", async () => {
    const receiver = await startReceiver();
    try {
      const author = await createAgent(api);
      const [active, suspended] = [await createAgent(api), await createAgent(api)];
      const claim = await api.post("/claims", { statement: "Followed by an active and a suspended agent." }, { token: author.token });
      for (const follower of [active, suspended]) {
        expect((await api.post(`/claims/${claim.body.id}/follow`, undefined, { token: follower.token })).status).toBe(200);
        const hook = await api.post("/webhooks", { url: receiver.url, events: ["claim.voted"] }, { token: follower.token });
        expect(hook.status, hook.text).toBe(201);
      }
      expect((await suspend(suspended.id)).status).toBeLessThan(300);
      const voter = await createAgent(api);
      expect((await api.post(`/claims/${claim.body.id}/vote`, { value: 0.7 }, { token: voter.token })).status).toBe(200);
      await eventually(async () => (await db().notification.count({ where: { agentId: active.id } })) === 1);
      await eventually(async () => (await db().webhookDelivery.count({ where: { webhook: { agentId: active.id }, eventType: "claim.voted" } })) === 1);
      expect(await db().notification.count({ where: { agentId: suspended.id } })).toBe(0);
      expect(await db().webhookDelivery.count({ where: { webhook: { agentId: suspended.id }, eventType: "claim.voted" } })).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

describe("webhook signing secrets at rest", () => {
  it("are stored encrypted; one stored in clear is encrypted by the start-up sweep and still signs", async () => {
    const { encryptClearWebhookSecrets } = await import("../../server/services/webhooks.ts");
    const receiver = await startReceiver();
    try {
      const owner = await createAgent(api);
      const hook = await api.post("/webhooks", { url: receiver.url, events: ["claim.voted"] }, { token: owner.token });
      expect(hook.status, hook.text).toBe(201);
      const secret = hook.body.secret as string;
      const stored = async () => (await db().webhook.findUniqueOrThrow({ where: { id: hook.body.id }, select: { secret: true } })).secret;
      expect(await stored()).toMatch(/^enc1:/);
      expect(await stored()).not.toContain(secret.slice(6, 20));
      // A row from before encryption at rest: the sweep encrypts it, and deliveries are signed as before.
      await db().webhook.update({ where: { id: hook.body.id }, data: { secret } });
      expect(await encryptClearWebhookSecrets()).toBeGreaterThanOrEqual(1);
      expect(await stored()).toMatch(/^enc1:/);
      receiver.secret = secret;
      expect((await api.post(`/webhooks/${hook.body.id}/test`, undefined, { token: owner.token })).status).toBeLessThan(300);
      const [ping] = await receiver.waitFor((all) => all.length >= 1);
      expect(ping.verified).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))("role changes and suspensions read their target in their transaction", () => {
  it("a moderator's suspension waits for a concurrent promotion and then refuses to suspend an admin", async () => {
    const moderator = await createAgent(api);
    expect((await api.request("PUT", `/admin/agents/${moderator.id}/role`, { token: admin.token, body: { role: "moderator" } })).status).toBe(200);
    const target = await createAgent(api);
    // Another connection promotes the target and holds its row, uncommitted.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL!.replace(/[?&]schema=[^&]*/, "") });
    await other.connect();
    const schema = new URL(process.env.DATABASE_URL!).searchParams.get("schema")!;
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE "${schema}".agents SET role = 'admin' WHERE id = $1`, [target.id]);
      const suspension = api.post(`/moderation/agents/${target.id}/suspend`, { reason: "racing a promotion" }, { token: moderator.token });
      await new Promise((r) => setTimeout(r, 500));
      await other.query("COMMIT");
      const res = await suspension;
      // Decided on the committed role (admin): a moderator may not suspend an admin.
      expect(res.status, res.text).toBe(403);
      const row = await db().agent.findUniqueOrThrow({ where: { id: target.id }, select: { suspendedAt: true, role: true } });
      expect(row).toEqual({ suspendedAt: null, role: "admin" });
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await other.end();
    }
  });
});
