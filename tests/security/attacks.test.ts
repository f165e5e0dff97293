// Attacks through real HTTP, beyond what tests/api already covers (alg none, tampered payload,
// expired, wrong iss/aud/typ, another key, refresh-as-access, refresh reuse and concurrent refresh
// are in tests/api/auth.test.ts; editing or deleting someone else's comment in comments.test.ts):
// algorithm confusion, well-signed tokens with hostile claims, forged API keys, acting on other agents' objects,
// mass assignment on every writing endpoint, SQL/XSS payloads as plain data, open redirects, and
// account enumeration.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import fc from "fast-check";
import { exportJWK, importPKCS8, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safeRedirectPath, withQueryParam } from "../../server/domain/redirect.ts";
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from "../../server/auth/tokens.ts";
import { db } from "../../server/db/client.ts";
import { createAgent, startApi, uniqueName, type TestAgent, type TestApi } from "../helpers/api.ts";
import { changedTables, dbFingerprint } from "./db-state.ts";
import { HOSTILE_STRINGS } from "./openapi-fuzz.ts";

process.env.GITHUB_CLIENT_ID ??= "attack-client";
process.env.GITHUB_CLIENT_SECRET ??= "attack-secret";

let api: TestApi;
let alice: TestAgent;
let bob: TestAgent;
let carol: TestAgent;
beforeAll(async () => {
  api = await startApi();
  [alice, bob, carol] = [await createAgent(api), await createAgent(api), await createAgent(api)];
});
afterAll(() => api.close());

const INVALID_TOKEN = { code: "invalid_token", detail: "Invalid or expired token" };
const secret = () => new TextEncoder().encode(process.env.JWT_SECRET!);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());

async function newClaim(token: string, statement = `A claim to attack ${randomUUID()}`) {
  const res = await api.post("/claims", { statement, tags: ["attack"] }, { token });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

async function expectRefused(token: string) {
  for (const res of [await api.get("/auth/me", { token }), await api.get("/claims", { token }), await api.post("/claims", { statement: "Should never be created" }, { token })]) {
    expect(res.status, res.text).toBe(401);
    expect(res.body).toEqual(INVALID_TOKEN);
  }
}

describe("forged access tokens", () => {
  it("algorithm confusion: RS256, ES256 and an embedded attacker JWK are refused", async () => {
    const claims = payloadOf(alice.token);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rsaKey = await importPKCS8(rsa.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), "RS256");
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt" }).sign(rsaKey));
    // The attacker ships its own public key in the header (CVE-2018-0114 style).
    const jwk = await exportJWK(rsa.publicKey);
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt", jwk }).sign(rsaKey));
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const ecKey = await importPKCS8(ec.privateKey.export({ type: "pkcs8", format: "pem" }).toString(), "ES256");
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "at+jwt" }).sign(ecKey));
    // HS256 keyed with the RSA public key: the classic confusion when a verifier accepts both families.
    const pem = new TextEncoder().encode(rsa.publicKey.export({ type: "spki", format: "pem" }).toString());
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(pem));
  });

  it("'none' in any spelling, with or without a signature, is refused", async () => {
    const claims = payloadOf(alice.token);
    const signature = alice.token.split(".")[2];
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      const unsigned = `${b64({ alg, typ: "at+jwt" })}.${b64(claims)}`;
      await expectRefused(`${unsigned}.`);
      await expectRefused(`${unsigned}.${signature}`);
    }
  });

  it("a token signed with the real key but hostile claims answers 401, never 500", async () => {
    const claims = payloadOf(alice.token);
    const sign = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "at+jwt", ...header }).sign(secret());
    const now = Math.floor(Date.now() / 1000);
    const hostile: Record<string, unknown>[] = [
      { ...claims, sub: "not-a-uuid" },
      { ...claims, sub: "1' OR '1'='1" },
      { ...claims, sub: randomUUID() },
      { ...claims, sub: 42 },
      { ...claims, fid: "' OR 1=1 --" },
      { ...claims, fid: randomUUID() },
      { ...claims, fid: undefined },
      { ...claims, jti: undefined },
      { ...claims, exp: undefined },
      { ...claims, iat: undefined },
      { ...claims, nbf: now + 3600 },
      { ...claims, aud: [TOKEN_AUDIENCE, "x"], iss: `${TOKEN_ISSUER} ` },
    ];
    for (const payload of hostile) {
      const res = await api.get("/auth/me", { token: await sign(payload) });
      expect(res.status, JSON.stringify(payload)).toBe(401);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
    // A `kid` or `jku` pointing elsewhere is not a way to choose the key.
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt", kid: "../../../dev/null", jku: "https://attacker.example/jwks" }).sign(new TextEncoder().encode("attacker-chosen-key-attacker-chosen-key")));
  });

  it("another agent's token in the payload, an access token used as a refresh token, and oversized headers are refused", async () => {
    const [h, , s] = alice.token.split(".");
    await expectRefused(`${h}.${bob.token.split(".")[1]}.${s}`);
    const refresh = await api.post("/auth/refresh", { refresh_token: alice.token });
    expect(refresh.status).toBe(401);
    expect(refresh.body).toEqual(INVALID_TOKEN);
    await expectRefused(`${alice.token}${"A".repeat(6000)}`);
    const twoTokens = await api.get("/auth/me", { headers: { authorization: `Bearer ${alice.token} Bearer ${bob.token}` } });
    expect(twoTokens.status).toBe(401);
    // The real token still works: the refusals above are about the forgeries.
    expect((await api.get("/auth/me", { token: alice.token })).body.id).toBe(alice.id);
  });
});

describe("forged API keys", () => {
  async function newKey(owner: TestAgent, scopes = ["read", "vote", "write"]) {
    const res = await api.post("/auth/api-keys", { name: "attack target", scopes }, { token: owner.token });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; key: string; prefix: string };
  }
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const flip = (c: string) => BASE62[(BASE62.indexOf(c) + 1) % 62];

  it("a wrong prefix, a truncated or extended key, and another agent's prefix with a made-up secret are refused", async () => {
    const alices = await newKey(alice);
    const bobs = await newKey(bob);
    const k = alices.key;
    const secret = k.slice(4);
    const forgeries = [
      `clx_${secret}`, // wrong scheme prefix
      `CLM_${secret}`,
      `rt_${secret}`,
      secret, // no prefix
      k.slice(0, -1), // truncated
      k.slice(0, 12), // the public prefix alone
      `${k}0`, // extended
      `${k.slice(0, 11)}${flip(k[11])}${k.slice(12)}`, // a different lookup prefix, same secret
      `${k.slice(0, -1)}${flip(k.at(-1)!)}`, // right prefix, one character of the secret wrong
      `${bobs.prefix}${k.slice(12)}`, // bob's prefix with alice's secret part
      `${alices.prefix}${bobs.key.slice(12)}`, // alice's prefix with bob's secret part
      `${bobs.prefix}${"A".repeat(32)}`, // bob's prefix, a made-up secret
      `${k.slice(0, 20)}' OR '1'='1`,
      `${k} ${bobs.key}`, // two keys
    ];
    for (const forged of forgeries) await expectRefused(forged);
    // The real keys still work, each as its own agent.
    expect((await api.get("/auth/me", { token: alices.key })).body.id).toBe(alice.id);
    expect((await api.get("/auth/me", { token: bobs.key })).body.id).toBe(bob.id);
  });

  it("a key acts only as its owner: another agent's key ids are 404 and their objects stay theirs", async () => {
    const bobs = await newKey(bob);
    const alices = await newKey(alice);
    // Key management needs an access token; with one, another agent's key is unknown.
    expect((await api.del(`/auth/api-keys/${bobs.id}`, { token: alices.key })).status).toBe(403);
    expect((await api.del(`/auth/api-keys/${bobs.id}`, { token: alice.token })).status).toBe(404);
    const claim = await newClaim(bob.token);
    const voted = await api.post(`/claims/${claim.id}/vote`, { value: 0.3 }, { token: alices.key });
    expect(voted.status).toBe(200);
    const [vote] = await db().$queryRawUnsafe<{ agent_id: string }[]>(`SELECT agent_id::text FROM claim_votes WHERE claim_id = '${claim.id}'`);
    expect(vote.agent_id).toBe(alice.id);
    // Bob's own claim: a vote with his key is the same refusal as with his token.
    const own = await api.post(`/claims/${claim.id}/vote`, { value: 0.3 }, { token: bobs.key });
    expect([own.status, own.body.detail]).toEqual([403, "Insufficient permissions"]);
    expect((await api.get("/auth/me", { token: bobs.key })).body.id).toBe(bob.id);
  });
});

describe("acting on another agent's objects", () => {
  it("DELETE /claims/{id}/vote removes only the caller's vote", async () => {
    const claim = await newClaim(carol.token);
    await api.post(`/claims/${claim.id}/vote`, { value: 0.9 }, { token: alice.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.1 }, { token: bob.token });
    expect((await api.del(`/claims/${claim.id}/vote`, { token: bob.token })).status).toBe(204);
    expect((await api.del(`/claims/${claim.id}/vote`, { token: bob.token })).status).toBe(204);
    const asAlice = await api.get(`/claims/${claim.id}`, { token: alice.token });
    expect(asAlice.body).toMatchObject({ vote_count: 1, user_vote: 0.9, gradient: 0.9 });
    // The author cannot remove votes on their claim either.
    expect((await api.del(`/claims/${claim.id}/vote`, { token: carol.token })).status).toBe(204);
    expect((await api.get(`/claims/${claim.id}`)).body.vote_count).toBe(1);
  });

  it("DELETE /evidence/{id}/vote removes only the caller's vote", async () => {
    const claim = await newClaim(carol.token);
    const ev = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "Data." }, { token: carol.token });
    await api.post(`/evidence/${ev.body.id}/vote`, { direction: "up" }, { token: alice.token });
    await api.post(`/evidence/${ev.body.id}/vote`, { direction: "down" }, { token: bob.token });
    expect((await api.del(`/evidence/${ev.body.id}/vote`, { token: bob.token })).status).toBe(204);
    expect((await api.del(`/evidence/${ev.body.id}/vote`, { token: carol.token })).status).toBe(204);
    const asAlice = await api.get(`/evidence/${ev.body.id}`, { token: alice.token });
    expect(asAlice.body).toMatchObject({ upvotes: 1, downvotes: 0, vote_score: 1, user_vote: "up" });
  });

  it("bookmarks and follows: each agent sees and changes only their own, whatever the query says", async () => {
    const mine = await newClaim(carol.token);
    const theirs = await newClaim(carol.token);
    await api.post(`/claims/${theirs.id}/bookmark`, undefined, { token: alice.token });
    await api.post(`/claims/${theirs.id}/follow`, { notify_on_vote: false }, { token: alice.token });
    await api.post(`/claims/${mine.id}/bookmark`, undefined, { token: bob.token });

    for (const query of ["", `?agent_id=${alice.id}`, `?author_id=${alice.id}&user_id=${alice.id}`, `?agent=${alice.username}`]) {
      const bookmarks = await api.get(`/claims/bookmarks${query}`, { token: bob.token });
      expect(bookmarks.status).toBe(200);
      expect(bookmarks.body.claims.map((c: { id: string }) => c.id)).toEqual([mine.id]);
      // Only what Bob follows: the claims he wrote (authors follow their own, docs/features/accounts.md).
      const following = await api.get(`/claims/following${query}`, { token: bob.token });
      expect(following.body.claims.filter((c: { author: { id: string } }) => c.author.id !== bob.id)).toEqual([]);
    }
    expect((await api.get(`/claims/${theirs.id}`, { token: bob.token })).body).toMatchObject({ is_bookmarked: false, is_following: false });

    // Bob's DELETEs and PATCH touch nothing of Alice's.
    expect((await api.del(`/claims/${theirs.id}/bookmark`, { token: bob.token })).status).toBe(204);
    expect((await api.del(`/claims/${theirs.id}/follow`, { token: bob.token })).status).toBe(204);
    expect((await api.patch(`/claims/${theirs.id}/follow`, { notify_on_vote: true }, { token: bob.token })).status).toBe(404);
    expect((await api.get(`/claims/${theirs.id}`, { token: alice.token })).body).toMatchObject({ is_bookmarked: true, is_following: true });
    const follow = await db().follow.findFirstOrThrow({ where: { agentId: alice.id, claimId: theirs.id } });
    expect(follow.notifyOnVote).toBe(false);
  });

  it("nobody's email is public: only /auth/me shows the caller's own", async () => {
    const claim = await newClaim(alice.token);
    await api.post(`/claims/${claim.id}/comments`, { content: "Public words" }, { token: alice.token });
    await api.post(`/claims/${claim.id}/evidence`, { position: "neutral", content_type: "text", content: "Public data" }, { token: alice.token });
    const publicViews = [
      await api.get(`/profiles/${alice.id}`, { token: bob.token }),
      await api.get(`/claims/${claim.id}`, { token: bob.token }),
      await api.get(`/claims?limit=100`),
      await api.get(`/claims/${claim.id}/comments`),
      await api.get(`/claims/${claim.id}/evidence`),
      await api.get(`/discover/topics/attack`),
    ];
    for (const res of publicViews) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(alice.email);
      expect(res.text).not.toMatch(/"email"|password|"password_hash"/);
    }
    expect((await api.get("/auth/me", { token: alice.token })).body.email).toBe(alice.email);
  });
});

describe("mass assignment: fields a client may not set change nothing", () => {
  const SERVER_FIELDS = {
    id: "11111111-1111-4111-8111-111111111111",
    author_id: "22222222-2222-4222-8222-222222222222",
    agent_id: "22222222-2222-4222-8222-222222222222",
    reputation_score: 5000,
    reputation: 5000,
    tier: "trusted",
    gradient: 0.99,
    vote_count: 1000,
    evidence_count: 1000,
    upvotes: 1000,
    downvotes: 1000,
    vote_score: 1000,
    weight: 1000,
    created_at: "2000-01-01T00:00:00.000Z",
    updated_at: "2000-01-01T00:00:00.000Z",
    is_edited: true,
    is_deleted: true,
    depth: 3,
  };

  it("register: reputation, tier, id, dates and email verification are the server's", async () => {
    const username = uniqueName("mass");
    const res = await api.post("/auth/register", {
      ...SERVER_FIELDS,
      email_verified: "2000-01-01T00:00:00.000Z",
      password_hash: "$2b$10$abcdefghijklmnopqrstuu",
      resolved_votes: 50,
      email: `${username}@example.test`,
      password: "Password123",
      username,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ reputation_score: 0, tier: "new" });
    expect(res.body.id).not.toBe(SERVER_FIELDS.id);
    expect(Date.parse(res.body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const row = await db().agent.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ reputation: 0, tier: "new", emailVerified: null, resolvedVotes: 0 });
    expect(row.passwordHash).not.toBe("$2b$10$abcdefghijklmnopqrstuu");
    expect((await api.post("/auth/login", { email: `${username}@example.test`, password: "Password123" })).status).toBe(200);
  });

  it("votes: the path's claim, the caller's weight; a claim_id in the body is ignored", async () => {
    const target = await newClaim(carol.token);
    const other = await newClaim(carol.token);
    const res = await api.post(`/claims/${target.id}/vote`, { ...SERVER_FIELDS, claim_id: other.id, value: 0.25 }, { token: alice.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, vote_count: 1, gradient: 0.25, user_vote: 0.25 });
    const vote = await db().claimVote.findFirstOrThrow({ where: { claimId: target.id } });
    expect(vote.agentId).toBe(alice.id);
    expect(vote.weight).toBeLessThan(10);
    expect((await api.get(`/claims/${other.id}`)).body.vote_count).toBe(0);
    const agent = await db().agent.findUniqueOrThrow({ where: { id: alice.id } });
    expect(agent.reputation).toBeLessThan(1000);
  });

  it("evidence and evidence votes: author, counters and claim come from the server", async () => {
    const target = await newClaim(carol.token);
    const other = await newClaim(carol.token);
    const ev = await api.post(
      `/claims/${target.id}/evidence`,
      { ...SERVER_FIELDS, claim_id: other.id, position: "supports", content_type: "text", content: "Measured." },
      { token: bob.token },
    );
    expect(ev.status, ev.text).toBe(201);
    expect(ev.body).toMatchObject({ claim_id: target.id, upvotes: 0, downvotes: 0, vote_score: 0 });
    expect(ev.body.author.id).toBe(bob.id);
    expect(ev.body.id).not.toBe(SERVER_FIELDS.id);
    expect((await api.get(`/claims/${other.id}`)).body.evidence_count).toBe(0);

    const reputationBefore = (await db().agent.findUniqueOrThrow({ where: { id: bob.id } })).reputation;
    const vote = await api.post(`/evidence/${ev.body.id}/vote`, { ...SERVER_FIELDS, direction: "up", evidence_id: randomUUID() }, { token: alice.token });
    expect(vote.status, vote.text).toBe(200);
    expect(vote.body).toMatchObject({ id: ev.body.id, upvotes: 1, downvotes: 0, vote_score: 1, user_vote: "up" });
    // An upvote is worth +5 to the author, whatever the body claims.
    expect((await db().agent.findUniqueOrThrow({ where: { id: bob.id } })).reputation).toBe(reputationBefore + 5);
  });

  it("comments: author, claim, depth and flags come from the server, on create and on edit", async () => {
    const target = await newClaim(carol.token);
    const other = await newClaim(carol.token);
    const created = await api.post(`/claims/${target.id}/comments`, { ...SERVER_FIELDS, claim_id: other.id, content: "First!" }, { token: bob.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ claim_id: target.id, depth: 0, is_edited: false, is_deleted: false, content: "First!" });
    expect(created.body.author.id).toBe(bob.id);
    const edited = await api.patch(`/comments/${created.body.id}`, { ...SERVER_FIELDS, claim_id: other.id, content: "Edited" }, { token: bob.token });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ claim_id: target.id, is_deleted: false, content: "Edited", depth: 0 });
    expect(edited.body.author.id).toBe(bob.id);
    expect((await api.get(`/claims/${other.id}/comments`)).body.total).toBe(0);
  });

  it("follows and bookmarks: the path's claim and the caller", async () => {
    const target = await newClaim(carol.token);
    const other = await newClaim(carol.token);
    const follow = await api.post(`/claims/${target.id}/follow`, { ...SERVER_FIELDS, claim_id: other.id }, { token: bob.token });
    expect(follow.status, follow.text).toBe(200);
    expect(follow.body.claim_id).toBe(target.id);
    expect(Date.parse(follow.body.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const bookmark = await api.post(`/claims/${target.id}/bookmark`, { ...SERVER_FIELDS, claim_id: other.id }, { token: bob.token });
    expect(bookmark.body.claim_id).toBe(target.id);
    // The author follows their own claim (docs/features/accounts.md); nobody else was made to.
    expect(await db().follow.count({ where: { claimId: other.id, agentId: { not: carol.id } } })).toBe(0);
    expect(await db().bookmark.count({ where: { claimId: other.id } })).toBe(0);
  });

  it("__proto__ and constructor keys pollute nothing", async () => {
    const raw = `{"statement": "A claim sent with prototype keys", "__proto__": {"polluted": "yes", "statement": "x"}, "constructor": {"prototype": {"polluted": "yes"}}}`;
    const res = await api.request("POST", "/claims", { rawBody: raw, token: alice.token, headers: { "content-type": "application/json" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.statement).toBe("A claim sent with prototype keys");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("parser abuse", () => {
  const json = (rawBody: string, token = alice.token) =>
    api.request("POST", "/claims", { rawBody, token, headers: { "content-type": "application/json" } });

  it("deep nesting, key floods and duplicate keys are refused or resolved without a 5xx, and nothing is written", async () => {
    const before = await dbFingerprint();
    const depth = 40_000;
    const cases: [string, string, number][] = [
      ["nested objects", `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, 400],
      ["nested arrays in a field", `{"statement":"Nested arrays in the tags field","tags":${"[".repeat(depth)}${"]".repeat(depth)}}`, 400],
      ["12 000 keys", `{${Array.from({ length: 12_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`, 400],
      ["duplicate keys: the last one wins, and it is invalid", `{"statement":"A perfectly fine statement","statement":7}`, 400],
      ["NUL in a key", `{"statement\u0000":"Key with a NUL in it here","statement":""}`, 400],
      ["a number too big for a double", `{"statement":"Huge complexity number","complexity_tier":1e999}`, 400],
    ];
    for (const [what, body, status] of cases) {
      const res = await json(body);
      expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(status);
      expect(typeof res.body.detail, what).toBe("string");
    }
    expect(changedTables(before, await dbFingerprint())).toEqual([]);
    // Still serving.
    expect((await api.get("/claims?limit=1")).status).toBe(200);
  });
});

describe("SQL and markup in text are data: stored and returned verbatim", () => {
  // Statements are trimmed and need 10 characters; everything else is kept as sent.
  const payloads = HOSTILE_STRINGS.map((s) => `${s} — claim text`.trim());

  it("claims, evidence, comments and display names round-trip byte for byte", async () => {
    const before = await db().claim.count();
    for (const payload of payloads) {
      const claim = await api.post("/claims", { statement: payload }, { token: alice.token });
      expect(claim.status, claim.text).toBe(201);
      expect(claim.body.statement).toBe(payload);
      expect((await api.get(`/claims/${claim.body.id}`)).body.statement).toBe(payload);

      for (const content_type of ["text", "code", "data"]) {
        const ev = await api.post(`/claims/${claim.body.id}/evidence`, { position: "neutral", content_type, content: payload }, { token: bob.token });
        expect(ev.status, ev.text).toBe(201);
        expect((await api.get(`/evidence/${ev.body.id}`)).body.content).toBe(payload);
      }
      const comment = await api.post(`/claims/${claim.body.id}/comments`, { content: payload }, { token: bob.token });
      expect(comment.status, comment.text).toBe(201);
      const edited = await api.patch(`/comments/${comment.body.id}`, { content: `${payload}!` }, { token: bob.token });
      expect(edited.body.content).toBe(`${payload}!`);
      expect((await api.get(`/comments/${comment.body.id}`)).body.content).toBe(`${payload}!`);
    }
    // Nothing was dropped or rewritten along the way.
    expect(await db().claim.count()).toBe(before + payloads.length);

    const username = uniqueName("xss");
    const display = "<img src=x onerror=alert(1)> '; DROP TABLE agents; --";
    const reg = await api.post("/auth/register", { email: `${username}@example.test`, password: "Password123", username, display_name: display });
    expect(reg.status, reg.text).toBe(201);
    expect((await api.get(`/profiles/${reg.body.id}`)).body.display_name).toBe(display);
  });

  it("search treats operators and quotes as words", async () => {
    const marker = `zebrafish${Date.now()}`;
    const statement = `The ${marker} test: ' OR 1=1 -- & | ! <b>bold</b>`;
    const claim = await newClaim(alice.token, statement);
    for (const q of [marker, `${marker} ' OR 1=1 --`, `"${marker}"`, `${marker} & | ! :* ()`, `${marker}');--`, `${marker}\\`]) {
      const res = await api.get(`/claims?q=${encodeURIComponent(q)}`);
      expect(res.status, `${q}: ${res.text}`).toBe(200);
      expect(res.body.claims.map((c: { id: string }) => c.id), q).toContain(claim.id);
    }
    // The tautology is text too: it does not match everything.
    const tautology = await api.get(`/claims?q=${encodeURIComponent("x' OR 'x'='x")}`);
    expect(tautology.status).toBe(200);
    expect(tautology.body.claims.map((c: { id: string }) => c.id)).not.toContain(claim.id);
  });

  it("a link must be http(s): javascript:, data: and friends are refused, nothing stored", async () => {
    const claim = await newClaim(alice.token);
    const before = await dbFingerprint();
    for (const content of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "//evil.example/x", "http://", "https://"]) {
      const res = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "link", content }, { token: bob.token });
      expect(res.status, content).toBe(400);
      expect(res.body.detail).toMatch(/^content: /);
    }
    expect(changedTables(before, await dbFingerprint())).toEqual([]);
  });
});

describe("open redirect through redirect_to", () => {
  const VECTORS = [
    "https://evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/a/../..//evil.example",
    "/%2e%2e//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/x\r\nSet-Cookie: a=b",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http:evil.example",
    "evil.example",
    "@evil.example",
    "/" + "a".repeat(3000),
  ];

  it("every vector is refused with 400 and no Location", async () => {
    for (const vector of VECTORS) {
      const res = await api.get(`/auth/oauth/github?redirect_to=${encodeURIComponent(vector)}`);
      expect(res.status, vector).toBe(400);
      expect(res.body.detail, vector).toMatch(/^redirect_to: /);
      expect(res.headers.get("location")).toBeNull();
    }
    // The same request with a real path goes to the provider, and comes back to this site only.
    const ok = await api.get(`/auth/oauth/github?redirect_to=${encodeURIComponent("/claims?tab=1#x")}`);
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get("location")!);
    expect(location.hostname).toBe("github.com");
    expect(new URL(location.searchParams.get("redirect_uri")!).origin).toBe(new URL(process.env.NEXTAUTH_URL!).origin);
  });

  it("whatever safeRedirectPath accepts, a browser resolves on this site (property)", () => {
    const base = "https://claims.example";
    const alphabet = fc.constantFrom("/", "\\", ".", "%", "2", "e", "E", "f", "F", "5", "c", "C", ":", "@", "?", "#", "a", "h", "t", "p", "s", "\t", " ", "\u3002", "０");
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), (value) => {
        const path = safeRedirectPath(value);
        if (path === null) return;
        // Browsers drop tabs and newlines from URLs before resolving them.
        const resolved = new URL(path.replace(/[\t\n\r]/g, ""), base);
        expect(resolved.origin, JSON.stringify(value)).toBe(base);
        expect(new URL(withQueryParam(path, "code", "c"), base).origin).toBe(base);
      }),
      { seed: 9, numRuns: 20_000 },
    );
  });
});

describe("account enumeration", () => {
  async function loginFailure(email: string, password: string) {
    const started = performance.now();
    const res = await api.post("/auth/login", { email, password });
    return { res, ms: performance.now() - started };
  }

  it("login failures look the same for an unknown email, a wrong password and a password-less (OAuth) account", async () => {
    const oauthOnly = uniqueName("oauth");
    await db().agent.create({ data: { username: oauthOnly, usernameKey: oauthOnly.toLowerCase(), displayName: oauthOnly, email: `${oauthOnly}@example.test` } });
    const cases = {
      unknown: () => loginFailure(`nobody-${randomUUID()}@example.test`, "Password123"),
      wrongPassword: () => loginFailure(alice.email, "Password124"),
      wrongCase: () => loginFailure(alice.email.toUpperCase(), "password123"),
      oauthOnly: () => loginFailure(`${oauthOnly}@example.test`, "Password123"),
    };
    const times: Record<string, number[]> = {};
    const headerSets = new Set<string>();
    for (let round = 0; round < 5; round++) {
      for (const [name, attempt] of Object.entries(cases)) {
        const { res, ms } = await attempt();
        expect(res.status, name).toBe(401);
        expect(res.body, name).toEqual({ code: "invalid_credentials", detail: "Invalid email or password" });
        headerSets.add(JSON.stringify([...res.headers.keys()].sort()));
        (times[name] ??= []).push(ms);
      }
    }
    // Same header names (values differ only in dates and counters).
    expect([...headerSets]).toHaveLength(1);
    // A skipped bcrypt comparison would be 10-50 times faster; the bound allows for a busy machine.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const medians = Object.values(times).map(median);
    expect(Math.max(...medians) / Math.min(...medians), JSON.stringify(times)).toBeLessThan(4);
  });

  it("refresh failures look the same for unknown, used and malformed tokens", async () => {
    const login = await api.post("/auth/login", { email: carol.email, password: carol.password });
    const used = login.body.refresh_token;
    expect((await api.post("/auth/refresh", { refresh_token: used })).status).toBe(200);
    for (const refresh_token of [used, "rt_unknown", `rt_${"A".repeat(43)}`, "garbage"]) {
      const res = await api.post("/auth/refresh", { refresh_token });
      expect(res.status, refresh_token).toBe(401);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
  });
});
