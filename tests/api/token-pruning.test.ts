// Refresh-token families that can no longer do anything are pruned when someone logs in, so they do
// not pile up; what reuse detection needs (used tokens of a live family) is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { hashToken, ACCESS_TOKEN_TTL_SECONDS } from "../../server/auth/tokens.ts";
import { FAMILY_PRUNE_BATCH } from "../../server/services/auth.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const HOUR_MS = 3600_000;
const familyOf = async (refreshToken: string) =>
  (await db().refreshToken.findUniqueOrThrow({ where: { tokenHash: hashToken(refreshToken) }, select: { familyId: true } })).familyId;
const familyExists = async (id: string) => (await db().refreshTokenFamily.count({ where: { id } })) === 1;
const login = async (a: TestAgent) => {
  const res = await api.post("/auth/login", { email: a.email, password: a.password });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
};
const ago = (ms: number) => new Date(Date.now() - ms);

describe("refresh-token family pruning", () => {
  it("a login deletes families expired or revoked longer ago than an access token lives, with their tokens", async () => {
    const a = await createAgent(api);
    const expired = await familyOf(a.refreshToken);
    const rotated = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(rotated.status).toBe(200);
    await db().refreshTokenFamily.update({ where: { id: expired }, data: { expiresAt: ago(ACCESS_TOKEN_TTL_SECONDS * 1000 + HOUR_MS) } });

    const revoked = await familyOf((await login(a)).refresh_token);
    await db().refreshTokenFamily.update({ where: { id: revoked }, data: { revokedAt: ago(2 * ACCESS_TOKEN_TTL_SECONDS * 1000) } });

    await login(a);
    expect(await familyExists(expired)).toBe(false);
    expect(await familyExists(revoked)).toBe(false);
    expect(await db().refreshToken.count({ where: { familyId: { in: [expired, revoked] } } })).toBe(0);
    // Presenting a pruned token is refused as before.
    expect((await api.post("/auth/refresh", { refresh_token: rotated.body.refresh_token })).status).toBe(401);
  });

  it("keeps live families with their used tokens (reuse detection), and ones that died within the last hour", async () => {
    const a = await createAgent(api);
    const live = await familyOf(a.refreshToken);
    const rotated = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(rotated.status).toBe(200);

    const justRevoked = await login(a);
    expect((await api.post("/auth/logout", { refresh_token: justRevoked.refresh_token })).status).toBe(204);
    const justExpired = await familyOf((await login(a)).refresh_token);
    await db().refreshTokenFamily.update({ where: { id: justExpired }, data: { expiresAt: ago(60_000) } });

    await login(a);
    expect(await familyExists(live)).toBe(true);
    expect(await familyExists(await familyOf(justRevoked.refresh_token))).toBe(true);
    expect(await familyExists(justExpired)).toBe(true);
    // Reuse of the rotated-away token is still detected and still kills the family.
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: rotated.body.refresh_token })).status).toBe(401);
    expect((await db().refreshTokenFamily.findUniqueOrThrow({ where: { id: live } })).revokedAt).not.toBeNull();
  });

  it("each login deletes at most one batch, so a large backlog shrinks without one long statement", async () => {
    const a = await createAgent(api);
    const backlog = FAMILY_PRUNE_BATCH + 5;
    await db().refreshTokenFamily.createMany({
      data: Array.from({ length: backlog }, () => ({ agentId: a.id, expiresAt: ago(2 * 24 * HOUR_MS) })),
    });
    const dead = () => db().refreshTokenFamily.count({ where: { agentId: a.id, expiresAt: { lt: ago(HOUR_MS) } } });
    expect(await dead()).toBe(backlog);
    await login(a);
    expect(await dead()).toBe(5);
    await login(a);
    expect(await dead()).toBe(0);
  });
});
