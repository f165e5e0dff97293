// API keys (docs/api.md#api-keys): created once and shown once, stored as a hash, scoped, expiring, revocable,
// sent as `Authorization: Bearer clm_…` wherever an access token works — REST and the web's tRPC
// endpoint — and counted against the owner's rate limit.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as webPost, GET as webGet } from "../../app/api/trpc/[trpc]/route.ts";
import { db } from "../../server/db/client.ts";
import { hashApiKey } from "../../server/auth/api-keys.ts";
import { createAgent, startApi, type ApiResponse, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let alice: TestAgent;
let bob: TestAgent;
/** Every key this file was shown: none may ever appear in a log line or a later response. */
const shownKeys: string[] = [];
const logged: string[] = [];

beforeAll(async () => {
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      original(...args);
    });
  }
  api = await startApi();
  alice = await createAgent(api);
  bob = await createAgent(api);
});
afterAll(async () => {
  await api.close();
  vi.restoreAllMocks();
});
afterEach(() => {
  vi.useRealTimers();
});

async function createKey(owner: TestAgent, body: Record<string, unknown>): Promise<{ id: string; key: string; prefix: string } & Record<string, unknown>> {
  const res = await api.post("/auth/api-keys", body, { token: owner.token });
  expect(res.status, res.text).toBe(201);
  shownKeys.push(res.body.key);
  return res.body;
}

const keyFor = async (owner: TestAgent, scopes: string[], extra: Record<string, unknown> = {}) => (await createKey(owner, { name: `key ${scopes.join("+")}`, scopes, ...extra })).key;

describe("creating, listing and revoking keys", () => {
  it("creates a key shown once, then lists it by prefix without the key", async () => {
    const created = await createKey(alice, { name: "  crawler  ", scopes: ["write", "read", "read"], expires_in_days: 30 });
    expect(created.key).toMatch(/^clm_[0-9A-Za-z]{40}$/);
    expect(created).toMatchObject({ name: "crawler", scopes: ["read", "write"], prefix: created.key.slice(0, 12), last_used_at: null });
    const expiresIn = Date.parse(created.expires_at as string) - Date.parse(created.created_at as string);
    expect(expiresIn).toBe(30 * 24 * 3600 * 1000);

    const list = await api.get("/auth/api-keys", { token: alice.token });
    expect(list.status).toBe(200);
    const listed = list.body.api_keys.find((k: { id: string }) => k.id === created.id);
    const { key: _key, ...withoutKey } = created;
    expect(listed).toEqual(withoutKey);
    expect(list.text).not.toContain(created.key);
    expect(list.text).not.toContain(hashApiKey(created.key));
    // The database keeps the prefix and a hash, never the key.
    const [row] = await db().$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM api_keys WHERE id = '${created.id}'`);
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.secret_hash).toBe(hashApiKey(created.key));
  });

  it("a key works where an access token does, as its owner", async () => {
    const key = await keyFor(alice, ["read"]);
    const me = await api.get("/auth/me", { token: key });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(alice.id);
    expect(me.text).not.toContain(key);
  });

  it("validates the request: name, scopes, expiry", async () => {
    const cases: [unknown, RegExp][] = [
      [{ scopes: ["read"] }, /^name: /],
      [{ name: "", scopes: ["read"] }, /^name: must be 1-100 characters/],
      [{ name: "x".repeat(101), scopes: ["read"] }, /^name: must be 1-100 characters/],
      [{ name: "k", scopes: [] }, /^scopes: at least one scope/],
      [{ name: "k", scopes: ["admin"] }, /scopes.*read, vote, write, webhooks/],
      [{ name: "k", scopes: ["read"], expires_in_days: 0 }, /^expires_in_days: must be an integer between 1 and 365/],
      [{ name: "k", scopes: ["read"], expires_in_days: 366 }, /^expires_in_days: /],
      [{ name: "k", scopes: ["read"], expires_in_days: 1.5 }, /^expires_in_days: /],
    ];
    for (const [body, detail] of cases) {
      const res = await api.post("/auth/api-keys", body, { token: alice.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toMatch(detail);
    }
  });

  it("a key cannot create, list or revoke keys, whatever its scopes", async () => {
    const key = await keyFor(alice, ["read", "vote", "write", "webhooks"]);
    const own = await createKey(alice, { name: "target", scopes: ["read"] });
    const attempts = [
      await api.post("/auth/api-keys", { name: "child", scopes: ["read"] }, { token: key }),
      await api.get("/auth/api-keys", { token: key }),
      await api.del(`/auth/api-keys/${own.id}`, { token: key }),
    ];
    for (const res of attempts) expect([res.status, res.body.detail]).toEqual([403, "Insufficient permissions"]);
    expect((await api.get("/auth/me", { token: own.key })).status).toBe(200);
  });

  it("another agent's key id, an unknown one and a malformed one are 404; a revoked one too", async () => {
    const bobs = await createKey(bob, { name: "bob's", scopes: ["read"] });
    for (const id of [bobs.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const res = await api.del(`/auth/api-keys/${id}`, { token: alice.token });
      expect([res.status, res.body.detail]).toEqual([404, "API key not found"]);
    }
    expect((await api.get("/auth/me", { token: bobs.key })).body.id).toBe(bob.id);
    expect((await api.del(`/auth/api-keys/${bobs.id}`, { token: bob.token })).status).toBe(204);
    expect((await api.del(`/auth/api-keys/${bobs.id}`, { token: bob.token })).status).toBe(404);
  });

  it("a revoked key answers 401 from its next call on, and leaves the list", async () => {
    const created = await createKey(alice, { name: "to revoke", scopes: ["read"] });
    expect((await api.get("/claims/bookmarks", { token: created.key })).status).toBe(200);
    const revoked = await api.del(`/auth/api-keys/${created.id}`, { token: alice.token });
    expect(revoked.status).toBe(204);
    const after = await api.get("/claims/bookmarks", { token: created.key });
    expect([after.status, after.body.detail]).toEqual([401, "Invalid or expired token"]);
    // Public GETs too: a credential that was sent must be valid.
    expect((await api.get("/claims", { token: created.key })).status).toBe(401);
    const list = await api.get("/auth/api-keys", { token: alice.token });
    expect(list.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(created.id);
  });

  it("an expired key answers 401 (the clock moved past its expiry)", async () => {
    const created = await createKey(alice, { name: "short-lived", scopes: ["read"], expires_in_days: 1 });
    expect((await api.get("/auth/me", { token: created.key })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(created.expires_at as string) - 1000);
    expect((await api.get("/auth/me", { token: created.key })).status).toBe(200);
    vi.setSystemTime(Date.parse(created.expires_at as string) + 1000);
    const res = await api.get("/auth/me", { token: created.key });
    expect([res.status, res.body.detail]).toEqual([401, "Invalid or expired token"]);
  });

  it("keeps last_used_at to the minute: written on first use, not again within the minute", async () => {
    const created = await createKey(alice, { name: "usage", scopes: ["read"] });
    const lastUsed = async () => ((await api.get("/auth/api-keys", { token: alice.token })).body.api_keys as { id: string; last_used_at: string | null }[]).find((k) => k.id === created.id)!.last_used_at;
    expect(await lastUsed()).toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    vi.setSystemTime(start);
    await api.get("/auth/me", { token: created.key });
    const first = await lastUsed();
    expect(first).toBe(new Date(start).toISOString());
    vi.setSystemTime(start + 30_000);
    await api.get("/auth/me", { token: created.key });
    expect(await lastUsed()).toBe(first);
    vi.setSystemTime(start + 61_000);
    await api.get("/auth/me", { token: created.key });
    expect(await lastUsed()).toBe(new Date(start + 61_000).toISOString());
  });

  it("refuses the 21st live key with 400 naming the limit; revoking one makes room", async () => {
    const carol = await createAgent(api);
    // An expired key is not live: it does not count.
    const lapsed = await createKey(carol, { name: "lapsed", scopes: ["read"], expires_in_days: 1 });
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(lapsed.expires_at as string) + 1000);
    // A day later the access token has expired too: sign in again.
    const token = (await api.post("/auth/login", { email: carol.email, password: carol.password })).body.access_token as string;
    // Concurrent creations must not slip past the limit together.
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => api.post("/auth/api-keys", { name: `k${i}`, scopes: ["read"] }, { token })));
    for (const r of results) if (r.status === 201) shownKeys.push(r.body.key);
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(refused[0].body.detail).toMatch(/at most 20 live keys/);
    const one = results.find((r) => r.status === 201)!.body;
    expect((await api.del(`/auth/api-keys/${one.id}`, { token })).status).toBe(204);
    await createKey({ ...carol, token }, { name: "room again", scopes: ["read"] });
  });
});

describe("scopes", () => {
  type Op = { method: string; path: string; scope: string };
  let operations: Op[];
  const ids: Record<string, string> = {};
  const overrides: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    const doc = (await api.get("/openapi.json")).body;
    // What the contract says each operation needs (the test's own reading of docs/api.md#api-keys).
    const ACCOUNT_PATHS = /^(PATCH \/auth\/me|POST \/auth\/password|POST \/auth\/logout-everywhere|POST \/auth\/email\/verify|GET \/auth\/me\/export|POST \/auth\/me\/delete|(GET|PUT) \/auth\/me\/digest)$/;
    const expected = (method: string, path: string) =>
      // Moderation (docs/features/moderation.md) needs an access token or a session, like key management: a leaked key cannot take content down.
      // So does the account itself (docs/features/accounts.md): profile, password, email, export, deletion.
      path.startsWith("/auth/api-keys") || path.startsWith("/moderation/") || path.startsWith("/admin/") || ACCOUNT_PATHS.test(`${method} ${path}`)
        ? "account"
        : method === "GET"
          ? "read"
          : path.startsWith("/webhooks")
            ? "webhooks"
            : path.endsWith("/vote") || path.endsWith("/relevance")
              ? "vote"
              : "write";
    operations = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) {
        const m = method.toUpperCase();
        // Sign-in endpoints take no bearer credential at all.
        // Nor do the mailed links' endpoints, which a person may follow while holding a stale token.
        if (/^\/auth\/(register|login|refresh|logout$|oauth|password-reset|email\/verify\/confirm)/.test(path) || path === "/digest/unsubscribe" || path === "/openapi.json") continue;
        operations.push({ method: m, path, scope: expected(m, path) });
      }
    }
    // Fixtures the key owner (alice) may act on: bob's claim and evidence, alice's own comment.
    const claim = await api.post("/claims", { statement: "Scoped keys are refused outside their scopes." }, { token: bob.token });
    const evidence = await api.post(`/claims/${claim.body.id}/evidence`, { position: "supports", content_type: "text", content: "Evidence for scopes" }, { token: bob.token });
    const comment = await api.post(`/claims/${claim.body.id}/comments`, { content: "A comment by the key owner" }, { token: alice.token });
    // An edit needs the key owner's own evidence (someone else's is refused whatever the scope), a follow someone else.
    const own = await api.post(`/claims/${claim.body.id}/evidence`, { position: "opposes", content_type: "text", content: "The key owner's evidence" }, { token: alice.token });
    Object.assign(overrides, { "PATCH /evidence/{evidence_id}": { evidence_id: own.body.id }, "POST /profiles/{agent_id}/follow": { agent_id: bob.id }, "DELETE /profiles/{agent_id}/follow": { agent_id: bob.id } });
    Object.assign(ids, { claim_id: claim.body.id, evidence_id: evidence.body.id, comment_id: comment.body.id, agent_id: alice.id, idOrUsername: alice.username, tag: "science", key_id: "00000000-0000-4000-8000-000000000000" });
  });

  const fill = (method: string, path: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[`${method} ${path}`]?.[name] ?? ids[name] ?? "00000000-0000-4000-8000-000000000000");

  it("the document marks where keys work and with which scope", async () => {
    const doc = (await api.get("/openapi.json")).body;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "clm_…" });
    for (const op of operations) {
      const described = doc.paths[op.path][op.method.toLowerCase()];
      const schemes = described.security.flatMap((s: object) => Object.keys(s));
      expect(schemes.includes("apiKey"), `${op.method} ${op.path}`).toBe(op.scope !== "account");
      if (op.scope !== "account") expect(described["x-api-key-scope"], `${op.method} ${op.path}`).toBe(op.scope);
      expect(described.responses["403"], `${op.method} ${op.path}`).toBeDefined();
    }
    expect(operations.length).toBeGreaterThan(25);
  });

  for (const scope of ["read", "vote", "write", "webhooks"]) {
    it(`a "${scope}" key is allowed what ${scope} names and refused the rest with 403`, async () => {
      const key = await keyFor(alice, [scope]);
      // Mutations that would destroy the fixtures run last.
      const ordered = [...operations].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
      const wrong: string[] = [];
      for (const op of ordered) {
        const body = op.method === "GET" || op.method === "DELETE" ? undefined : op.path.endsWith("/vote") || op.path.endsWith("/relevance") ? (op.path.startsWith("/evidence") ? { direction: "up" } : { value: 0.7 }) : {};
        const res: ApiResponse = await api.request(op.method, fill(op.method, op.path), { token: key, body });
        const refused = res.status === 403 && res.body.detail === "Insufficient permissions";
        if (refused !== (op.scope !== scope) || res.status === 401 || res.status >= 500) wrong.push(`${op.method} ${op.path} (needs ${op.scope}) → ${res.status} ${res.text.slice(0, 80)}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it("a vote key votes; a read key reads private lists; a write key writes", async () => {
    const vote = await keyFor(alice, ["vote"]);
    const read = await keyFor(alice, ["read"]);
    const write = await keyFor(alice, ["write"]);
    expect((await api.post(`/claims/${ids.claim_id}/vote`, { value: 0.9 }, { token: vote })).status).toBe(200);
    expect((await api.post(`/claims/${ids.claim_id}/bookmark`, undefined, { token: write })).status).toBe(200);
    const bookmarks = await api.get("/claims/bookmarks", { token: read });
    expect(bookmarks.body.claims.map((c: { id: string }) => c.id)).toContain(ids.claim_id);
    expect(bookmarks.body.claims.find((c: { id: string }) => c.id === ids.claim_id).user_vote).toBe(0.9);
    const created = await api.post("/claims", { statement: "Written with a write-scoped API key." }, { token: write });
    expect(created.status).toBe(201);
    expect(created.body.author.id).toBe(alice.id);
  });
});

describe("the web tRPC endpoint resolves keys the same way", () => {
  const call = (method: "GET" | "POST", procedure: string, input: unknown, key: string) => {
    const base = `http://localhost/api/trpc/${procedure}`;
    const headers = { authorization: `Bearer ${key}` };
    if (method === "GET") return webGet(new Request(`${base}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers }));
    return webPost(new Request(base, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(input) }));
  };

  it("scopes bind there too, and a key cannot manage keys there either", async () => {
    const read = await keyFor(alice, ["read"]);
    const me = await call("GET", "auth.me", {}, read);
    expect(me.status).toBe(200);
    expect((await me.json()).result.data.id).toBe(alice.id);
    const create = await call("POST", "claims.create", { statement: "A read key cannot write through tRPC." }, read);
    expect(create.status).toBe(403);
    expect((await create.json()).error.detail).toBe("Insufficient permissions");
    expect((await call("GET", "apiKeys.list", {}, read)).status).toBe(403);
    const write = await keyFor(alice, ["write"]);
    expect((await call("POST", "claims.create", { statement: "A write key writes through tRPC." }, write)).status).toBe(200);
    // One character of the secret changed (never to itself: a key ending in "x" would stay valid).
    expect((await call("GET", "auth.me", {}, `${read.slice(0, -1)}${read.endsWith("x") ? "y" : "x"}`)).status).toBe(401);
  });
});

describe("rate limits", () => {
  it("calls with a key count against the owner's budget, shared with the owner's tokens", async () => {
    const dave = await createAgent(api);
    const key = await keyFor(dave, ["read"]);
    const remaining = (res: ApiResponse) => Number(res.headers.get("x-ratelimit-remaining"));
    const viaToken = await api.get("/auth/me", { token: dave.token });
    const viaKey = await api.get("/auth/me", { token: key });
    const again = await api.get("/auth/me", { token: dave.token });
    expect(viaKey.headers.get("x-ratelimit-limit")).toBe(viaToken.headers.get("x-ratelimit-limit"));
    expect(remaining(viaKey)).toBe(remaining(viaToken) - 1);
    expect(remaining(again)).toBe(remaining(viaToken) - 2);
  });
});

describe("secrecy", () => {
  it("no key ever appeared in a log line", () => {
    expect(shownKeys.length).toBeGreaterThan(20);
    const leaks = logged.filter((line) => shownKeys.some((k) => line.includes(k) || line.includes(k.slice(12))));
    expect(leaks).toEqual([]);
  });
});
