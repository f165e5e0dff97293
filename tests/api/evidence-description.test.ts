// Evidence described by an optional title and excerpt (docs/features/friction.md), over REST and
// tRPC alike; and tags with capitals and spaces around them lower-cased, not refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let claimId: string;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  claimId = (await newClaim(api, author.token)).id;
});
afterAll(() => api.close());

const post = (body: Record<string, unknown>) =>
  api.post(`/claims/${claimId}/evidence`, { position: "supports", content_type: "link", content: "https://example.org/study", ...body }, { token: author.token });

describe("evidence title and excerpt", () => {
  it("keeps a title and an excerpt (trimmed) and shows them on every read", async () => {
    const res = await post({ title: "  A large cohort study  ", excerpt: "“Effect sizes were small but consistent.”" });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe("A large cohort study");
    expect(res.body.excerpt).toBe("“Effect sizes were small but consistent.”");
    const one = await api.get(`/evidence/${res.body.id}`);
    expect(one.body).toMatchObject({ title: "A large cohort study", excerpt: "“Effect sizes were small but consistent.”" });
    const list = await api.get(`/claims/${claimId}/evidence`);
    expect(list.body.evidence.find((e: { id: string }) => e.id === res.body.id)).toMatchObject({ title: "A large cohort study" });
  });

  it("answers null for both when not given, and for blank ones", async () => {
    const bare = await post({});
    expect(bare.status).toBe(201);
    expect(bare.body.title).toBeNull();
    expect(bare.body.excerpt).toBeNull();
    const blank = await post({ title: "   ", excerpt: "", content_type: "text", content: "Plain words." });
    expect(blank.status).toBe(201);
    expect([blank.body.title, blank.body.excerpt]).toEqual([null, null]);
  });

  it("refuses a title over 200 or an excerpt over 1000 characters with a 400 naming the field, and creates nothing", async () => {
    const before = (await api.get(`/claims/${claimId}`)).body.evidence_count;
    const longTitle = await post({ title: "t".repeat(201) });
    expect(longTitle.status).toBe(400);
    expect(longTitle.body.detail).toBe("title: must be at most 200 characters");
    const longExcerpt = await post({ excerpt: "e".repeat(1001) });
    expect(longExcerpt.status).toBe(400);
    expect(longExcerpt.body.detail).toBe("excerpt: must be at most 1000 characters");
    const wrongType = await post({ title: 5 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.detail).toMatch(/^title: /);
    expect((await api.get(`/claims/${claimId}`)).body.evidence_count).toBe(before);
    expect((await post({ title: "t".repeat(200), excerpt: "e".repeat(1000) })).status).toBe(201);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await api.get("/openapi.json")).body;
    const evidence = doc.components.schemas.Evidence;
    expect(evidence.properties.title).toBeDefined();
    expect(evidence.properties.excerpt).toBeDefined();
    const body = doc.paths["/claims/{claim_id}/evidence"].post.requestBody.content["application/json"].schema;
    expect(JSON.stringify(body)).toContain("excerpt");
  });
});

describe("tags", () => {
  it("lower-cases and trims tags with capitals instead of refusing them", async () => {
    const res = await api.post("/claims", { statement: "Capital letters in tags are fine here.", tags: ["Health", " NUTRITION ", "health"] }, { token: author.token });
    expect(res.status).toBe(201);
    expect(res.body.tags).toEqual(["health", "nutrition"]);
  });
});
