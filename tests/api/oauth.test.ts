// OAuth sign-in (docs/api.md#sign-in): the redirect to each provider (made by NextAuth, checked against a real
// local OAuth server), refused open redirects, the one-time code exchange, account creation and
// linking rules, and reading the web session. The whole browser flow is in tests/e2e/oauth.spec.ts.
import { createHash } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockProviders, MOCK_CLIENTS, type MockProviders } from "../e2e/oauth-server.ts";
import { createAgent, startApi, uniqueName, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { identityFromNextAuthRequest, readNextAuthSession } from "../../server/nextauth/session.ts";
import { createExchangeCode, EXCHANGE_CODE_TTL_MS, handOffLocation } from "../../server/services/oauth.ts";
import { signInWithProvider, type ProviderIdentity } from "../../server/services/oauth-accounts.ts";
import { USERNAME_PATTERN } from "../../server/domain/username.ts";

let mock: MockProviders;
let api: TestApi;

beforeAll(async () => {
  // The configuration is read on first use, so the providers must be in the environment before it.
  mock = await startMockProviders();
  Object.assign(process.env, mock.env);
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
  await mock?.close();
});

/** A GET that does not follow redirects, as a browser's first hop. */
async function startSignIn(path: string) {
  const res = await fetch(`${api.url}/api/v1${path}`, { redirect: "manual" });
  const text = await res.text();
  return { status: res.status, headers: res.headers, cookies: res.headers.getSetCookie(), body: text ? JSON.parse(text) : null };
}

function cookieValue(cookies: string[], name: string): string | undefined {
  const found = cookies.find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1).split(";")[0]) : undefined;
}

const CALLBACK_BASE = `${process.env.NEXTAUTH_URL}/api/auth/callback`;

describe("GET /auth/oauth/{provider}", () => {
  it.each([
    ["github", "github", "read:user user:email"],
    ["google", "google", "openid email profile"],
    ["twitter", "twitter", "users.read tweet.read offline.access"],
    ["x", "twitter", "users.read tweet.read offline.access"],
  ])("%s: 302 to the provider's authorization page with state and a PKCE challenge, through NextAuth", async (param, provider, scope) => {
    const res = await startSignIn(`/auth/oauth/${param}?redirect_to=/claims?sort=new`);
    expect(res.status).toBe(302);
    expect(res.body).toBeNull();
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(mock.url);
    expect(location.pathname).toBe("/authorize");
    const q = location.searchParams;
    expect(q.get("client_id")).toBe(MOCK_CLIENTS[provider as keyof typeof MOCK_CLIENTS].clientId);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("redirect_uri")).toBe(`${CALLBACK_BASE}/${provider}`);
    expect(q.get("scope")).toBe(scope);
    expect(q.get("state")).toMatch(/^[\w.-]{20,}$/);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);

    // NextAuth's cookies reach the browser, so its callback can check state and send the verifier.
    const verifier = cookieValue(res.cookies, "next-auth.pkce.code_verifier");
    expect(verifier).toBeTruthy();
    expect(cookieValue(res.cookies, "next-auth.state")).toBeTruthy();
    for (const c of res.cookies) expect(c).toMatch(/HttpOnly/i);
    for (const c of res.cookies) expect(c).toMatch(/SameSite=Lax/i);
    // After the provider, NextAuth goes to the hand-off, which goes on to redirect_to.
    const callbackUrl = cookieValue(res.cookies, "next-auth.callback-url")!;
    const handOff = new URL(callbackUrl);
    expect(handOff.pathname).toBe("/auth/complete");
    expect(handOff.searchParams.get("redirect_to")).toBe("/claims?sort=new");
    // The rate-limit headers are on redirects too.
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
  });

  it("the provider name is case-insensitive and redirect_to defaults to /", async () => {
    const res = await startSignIn("/auth/oauth/GitHub");
    expect(res.status).toBe(302);
    const handOff = new URL(cookieValue(res.cookies, "next-auth.callback-url")!);
    expect(handOff.searchParams.get("redirect_to")).toBe("/");
  });

  it("an unknown provider answers 404", async () => {
    for (const name of ["facebook", "githubx", "constructor", "__proto__"]) {
      const res = await startSignIn(`/auth/oauth/${name}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Unknown provider" });
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it.each([
    "https://evil.example",
    "http:evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/%0a/evil.example".replace("%0a", "\n"),
    "javascript:alert(1)",
    "data:text/html,hi",
    "evil.example",
    "",
    `/${"a".repeat(2100)}`,
  ])("refuses redirect_to %j with 400 and sets no cookie", async (redirectTo) => {
    const res = await startSignIn(`/auth/oauth/github?redirect_to=${encodeURIComponent(redirectTo)}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^redirect_to: /);
    expect(res.headers.get("location")).toBeNull();
    expect(res.cookies).toEqual([]);
  });

  it("another method on the route answers 405", async () => {
    const res = await api.post("/auth/oauth/github", {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("is described in the OpenAPI document as a redirect", async () => {
    const doc = (await api.get("/openapi.json")).body;
    const op = doc.paths["/auth/oauth/{provider}"].get;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["302", "400", "404", "501"]));
    expect(op.responses["200"]).toBeUndefined();
    expect(op.responses["302"].headers.Location).toBeDefined();
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["provider", "redirect_to"]));
    expect(doc.paths["/auth/oauth/exchange"].post.responses["200"]).toBeDefined();
  });
});

describe("POST /auth/oauth/exchange", () => {
  it("turns a code into a working token pair, once", async () => {
    const agent = await createAgent(api);
    const code = await createExchangeCode(agent.id);
    const res = await api.post("/auth/oauth/exchange", { code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    const me = await api.get("/auth/me", { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.id);
    const refreshed = await api.post("/auth/refresh", { refresh_token: res.body.refresh_token });
    expect(refreshed.status).toBe(200);

    const again = await api.post("/auth/oauth/exchange", { code });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ code: "invalid_token", detail: "Invalid or expired code" });
  });

  it("stores only the code's hash, valid 60 seconds", async () => {
    const agent = await createAgent(api);
    const before = Date.now();
    const code = await createExchangeCode(agent.id);
    const after = Date.now();
    const rows = await db().oAuthExchangeCode.findMany({ where: { agentId: agent.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].codeHash).not.toContain(code);
    expect(rows[0].codeHash).toBe(createHash("sha256").update(code).digest("hex"));
    // Issued somewhere between `before` and `after` (the clock may tick in between), valid for the TTL.
    const expires = rows[0].expiresAt.getTime();
    expect(expires).toBeGreaterThanOrEqual(before + EXCHANGE_CODE_TTL_MS);
    expect(expires).toBeLessThanOrEqual(after + EXCHANGE_CODE_TTL_MS);
  });

  it("refuses an expired code with 401 and issues nothing", async () => {
    const agent = await createAgent(api);
    const code = await createExchangeCode(agent.id, new Date(Date.now() - EXCHANGE_CODE_TTL_MS - 1000));
    const families = await db().refreshTokenFamily.count({ where: { agentId: agent.id } });
    const res = await api.post("/auth/oauth/exchange", { code });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "invalid_token", detail: "Invalid or expired code" });
    expect(await db().refreshTokenFamily.count({ where: { agentId: agent.id } })).toBe(families);
  });

  it("refuses a wrong code with 401 and a missing or malformed one with 400", async () => {
    const wrong = await api.post("/auth/oauth/exchange", { code: "oc_not-a-real-code" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: "invalid_token", detail: "Invalid or expired code" });
    for (const [body, field] of [[{}, "code"], [{ code: "" }, "code"], [{ code: 42 }, "code"], [{ code: "x".repeat(300) }, "code"]] as const) {
      const res = await api.post("/auth/oauth/exchange", body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(new RegExp(`^${field}: `));
    }
  });

  it("two simultaneous exchanges of one code: exactly one wins", async () => {
    const agent = await createAgent(api);
    const code = await createExchangeCode(agent.id);
    const results = await Promise.all([1, 2, 3].map(() => api.post("/auth/oauth/exchange", { code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });
});

describe("the hand-off after a web sign-in", () => {
  it("gives a fresh session a code on redirect_to, keeping its query and fragment", async () => {
    const agent = await createAgent(api);
    const now = Math.floor(Date.now() / 1000);
    const location = await handOffLocation({ agentId: agent.id, authTime: now - 5 }, "/claims?sort=new#top", now);
    const url = new URL(location, "http://x.invalid");
    expect(url.pathname).toBe("/claims");
    expect(url.searchParams.get("sort")).toBe("new");
    expect(url.hash).toBe("#top");
    const exchanged = await api.post("/auth/oauth/exchange", { code: url.searchParams.get("code") });
    expect(exchanged.status).toBe(200);
    expect(location).not.toContain(exchanged.body.access_token);
  });

  it("gives no code to an old session or to no session: back to the sign-in page", async () => {
    const agent = await createAgent(api);
    const now = Math.floor(Date.now() / 1000);
    for (const session of [{ agentId: agent.id, authTime: now - 3600 }, { agentId: agent.id, authTime: null }, null]) {
      const location = await handOffLocation(session, "/claims", now);
      expect(location).toBe("/signin?redirect_to=%2Fclaims");
    }
    expect(await db().oAuthExchangeCode.count({ where: { agentId: agent.id } })).toBe(0);
  });
});

function identity(overrides: Partial<ProviderIdentity> = {}): ProviderIdentity {
  return {
    provider: "github",
    providerAccountId: uniqueName("acct"),
    verifiedEmail: null,
    name: "Ada Lovelace",
    image: "https://avatars.example.test/ada.png",
    usernameHints: [uniqueName("ada")],
    ...overrides,
  };
}

async function agentOf(outcome: Awaited<ReturnType<typeof signInWithProvider>>) {
  if (outcome.kind !== "agent") throw new Error(`expected an agent, got ${outcome.kind}`);
  return db().agent.findUniqueOrThrow({ where: { id: outcome.agentId }, include: { accounts: true } });
}

describe("creating and linking accounts", () => {
  it("creates an agent with the verified email and a username from the login; the same account signs in again", async () => {
    const email = `${uniqueName("gh")}@example.test`.toLowerCase();
    const login = uniqueName("octo");
    const first = identity({ verifiedEmail: email.toUpperCase(), usernameHints: [login] });
    const created = await signInWithProvider(first);
    expect(created).toMatchObject({ kind: "agent", created: true });
    const agent = await agentOf(created);
    expect(agent).toMatchObject({ email, username: login, displayName: "Ada Lovelace", passwordHash: null });
    expect(agent.emailVerified).toBeInstanceOf(Date);
    expect(agent.accounts).toHaveLength(1);
    expect(agent.accounts[0]).toMatchObject({ provider: "github", providerAccountId: first.providerAccountId, access_token: null });

    const again = await signInWithProvider(first);
    expect(again).toMatchObject({ kind: "agent", agentId: agent.id, created: false, linked: false });
    expect(await db().account.count({ where: { agentId: agent.id } })).toBe(1);
  });

  it("links a second provider with the same verified email instead of creating an agent", async () => {
    const email = `${uniqueName("link")}@example.test`.toLowerCase();
    const github = await agentOf(await signInWithProvider(identity({ verifiedEmail: email })));
    const agentsBefore = await db().agent.count();
    const google = await signInWithProvider(identity({ provider: "google", verifiedEmail: email, usernameHints: ["someone_else"] }));
    expect(google).toMatchObject({ kind: "agent", agentId: github.id, linked: true, created: false });
    expect(await db().agent.count()).toBe(agentsBefore);
    const linked = await agentOf(google);
    expect(linked.accounts.map((a) => a.provider).sort()).toEqual(["github", "google"]);
  });

  it("never links by an unverified email: that account gets its own agent, without an email", async () => {
    const email = `${uniqueName("unv")}@example.test`.toLowerCase();
    const owner = await agentOf(await signInWithProvider(identity({ verifiedEmail: email })));
    // The provider said the address is not verified, so the sign-in layer passes no email at all.
    const other = await agentOf(await signInWithProvider(identity({ provider: "google", verifiedEmail: null })));
    expect(other.id).not.toBe(owner.id);
    expect(other.email).toBeNull();
    expect(other.emailVerified).toBeNull();
  });

  it("refuses to link into a password account (its email was never verified) and changes nothing", async () => {
    const registered = await createAgent(api);
    const agentsBefore = await db().agent.count();
    const accountsBefore = await db().account.count();
    const outcome = await signInWithProvider(identity({ provider: "google", verifiedEmail: registered.email }));
    expect(outcome).toEqual({ kind: "email-needs-password-sign-in" });
    expect(await db().agent.count()).toBe(agentsBefore);
    expect(await db().account.count()).toBe(accountsBefore);
    expect((await api.post("/auth/login", { email: registered.email, password: registered.password })).status).toBe(200);
  });

  it("a Twitter account has no email; its username comes from the handle", async () => {
    const handle = uniqueName("tw");
    const agent = await agentOf(await signInWithProvider(identity({ provider: "twitter", verifiedEmail: null, usernameHints: [handle, "Tweety"] })));
    expect(agent.email).toBeNull();
    expect(agent.username).toBe(handle);
  });

  it("makes usernames unique case-insensitively and valid whatever the provider sends", async () => {
    const taken = uniqueName("Taken");
    await createAgent(api, { username: taken });
    const clash = await agentOf(await signInWithProvider(identity({ usernameHints: [taken.toLowerCase()] })));
    expect(clash.username.toLowerCase()).not.toBe(taken.toLowerCase());
    expect(clash.username.toLowerCase().startsWith(taken.toLowerCase().slice(0, 20))).toBe(true);
    expect(clash.username).toMatch(USERNAME_PATTERN);

    for (const hints of [["José García"], ["a"], ["日本語"], [null, ""], ["x".repeat(80)], ["jane.doe+news"]]) {
      const agent = await agentOf(await signInWithProvider(identity({ usernameHints: hints })));
      expect(agent.username).toMatch(USERNAME_PATTERN);
    }
  });

  it("keeps only http(s) avatars and a display name of at most 100 characters", async () => {
    const agent = await agentOf(await signInWithProvider(identity({ image: "javascript:alert(1)", name: "n".repeat(150) })));
    expect(agent.avatarUrl).toBeNull();
    expect(agent.displayName).toHaveLength(100);
  });
});

describe("the web session (identityFromNextAuthRequest)", () => {
  async function sessionCookie(token: Record<string, unknown>, secret = process.env.NEXTAUTH_SECRET!) {
    return `next-auth.session-token=${await encode({ token, secret })}`;
  }

  it("resolves the agent from NextAuth's session cookie", async () => {
    const agent = await createAgent(api);
    const cookie = await sessionCookie({ sub: agent.id, authTime: 1 });
    const identity = await identityFromNextAuthRequest(new Headers({ cookie: `theme=dark; ${cookie}` }));
    expect(identity).toEqual({ kind: "agent", agent: { id: agent.id, username: agent.username, tier: "new", reputation: 0, role: "member" } });
    expect(await readNextAuthSession({ cookie })).toEqual({ agentId: agent.id, authTime: 1 });
  });

  it("is anonymous without a cookie, with a forged one, or for an agent that is gone", async () => {
    const forged = await sessionCookie({ sub: (await createAgent(api)).id }, "another-secret-another-secret-another-secret");
    expect(await identityFromNextAuthRequest({})).toEqual({ kind: "anonymous" });
    expect(await identityFromNextAuthRequest({ cookie: forged })).toEqual({ kind: "anonymous" });
    expect(await identityFromNextAuthRequest({ cookie: "next-auth.session-token=garbage" })).toEqual({ kind: "anonymous" });
    const gone = await sessionCookie({ sub: "00000000-0000-4000-8000-000000000000" });
    expect(await identityFromNextAuthRequest({ cookie: gone })).toEqual({ kind: "anonymous" });
  });

  it("does not take the session token from an Authorization header", async () => {
    const agent = await createAgent(api);
    const token = (await sessionCookie({ sub: agent.id })).split("=")[1];
    expect(await identityFromNextAuthRequest({ authorization: `Bearer ${token}` })).toEqual({ kind: "anonymous" });
  });
});
