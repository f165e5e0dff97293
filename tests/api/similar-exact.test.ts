// The claim with the very statement, said apart from the near ones (docs/features/arguments.md#duplicates):
// GET /claims/similar marks it `exact` — the same text once folded (case, spaces and punctuation aside),
// the one a new claim would be refused for — first, even past the ranking's cut, never a hidden one.
// On PGlite or DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { SEARCH_TEXT_PREFIX_CHARS } from "../../server/domain/near-words.ts";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

const similar = (q: string, limit = 5) => api.get(`/claims/similar?q=${encodeURIComponent(q)}&limit=${limit}`);

describe("GET /claims/similar: the exact claim", () => {
  it("marks the claim with the same folded statement exact, first, and the near ones not", async () => {
    const tag = randomUUID().slice(0, 8);
    const exact = await newClaim(api, author.token, { statement: `Octopuses have three hearts ${tag}` });
    const near = await newClaim(api, author.token, { statement: `Octopuses have three hearts and blue blood ${tag}` });
    const res = await similar(`  octopuses HAVE three hearts!! ${tag} `);
    expect(res.status, res.text).toBe(200);
    expect(res.body.claims[0]).toMatchObject({ id: exact.id, exact: true, similarity: 1 });
    expect(res.body.claims.find((c: { id: string }) => c.id === near.id)).toMatchObject({ exact: false });
    // The folded text is what a new claim would be refused for.
    const dup = await api.post("/claims", { statement: `Octopuses have three hearts. ${tag}` }, { token: author.token });
    expect(dup.status).toBe(409);
    expect(dup.body.existing_claim_id ?? dup.body.errors?.[0]).toBeDefined();
    // Only near claims: nothing exact.
    const none = await similar(`Octopuses have three hearts and green blood ${tag}`);
    expect(none.body.claims.every((c: { exact: boolean }) => !c.exact)).toBe(true);
  });

  it("puts the exact claim first even when the ranking would not reach it, and never a hidden one", async () => {
    const tag = randomUUID().slice(0, 8);
    // Two statements the same over the search's first characters (SEARCH_TEXT_PREFIX_CHARS), apart only
    // after: the ranking cannot tell them apart, the exact one is the one kept at limit 1.
    const start = `Bees can count to four ${tag}: ${"in the trials with yellow cards on a white table, ".repeat(5)}`;
    expect(start.length).toBeGreaterThan(SEARCH_TEXT_PREFIX_CHARS);
    const other = await newClaim(api, author.token, { statement: `${start} and the first ending` });
    const statement = `${start} and the second ending`;
    const exact = await newClaim(api, author.token, { statement });
    for (const q of [statement, `${start} and the first ending`]) {
      const res = await similar(q, 1);
      expect(res.body.claims).toEqual([expect.objectContaining({ id: q === statement ? exact.id : other.id, exact: true })]);
    }
    await db().claim.update({ where: { id: exact.id }, data: { hiddenAt: new Date(), hiddenReason: "spam" } });
    const hidden = await similar(statement);
    expect(hidden.body.claims.map((c: { id: string }) => c.id)).not.toContain(exact.id);
    expect(hidden.body.claims.every((c: { exact: boolean }) => !c.exact)).toBe(true);
  });
});
