import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, UnsecuredJWT } from "jose";
import { createAgent, startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { hashToken } from "../../server/auth/tokens.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const secret = () => new TextEncoder().encode(process.env.JWT_SECRET!);

describe("POST /auth/register", () => {
  it("creates an account: 201 with the agent and its email, display_name defaulting to the username", async () => {
    const username = uniqueName("Reg");
    const res = await api.post("/auth/register", { email: ` ${username}@Example.TEST `, password: "Password123", username });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      username,
      display_name: username,
      email: `${username.toLowerCase()}@example.test`,
      reputation_score: 0,
      tier: "new",
      avatar_url: null,
      bio: null,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.created_at).toMatch(/Z$/);
    expect(res.body).not.toHaveProperty("password_hash");
    expect(res.body).not.toHaveProperty("passwordHash");
  });

  it("refuses a taken email or username case-insensitively with 409", async () => {
    const username = uniqueName("Dup");
    await api.post("/auth/register", { email: `${username}@example.test`, password: "Password123", username });
    const sameEmail = await api.post("/auth/register", { email: `${username.toUpperCase()}@EXAMPLE.test`, password: "Password123", username: uniqueName() });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ code: "email_taken", detail: "Email already registered" });
    const sameName = await api.post("/auth/register", { email: `${uniqueName()}@example.test`, password: "Password123", username: username.toLowerCase() });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toEqual({ code: "username_taken", detail: "Username already taken" });
  });

  it.each([
    [{ password: "short1A" }, "password"],
    [{ password: "alllowercase1" }, "password"],
    [{ password: "ALLUPPERCASE1" }, "password"],
    [{ password: "NoDigitsHere" }, "password"],
    [{ password: "A1" + "a".repeat(71) }, "password"],
    [{ username: "ab" }, "username"],
    [{ username: "a".repeat(31) }, "username"],
    [{ username: "has space" }, "username"],
    [{ username: "dash-name" }, "username"],
    [{ email: "not-an-email" }, "email"],
    [{ email: 42 }, "email"],
    [{ display_name: "" }, "display_name"],
    [{ display_name: "x".repeat(101) }, "display_name"],
    [{ password: undefined }, "password"],
  ])("refuses %j with 400 naming %s, and creates nothing", async (override, field) => {
    const username = uniqueName("Bad");
    const body = { email: `${username}@example.test`, password: "Password123", username, ...override };
    const before = await db().agent.count();
    const res = await api.post("/auth/register", body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    expect(res.body.errors?.[0]?.field).toBe(field);
    expect(await db().agent.count()).toBe(before);
  });
});

describe("POST /auth/login", () => {
  it("returns the token pair", async () => {
    const a = await createAgent(api);
    const res = await api.post("/auth/login", { email: a.email.toUpperCase(), password: a.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(res.body.access_token.split(".")).toHaveLength(3);
    expect(res.body.refresh_token).toMatch(/^rt_/);
    const me = await api.get("/auth/me", { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: a.id, username: a.username, email: a.email });
  });

  it("answers the same 401 for an unknown email and a wrong password", async () => {
    const a = await createAgent(api);
    const wrong = await api.post("/auth/login", { email: a.email, password: "Wrong123456" });
    const unknown = await api.post("/auth/login", { email: `nobody_${a.username}@example.test`, password: "Wrong123456" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: "invalid_credentials", detail: "Invalid email or password" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("takes about as long for an unknown email as for a wrong password", async () => {
    const a = await createAgent(api);
    const time = async (email: string) => {
      const t = performance.now();
      await api.post("/auth/login", { email, password: "Wrong123456" });
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time(a.email));
      unknown.push(await time(`ghost${i}_${a.email}`));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    // Both run one bcrypt comparison: an unknown email must not come back several times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});

describe("tokens", () => {
  it("refresh rotates: the new pair works, the used refresh token is refused", async () => {
    const a = await createAgent(api);
    const r1 = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(a.refreshToken);
    expect((await api.get("/auth/me", { token: r1.body.access_token })).status).toBe(200);
    const again = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
  });

  it("reuse of a rotated refresh token revokes the whole family", async () => {
    const a = await createAgent(api);
    const r1 = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(r1.status).toBe(200);
    // The attacker replays the old token: refused, and the family dies.
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    // The legitimate holder's newer tokens die with it.
    expect((await api.post("/auth/refresh", { refresh_token: r1.body.refresh_token })).status).toBe(401);
    expect((await api.get("/auth/me", { token: r1.body.access_token })).status).toBe(401);
    // Another login is unaffected.
    const other = await api.post("/auth/login", { email: a.email, password: a.password });
    expect((await api.get("/auth/me", { token: other.body.access_token })).status).toBe(200);
  });

  it("two concurrent refreshes of one token cannot both succeed", async () => {
    const a = await createAgent(api);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api.post("/auth/refresh", { refresh_token: a.refreshToken })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(results.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    const row = await db().refreshToken.findUnique({ where: { tokenHash: hashToken(a.refreshToken) } });
    expect(row?.usedAt).not.toBeNull();
  });

  it("logout revokes the family: refresh and access tokens of that login stop working", async () => {
    const a = await createAgent(api);
    const out = await api.post("/auth/logout", { refresh_token: a.refreshToken });
    expect(out.status).toBe(204);
    expect(out.text).toBe("");
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(401);
  });

  it("a refresh token is refused as an access token, and an unknown refresh token is refused", async () => {
    const a = await createAgent(api);
    expect((await api.get("/auth/me", { token: a.refreshToken })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: "rt_doesnotexist" })).status).toBe(401);
  });

  it("refresh while suspended answers 403 Account suspended; after the suspension the revoked login stays 401", async () => {
    const a = await createAgent(api);
    const moderator = await createAgent(api);
    await db().agent.update({ where: { id: moderator.id }, data: { role: "admin" } });
    const suspended = await api.post(`/moderation/agents/${a.id}/suspend`, { reason: "testing" }, { token: moderator.token });
    expect(suspended.status, suspended.text).toBe(204);
    const refused = await api.post("/auth/refresh", { refresh_token: a.refreshToken });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "account_suspended", detail: "Account suspended" });
    // An unknown token says nothing about any account.
    expect((await api.post("/auth/refresh", { refresh_token: "rt_doesnotexist" })).status).toBe(401);
    expect((await api.post(`/moderation/agents/${a.id}/unsuspend`, {}, { token: moderator.token })).status).toBe(204);
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
  });

  it("an expired refresh family is refused", async () => {
    const a = await createAgent(api);
    await db().refreshTokenFamily.updateMany({
      where: { tokens: { some: { tokenHash: hashToken(a.refreshToken) } } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
  });

  describe("forged and broken access tokens answer 401 Invalid or expired token", async () => {
    const claimsFor = async () => {
      const a = await createAgent(api);
      const payload = JSON.parse(Buffer.from(a.token.split(".")[1], "base64url").toString());
      return { a, payload };
    };
    const expect401 = async (token: string) => {
      const res = await api.get("/auth/me", { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "invalid_token", detail: "Invalid or expired token" });
    };

    it("malformed", async () => {
      await expect401("not-a-jwt");
      await expect401("a.b.c");
    });
    it("alg: none", async () => {
      const { payload } = await claimsFor();
      await expect401(new UnsecuredJWT(payload).encode());
    });
    it("tampered payload", async () => {
      const { a } = await claimsFor();
      const [h, p, s] = a.token.split(".");
      const body = JSON.parse(Buffer.from(p, "base64url").toString());
      body.sub = "00000000-0000-4000-8000-000000000000";
      await expect401([h, Buffer.from(JSON.stringify(body)).toString("base64url"), s].join("."));
    });
    it("expired", async () => {
      const { payload } = await claimsFor();
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ ...payload, iat: now - 7200, exp: now - 3600 })
        .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
        .sign(secret());
      await expect401(token);
    });
    it("wrong issuer, audience or type", async () => {
      const { payload } = await claimsFor();
      for (const [override, typ] of [[{ iss: "someone-else" }, "at+jwt"], [{ aud: "other-api" }, "at+jwt"], [{}, "JWT"]] as const) {
        const token = await new SignJWT({ ...payload, ...override }).setProtectedHeader({ alg: "HS256", typ }).sign(secret());
        await expect401(token);
      }
    });
    it("signed with another key or algorithm", async () => {
      const { payload } = await claimsFor();
      await expect401(await new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(new TextEncoder().encode("x".repeat(48))));
      await expect401(await new SignJWT(payload).setProtectedHeader({ alg: "HS512", typ: "at+jwt" }).sign(new TextEncoder().encode(process.env.JWT_SECRET!.padEnd(64, "x"))));
    });
    it("not a Bearer scheme", async () => {
      const { a } = await claimsFor();
      const res = await api.get("/auth/me", { headers: { authorization: `Basic ${a.token}` } });
      expect(res.status).toBe(401);
    });
    it("missing", async () => {
      const res = await api.get("/auth/me");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
    });
  });
});
