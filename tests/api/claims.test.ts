// POST /claims, GET /claims/{id} and the Claim shape (docs/api.md#shapes, #claims).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { quickAgent, newClaim, UNKNOWN_ID, writeCounts, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let other: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  other = await quickAgent();
});
afterAll(() => api.close());

const CLAIM_KEYS = [
  "agents",
  "author",
  "check",
  "bridging",
  "complexity_tier",
  "consensus",
  "created_at",
  "evidence_count",
  "gradient",
  "gradient_people",
  "id",
  "is_bookmarked",
  "is_following",
  "parent_ids",
  "statement",
  "tags",
  "updated_at",
  "user_vote",
  "vote_count",
].sort();

describe("POST /claims", () => {
  it("creates a claim: 201, gradient 0.5, no votes, defaults applied, statement trimmed", async () => {
    const before = await writeCounts();
    const res = await api.post("/claims", { statement: "   Water boils at 100 C at sea level.  " }, { token: author.token });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CLAIM_KEYS);
    expect(res.body).toMatchObject({
      statement: "Water boils at 100 C at sea level.",
      complexity_tier: "simple",
      tags: [],
      parent_ids: [],
      gradient: 0.5,
      vote_count: 0,
      evidence_count: 0,
      user_vote: null,
      is_bookmarked: false,
      // Authors follow their own claims from the start.
      is_following: true,
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.author).toMatchObject({ id: author.id, reputation_score: 0, tier: "new" });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const after = await writeCounts();
    expect(after.claims).toBe(before.claims + 1);
    // The maintained total moves in the same transaction.
    expect(after.counter).toBe(before.counter + 1);
    expect(after.counter).toBe(after.claims);
  });

  it("normalises tags: trimmed, lower-cased, duplicates removed in first-seen order", async () => {
    const res = await api.post(
      "/claims",
      { statement: "Tags are normalised on the way in", tags: [" Climate ", "climate", "SCIENCE_1", "a-b", "CLIMATE"], complexity_tier: "contested" },
      { token: author.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.tags).toEqual(["climate", "science_1", "a-b"]);
    expect(res.body.complexity_tier).toBe("contested");
  });

  it("accepts 10 distinct tags even when duplicates make the raw list longer", async () => {
    const tags = [...Array.from({ length: 10 }, (_, i) => `t${i}`), "T0", "t1 "];
    const res = await api.post("/claims", { statement: "Ten tags after de-duplication", tags }, { token: author.token });
    expect(res.status).toBe(201);
    expect(res.body.tags).toHaveLength(10);
  });

  it("links parents in the order given, duplicates once", async () => {
    const p1 = await newClaim(api, author.token);
    const p2 = await newClaim(api, other.token);
    const res = await api.post(
      "/claims",
      { statement: "A claim that builds on two others", parent_ids: [p2.id, p1.id, p2.id.toUpperCase()] },
      { token: author.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.parent_ids).toEqual([p2.id, p1.id]);
  });

  it("ignores fields a client may not set (gradient, vote_count, author, id)", async () => {
    const res = await api.post(
      "/claims",
      { statement: "Mass assignment must change nothing", gradient: 0.99, vote_count: 50, evidence_count: 3, author_id: other.id, id: UNKNOWN_ID },
      { token: author.token },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ gradient: 0.5, vote_count: 0, evidence_count: 0 });
    expect(res.body.author.id).toBe(author.id);
    expect(res.body.id).not.toBe(UNKNOWN_ID);
  });

  it("requires a token: 401 and nothing created", async () => {
    const before = await writeCounts();
    const none = await api.post("/claims", { statement: "No token, no claim at all" });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
    const bad = await api.post("/claims", { statement: "Bad token, no claim at all" }, { token: "nope" });
    expect(bad.status).toBe(401);
    expect(await writeCounts()).toEqual(before);
  });

  it.each([
    ["a statement of 9 characters after trimming", { statement: "  123456789  " }, "statement"],
    ["a statement of 5001 characters", { statement: "x".repeat(5001) }, "statement"],
    ["a missing statement", { statement: undefined }, "statement"],
    ["a number as statement", { statement: 1234567890123 }, "statement"],
    ["an unknown complexity_tier", { complexity_tier: "hard" }, "complexity_tier"],
    ["a null complexity_tier", { complexity_tier: null }, "complexity_tier"],
    ["11 distinct tags", { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, "tags"],
    ["a tag with a space", { tags: ["has space"] }, "tags"],
    ["a tag of 51 characters", { tags: ["x".repeat(51)] }, "tags"],
    ["an empty tag", { tags: [""] }, "tags"],
    ["a blank tag", { tags: ["   "] }, "tags"],
    ["a non-ASCII tag", { tags: ["ünïcode"] }, "tags"],
    ["tags as a string", { tags: "climate" }, "tags"],
    ["a number as tag", { tags: [42] }, "tags"],
    ["101 raw tag entries", { tags: Array.from({ length: 101 }, () => "same") }, "tags"],
    ["6 parents", { parent_ids: Array.from({ length: 6 }, () => "00000000-0000-4000-8000-000000000000") }, "parent_ids"],
    ["parent_ids as a string", { parent_ids: "00000000-0000-4000-8000-000000000000" }, "parent_ids"],
    ["a number as parent id", { parent_ids: [7] }, "parent_ids"],
  ])("refuses %s with 400 naming the field, and writes nothing", async (_label, override, field) => {
    const before = await writeCounts();
    const res = await api.post("/claims", { statement: "A perfectly fine statement", ...override }, { token: author.token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(new RegExp(`^${field}(\\.\\d+)?: `));
    expect(await writeCounts()).toEqual(before);
  });

  it("refuses an unknown parent with 400 naming the id, and writes nothing", async () => {
    const parent = await newClaim(api, author.token);
    const before = await writeCounts();
    for (const bad of [UNKNOWN_ID, "not-a-uuid"]) {
      const res = await api.post("/claims", { statement: "A claim with a missing parent", parent_ids: [parent.id, bad] }, { token: author.token });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(`parent_ids: claim ${bad} does not exist`);
    }
    expect(await writeCounts()).toEqual(before);
  });

  it("tag messages name the rule", async () => {
    const many = await api.post("/claims", { statement: "Too many tags here", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, { token: author.token });
    expect(many.body.detail).toBe("tags: at most 10 tags are allowed");
    const format = await api.post("/claims", { statement: "A badly formed tag", tags: ["no spaces"] }, { token: author.token });
    expect(format.body.detail).toBe("tags: each tag must be 1-50 characters of a-z, 0-9, _ or -");
  });
});

describe("GET /claims/{claim_id}", () => {
  it("returns the detail: the Claim plus an empty history and the parent claims in order", async () => {
    const p1 = await newClaim(api, author.token, { tags: ["parent"] });
    const p2 = await newClaim(api, other.token);
    const child = await newClaim(api, author.token, { parent_ids: [p1.id, p2.id] });
    const res = await api.get(`/claims/${child.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...CLAIM_KEYS, "gradient_history", "not_counted_reasons", "parent_claims"].sort());
    expect(res.body.gradient_history).toEqual([]);
    expect(res.body.parent_claims.map((c: any) => c.id)).toEqual([p1.id, p2.id]);
    expect(Object.keys(res.body.parent_claims[0]).sort()).toEqual(CLAIM_KEYS);
    expect(res.body.parent_claims[0].tags).toEqual(["parent"]);
    // Anonymous: the caller fields are null, in the claim and in its parents.
    expect(res.body).toMatchObject({ user_vote: null, is_bookmarked: null, is_following: null });
    expect(res.body.parent_claims[0]).toMatchObject({ user_vote: null, is_bookmarked: null, is_following: null });
  });

  it("records the gradient history oldest first, one point per vote change", async () => {
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/vote`, { value: 1 }, { token: other.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0 }, { token: other.token });
    await api.del(`/claims/${claim.id}/vote`, { token: other.token });
    const res = await api.get(`/claims/${claim.id}`);
    expect(res.body.gradient_history.map((p: any) => [p.gradient, p.vote_count])).toEqual([
      [1, 1],
      [0, 1],
      [0.5, 0],
    ]);
    const times = res.body.gradient_history.map((p: any) => Date.parse(p.recorded_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(res.body.gradient_history[0].recorded_at).toMatch(/Z$/);
  });

  it("fills the caller fields for a signed-in caller", async () => {
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/vote`, { value: 0.25 }, { token: other.token });
    await api.post(`/claims/${claim.id}/bookmark`, undefined, { token: other.token });
    const mine = await api.get(`/claims/${claim.id}`, { token: other.token });
    expect(mine.body).toMatchObject({ user_vote: 0.25, is_bookmarked: true, is_following: false });
    const theirs = await api.get(`/claims/${claim.id}`, { token: author.token });
    expect(theirs.body).toMatchObject({ user_vote: null, is_bookmarked: false, is_following: true });
  });

  it("answers 404 'Claim not found' for an unknown or malformed id", async () => {
    for (const id of [UNKNOWN_ID, "not-a-uuid", "1", "00000000-0000-4000-8000-00000000000g", "%27%20OR%201%3D1"]) {
      const res = await api.get(`/claims/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
  });

  it("accepts an upper-case id", async () => {
    const claim = await newClaim(api, author.token);
    const res = await api.get(`/claims/${claim.id.toUpperCase()}`, { token: other.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(claim.id);
  });

  it("refuses an invalid token with 401 even though the endpoint is public", async () => {
    const claim = await newClaim(api, author.token);
    const res = await api.get(`/claims/${claim.id}`, { token: "garbage" });
    expect(res.status).toBe(401);
  });

  it("never takes /claims/bookmarks or /claims/following for an id", async () => {
    for (const path of ["/claims/bookmarks", "/claims/following"]) {
      const anonymous = await api.get(path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ code: "unauthenticated", detail: "Invalid or expired token" });
      const signedIn = await api.get(path, { token: other.token });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toHaveProperty("claims");
    }
  });

  it("answers 405 for a wrong method on a known path", async () => {
    const claim = await newClaim(api, author.token);
    const res = await api.request("PUT", `/claims/${claim.id}`, { body: {} });
    expect(res.status).toBe(405);
  });
});

describe("OpenAPI", () => {
  it("describes the claim endpoints with their components", async () => {
    const doc = (await api.get("/openapi.json")).body;
    for (const name of ["Claim", "ClaimDetail", "ClaimList", "Evidence", "EvidenceList", "Bookmark", "Follow"]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    expect(doc.paths["/claims"].post.responses).toHaveProperty("201");
    expect(doc.paths["/claims/{claim_id}/vote"].delete.responses).toHaveProperty("204");
    expect(doc.paths["/claims/{claim_id}"].get.parameters.map((p: any) => p.name)).toContain("claim_id");
    expect(doc.paths["/evidence/{evidence_id}/vote"].post.parameters.map((p: any) => p.name)).toContain("evidence_id");
    const listParams = doc.paths["/claims"].get.parameters.map((p: any) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(["q", "tags", "complexity", "min_gradient", "max_gradient", "sort_by", "sort_order", "limit", "offset"]));
  });
});

describe("the claims counter", () => {
  it("equals the number of claims", async () => {
    const counter = await db().platformCounter.findUniqueOrThrow({ where: { name: "claims" } });
    expect(Number(counter.value)).toBe(await db().claim.count());
  });
});
