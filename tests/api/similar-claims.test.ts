// Similar claims, duplicate statements and the search's typo fallback (docs/features/arguments.md#similar-claims),
// on PGlite or DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { quickAgent, newClaim, writeCounts, type Voter } from "./claims-fixtures.ts";
import { SEARCH_TEXT_PREFIX_CHARS } from "../../server/domain/near-words.ts";

let api: TestApi;
let author: Voter;
const tag = `t${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

describe("GET /claims/similar", () => {
  it("finds statements near the text, best first, with a similarity between 0 and 1", async () => {
    const near = await newClaim(api, author.token, { statement: `Drinking green tea lowers blood pressure in adults ${tag}` });
    const far = await newClaim(api, author.token, { statement: `The Moon orbits the Earth once a month ${tag}` });
    const res = await api.get(`/claims/similar?q=${encodeURIComponent(`Green tea lowers blood pressure ${tag}`)}`);
    expect(res.status, res.text).toBe(200);
    const ids = res.body.claims.map((c: { id: string }) => c.id);
    expect(ids[0]).toBe(near.id);
    expect(ids).not.toContain(far.id);
    const first = res.body.claims[0];
    expect(first.similarity).toBeGreaterThan(0.3);
    expect(first.similarity).toBeLessThanOrEqual(1);
    expect(first.consensus.status).toBe("no_votes");
  });

  it("finds a statement that differs by one word, added or changed", async () => {
    const claim = await newClaim(api, author.token, { statement: `Walking every morning improves sleep quality for older people ${tag}` });
    for (const q of [`Walking every morning greatly improves sleep quality for older people ${tag}`, `Walking every evening improves sleep quality for older people ${tag}`]) {
      const res = await api.get(`/claims/similar?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(res.body.claims[0]?.id, q).toBe(claim.id);
      expect(res.body.claims[0].similarity).toBeGreaterThan(0.5);
    }
  });

  it("scores the same statement 1 and honours limit", async () => {
    const statement = `Cats sleep for most of the day ${tag}`;
    const claim = await newClaim(api, author.token, { statement });
    const res = await api.get(`/claims/similar?q=${encodeURIComponent(statement)}&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.claims).toHaveLength(1);
    expect(res.body.claims[0]).toMatchObject({ id: claim.id, similarity: 1 });
  });

  it("leaves hidden claims out", async () => {
    const statement = `Hidden statements never show as similar ${tag}`;
    const claim = await newClaim(api, author.token, { statement });
    await db().claim.update({ where: { id: claim.id }, data: { hiddenAt: new Date(), hiddenReason: "spam" } });
    const res = await api.get(`/claims/similar?q=${encodeURIComponent(statement)}`);
    expect(res.status).toBe(200);
    expect(res.body.claims.map((c: { id: string }) => c.id)).not.toContain(claim.id);
  });

  it("refuses a text shorter than 10 or longer than 5000 characters, and a bad limit", async () => {
    for (const q of ["too short", "x".repeat(5001)]) {
      const res = await api.get(`/claims/similar?q=${q}`);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("q: must be 10-5000 characters");
    }
    expect((await api.get("/claims/similar")).status).toBe(400);
    const limit = await api.get(`/claims/similar?q=${"a".repeat(20)}&limit=21`);
    expect(limit.status).toBe(400);
    expect(limit.body.detail).toBe("limit: must be an integer between 1 and 20");
  });

  it(`reads the first ${SEARCH_TEXT_PREFIX_CHARS} characters of a longer text: a statement it begins with scores 1`, async () => {
    const statement = `Cycling to work every day lowers the risk of heart disease in adults over forty ${tag}`;
    const claim = await newClaim(api, author.token, { statement });
    // The word after the statement crosses the limit, so what is read ends with the statement.
    const q = `${statement} ${"y".repeat(SEARCH_TEXT_PREFIX_CHARS)} ${"and a great deal more that is not read. ".repeat(120)}`.slice(0, 5000);
    const res = await api.get(`/claims/similar?q=${encodeURIComponent(q)}&limit=1`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.claims[0]).toMatchObject({ id: claim.id, similarity: 1 });
  });

  it("is not taken for a claim id", async () => {
    expect((await api.get(`/claims/similar?q=${"b".repeat(12)}`)).status).toBe(200);
  });
});

describe("duplicate statements", () => {
  it("refuses a statement equal once case, whitespace and punctuation are folded: 409 with the existing claim's id", async () => {
    const original = await newClaim(api, author.token, { statement: `Coffee improves focus, for most people ${tag}.` });
    const before = await writeCounts();
    const res = await api.post("/claims", { statement: `  coffee IMPROVES   focus -- for most people ${tag.toUpperCase()}!!` }, { token: author.token });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({ code: "duplicate_claim", detail: "A claim with this statement already exists", existing_claim_id: original.id });
    expect(await writeCounts()).toEqual(before);
    // A different word is a different claim.
    await newClaim(api, author.token, { statement: `Coffee improves focus, for some people ${tag}.` });
  });

  it("folds case alone too (409 with the id beside detail)", async () => {
    const original = await newClaim(api, author.token, { statement: `Walking daily adds years of life ${tag}` });
    const res = await api.request("POST", "/claims", { token: author.token, body: { statement: `walking daily adds years of life ${tag}` } });
    expect(res.status).toBe(409);
    expect(res.body.existing_claim_id).toBe(original.id);
  });
});

describe("GET /claims?q= typo fallback", () => {
  it("finds the claim by trigram similarity when full text finds nothing", async () => {
    const word = `zebrafish${tag}`;
    const claim = await newClaim(api, author.token, { statement: `The ${word} regrows its heart after injury` });
    const exact = await api.get(`/claims?q=${word}`);
    expect(exact.body.claims.map((c: { id: string }) => c.id)).toContain(claim.id);
    const typo = await api.get(`/claims?q=${word.replace("fish", "fsh")}`);
    expect(typo.status).toBe(200);
    expect(typo.body.claims.map((c: { id: string }) => c.id)).toContain(claim.id);
    expect(typo.body.total).toBeGreaterThanOrEqual(1);
    // Nothing near: still an empty list.
    const nothing = await api.get("/claims?q=qqxxjjvvkk");
    expect(nothing.body).toMatchObject({ claims: [], total: 0 });
  });

  it("finds coffee for coffe", async () => {
    const claim = await newClaim(api, author.token, { statement: `Coffee keeps night-shift workers alert ${tag}` });
    const res = await api.get(`/claims?q=coffe`);
    expect(res.body.claims.map((c: { id: string }) => c.id)).toContain(claim.id);
  });
});
