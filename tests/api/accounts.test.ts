// Accounts people manage (docs/features/accounts.md) over real HTTP, with mail received by a real SMTP
// server started in this process: profile, password change, reset by mail, email verification (and
// ADMIN_EMAILS only after it), sign out everywhere, web sessions that end on the server, the export,
// and authors following their own claims.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/api/trpc/[trpc]/route.ts";
import { db } from "../../server/db/client.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { endWebSession, startWebSession } from "../../server/services/web-sessions.ts";
import { createAgent, startApi, uniqueName, type TestAgent, type TestApi } from "../helpers/api.ts";
import { afterSignUpMail, linkIn, startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";

const ADMIN_EMAIL = `owner-${process.pid}@example.test`;

let api: TestApi;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  // Read once, on the first use of the configuration (startApi).
  process.env.SMTP_URL = smtp.url;
  process.env.ADMIN_EMAILS = ADMIN_EMAIL;
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

const login = (email: string, password: string) => api.post("/auth/login", { email, password });

async function sessionCookie(agentId: string, sid?: string): Promise<string> {
  const token = await encode({ token: { sub: agentId, authTime: Math.floor(Date.now() / 1000), ...(sid ? { sid } : {}) }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${token}`;
}

/** auth.me through the web tRPC endpoint with a session cookie: the status the browser would get. */
async function webMe(cookie: string): Promise<number> {
  const res = await GET(new Request(`http://localhost/api/trpc/auth.me?input=${encodeURIComponent("{}")}`, { headers: { cookie } }));
  return res.status;
}

describe("PATCH /auth/me", () => {
  it("changes the display name and bio, and only what was sent", async () => {
    const a = await createAgent(api);
    const res = await api.patch("/auth/me", { display_name: "  Ada L.  ", bio: "Counts things." }, { token: a.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, display_name: "Ada L.", bio: "Counts things.", email: a.email, email_verified: false });
    const again = await api.patch("/auth/me", {}, { token: a.token });
    expect(again.body).toMatchObject({ display_name: "Ada L.", bio: "Counts things." });
    expect((await api.get(`/profiles/${a.id}`)).body).toMatchObject({ display_name: "Ada L.", bio: "Counts things." });
    expect((await api.patch("/auth/me", { bio: "" }, { token: a.token })).body.bio).toBeNull();
  });

  it("refuses a bio over 500 characters or an empty display name, changing nothing", async () => {
    const a = await createAgent(api);
    const long = await api.patch("/auth/me", { bio: "x".repeat(501) }, { token: a.token });
    expect(long.status).toBe(400);
    expect(long.body.detail).toBe("bio: must be at most 500 characters");
    const empty = await api.patch("/auth/me", { display_name: "   " }, { token: a.token });
    expect(empty.status).toBe(400);
    expect((await api.get("/auth/me", { token: a.token })).body.display_name).toBe(a.username);
  });

  it("needs the account's own credential: 401 without, 403 with an API key", async () => {
    const a = await createAgent(api);
    expect((await api.patch("/auth/me", { bio: "x" })).status).toBe(401);
    const key = await api.post("/auth/api-keys", { name: "k", scopes: ["read", "write"] }, { token: a.token });
    expect((await api.patch("/auth/me", { bio: "x" }, { token: key.body.key })).status).toBe(403);
    expect((await api.get("/auth/me/export", { token: key.body.key })).status).toBe(403);
  });
});

describe("POST /auth/password", () => {
  it("changes the password and ends every other login, keeping the caller's", async () => {
    const a = await createAgent(api);
    const other = await login(a.email, a.password);
    const wrong = await api.post("/auth/password", { current_password: "Nope12345", new_password: "Better123" }, { token: a.token });
    expect(wrong.status).toBe(403);
    const weak = await api.post("/auth/password", { current_password: a.password, new_password: "weakpassword" }, { token: a.token });
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toBe("new_password: must contain an uppercase letter; new_password: must contain a digit");

    const res = await api.post("/auth/password", { current_password: a.password, new_password: "Better123" }, { token: a.token });
    expect(res.status, res.text).toBe(204);
    // The caller's own login goes on; the other login's tokens are dead.
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(200);
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(200);
    expect((await api.get("/auth/me", { token: other.body.access_token })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: other.body.refresh_token })).status).toBe(401);
    expect((await login(a.email, a.password)).status).toBe(401);
    expect((await login(a.email, "Better123")).status).toBe(200);
  });

  it("from the web session: that session stays, every other session ends", async () => {
    const a = await createAgent(api);
    const mine = await sessionCookie(a.id, await startWebSession(a.id));
    const elsewhere = await sessionCookie(a.id, await startWebSession(a.id));
    const { POST } = await import("../../app/api/trpc/[trpc]/route.ts");
    const res = await POST(
      new Request("http://localhost/api/trpc/account.changePassword", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: mine },
        body: JSON.stringify({ current_password: a.password, new_password: "Better123" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(await webMe(mine)).toBe(200);
    expect(await webMe(elsewhere)).toBe(401);
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(401);
  });
});

describe("web sessions end on the server", () => {
  it("a session's cookie stops working once it is signed out, copies included", async () => {
    const a = await createAgent(api);
    const sid = await startWebSession(a.id);
    const cookie = await sessionCookie(a.id, sid);
    const copy = `${cookie}`;
    expect(await webMe(cookie)).toBe(200);
    await endWebSession(sid);
    expect(await webMe(copy)).toBe(401);
    // Only its hash was ever stored.
    expect(await db().session.count({ where: { sessionToken: sid } })).toBe(0);
  });

  it("sign out everywhere ends every session and login, the caller's included", async () => {
    const a = await createAgent(api);
    const cookie = await sessionCookie(a.id, await startWebSession(a.id));
    const res = await api.post("/auth/logout-everywhere", {}, { token: a.token });
    expect(res.status).toBe(204);
    expect(await webMe(cookie)).toBe(401);
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    // Signing in again works at once.
    const again = await login(a.email, a.password);
    expect((await api.get("/auth/me", { token: again.body.access_token })).status).toBe(200);
  });
});

describe("password reset by mail", () => {
  it("mails a single-use link; the new password works and every login ends", async () => {
    const a = await createAgent(api);
    const since = Date.now();
    const res = await api.post("/auth/password-reset", { email: a.email.toUpperCase() });
    expect(res.status).toBe(202);
    const mail = await smtp.waitForMail(a.email, { subject: /Reset your password/, since });
    expect(linkIn(mail, "/reset-password")).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=pr_/);
    const token = tokenIn(mail, "/reset-password");
    // Stored only as a hash.
    expect(await db().accountToken.count({ where: { tokenHash: token } })).toBe(0);
    expect(await db().accountToken.count({ where: { tokenHash: hashToken(token) } })).toBe(1);

    const weak = await api.post("/auth/password-reset/confirm", { token, new_password: "short" });
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toMatch(/^new_password: must be at least 8 characters/);
    const done = await api.post("/auth/password-reset/confirm", { token, new_password: "Reset1234" }, { token: "stale-token" });
    expect(done.status, done.text).toBe(204);
    expect((await api.post("/auth/password-reset/confirm", { token, new_password: "Again1234" })).body.detail).toBe(
      "token: the link is invalid, used or expired",
    );
    expect((await api.get("/auth/me", { token: a.token })).status).toBe(401);
    expect((await api.post("/auth/refresh", { refresh_token: a.refreshToken })).status).toBe(401);
    expect((await login(a.email, a.password)).status).toBe(401);
    const fresh = await login(a.email, "Reset1234");
    expect(fresh.status).toBe(200);
    // Following the mailed link proved the address.
    expect((await api.get("/auth/me", { token: fresh.body.access_token })).body.email_verified).toBe(true);
  });

  it("answers 202 for an unknown address and sends nothing; refuses what is not an email", async () => {
    const nobody = `${uniqueName("nobody")}@example.test`;
    expect((await api.post("/auth/password-reset", { email: nobody })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.some((m) => m.to.includes(nobody))).toBe(false);
    const bad = await api.post("/auth/password-reset", { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("email: must be a valid email address");
  });

  it("refuses an expired link, and an older link once a newer one was sent", async () => {
    const a = await createAgent(api);
    const since = Date.now();
    await api.post("/auth/password-reset", { email: a.email });
    const firstMail = await smtp.waitForMail(a.email, { since, subject: /Reset/ });
    const first = tokenIn(firstMail, "/reset-password");
    await api.post("/auth/password-reset", { email: a.email });
    const second = tokenIn(await smtp.waitForMail(a.email, { after: firstMail, subject: /Reset/ }), "/reset-password");
    expect(second).not.toBe(first);
    expect((await api.post("/auth/password-reset/confirm", { token: first, new_password: "Reset1234" })).status).toBe(400);
    await db().accountToken.updateMany({ where: { tokenHash: hashToken(second) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await api.post("/auth/password-reset/confirm", { token: second, new_password: "Reset1234" })).status).toBe(400);
    expect((await login(a.email, a.password)).status).toBe(200);
    expect((await api.post("/auth/password-reset/confirm", { token: "pr_guess", new_password: "Reset1234" })).status).toBe(400);
  });
});

describe("email verification", () => {
  async function verify(a: TestAgent) {
    const since = await afterSignUpMail(smtp, a.email);
    const res = await api.post("/auth/email/verify", undefined, { token: a.token });
    expect(res.status, res.text).toBe(202);
    return tokenIn(await smtp.waitForMail(a.email, { subject: /Verify your email/, since }), "/verify-email");
  }

  it("mails a single-use link that marks the address verified", async () => {
    const a = await createAgent(api);
    expect((await api.get("/auth/me", { token: a.token })).body.email_verified).toBe(false);
    const token = await verify(a);
    expect(token).toMatch(/^ev_[A-Za-z0-9_-]{43}$/);
    expect((await api.post("/auth/email/verify/confirm", { token })).status).toBe(204);
    expect((await api.get("/auth/me", { token: a.token })).body.email_verified).toBe(true);
    expect((await api.post("/auth/email/verify/confirm", { token })).status).toBe(400);
    expect((await api.post("/auth/email/verify")).status).toBe(401);
  });

  it("ADMIN_EMAILS makes an admin only once the address is verified", async () => {
    const reg = await api.post("/auth/register", { email: ADMIN_EMAIL, password: "Password123", username: uniqueName("owner") });
    expect(reg.status).toBe(201);
    expect(reg.body.role).toBe("member");
    const session = await login(ADMIN_EMAIL, "Password123");
    const a: TestAgent = { ...reg.body, email: ADMIN_EMAIL, password: "Password123", token: session.body.access_token, refreshToken: session.body.refresh_token };
    expect((await api.get("/auth/me", { token: a.token })).body.role).toBe("member");
    expect((await api.get("/moderation/audit", { token: a.token })).status).toBe(403);
    await api.post("/auth/email/verify/confirm", { token: await verify(a) });
    expect((await api.get("/auth/me", { token: a.token })).body.role).toBe("admin");
  });
});

describe("GET /auth/me/export", () => {
  it("holds what the account wrote and did, and no secret", async () => {
    const a = await createAgent(api);
    const b = await createAgent(api);
    const claim = await api.post("/claims", { statement: "Exports contain what the account wrote.", tags: ["export"] }, { token: a.token });
    const other = await api.post("/claims", { statement: "Someone else's claim to vote on.", tags: [] }, { token: b.token });
    await api.post(`/claims/${other.body.id}/vote`, { value: 0.8 }, { token: a.token });
    await api.post(`/claims/${other.body.id}/bookmark`, undefined, { token: a.token });
    const evidence = await api.post(`/claims/${other.body.id}/evidence`, { position: "supports", content_type: "text", content: "B's evidence" }, { token: b.token });
    await api.post(`/evidence/${evidence.body.id}/vote`, { direction: "up" }, { token: a.token });
    await api.post(`/claims/${other.body.id}/comments`, { content: "A comment of A" }, { token: a.token });
    const key = await api.post("/auth/api-keys", { name: "exported key", scopes: ["read"] }, { token: a.token });

    const res = await api.get("/auth/me/export", { token: a.token });
    expect(res.status).toBe(200);
    const data = res.body;
    expect(data.account).toMatchObject({ id: a.id, email: a.email, username: a.username, has_password: true, oauth_providers: [] });
    expect(data.claims.map((c: { id: string }) => c.id)).toEqual([claim.body.id]);
    expect(data.votes).toEqual([expect.objectContaining({ claim_id: other.body.id, value: 0.8 })]);
    expect(data.evidence_votes).toEqual([expect.objectContaining({ evidence_id: evidence.body.id, direction: "up" })]);
    expect(data.bookmarks).toEqual([expect.objectContaining({ claim_id: other.body.id })]);
    expect(data.comments).toEqual([expect.objectContaining({ content: "A comment of A" })]);
    // Authors follow their own claims.
    expect(data.follows.map((f: { claim_id: string }) => f.claim_id)).toContain(claim.body.id);
    expect(data.api_keys).toEqual([expect.objectContaining({ name: "exported key", prefix: key.body.prefix })]);
    expect(res.text).not.toContain(key.body.key);
    expect(res.text).not.toMatch(/secret|password_hash|\$2[aby]\$/);
    expect(res.text).not.toContain(b.email);
  });
});

describe("authors follow their own claims", () => {
  it("from the moment they post, and can unfollow", async () => {
    const a = await createAgent(api);
    const claim = await api.post("/claims", { statement: "Authors hear what happens to their claims." }, { token: a.token });
    expect(claim.body.is_following).toBe(true);
    const following = await api.get("/claims/following", { token: a.token });
    expect(following.body.claims.map((c: { id: string }) => c.id)).toEqual([claim.body.id]);
    expect((await api.del(`/claims/${claim.body.id}/follow`, { token: a.token })).status).toBe(204);
    expect((await api.get(`/claims/${claim.body.id}`, { token: a.token })).body.is_following).toBe(false);
  });
});
