// GET /claims/{claim_id}/children: the claims that name a claim as a parent (the claim page's
// "Sub-claims"), newest first, paged, as the caller sees them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { newClaim, quickAgent, UNKNOWN_ID, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let reader: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  reader = await quickAgent();
});
afterAll(() => api.close());

describe("GET /claims/{claim_id}/children", () => {
  it("lists the sub-claims newest first, pages through them, and leaves other claims out", async () => {
    const parent = await newClaim(api, author.token);
    const otherParent = await newClaim(api, author.token);
    const first = await newClaim(api, author.token, { parent_ids: [parent.id] });
    const second = await newClaim(api, author.token, { parent_ids: [parent.id, otherParent.id] });
    await newClaim(api, author.token, { parent_ids: [otherParent.id] });
    await newClaim(api, author.token);

    const all = await api.get(`/claims/${parent.id}/children`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(all.body.claims.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    expect(all.body.claims[0].parent_ids).toEqual([parent.id, otherParent.id]);

    const page2 = await api.get(`/claims/${parent.id}/children?limit=1&offset=1`);
    expect(page2.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page2.body.claims.map((c: { id: string }) => c.id)).toEqual([first.id]);
  });

  it("fills the caller's fields when a token is sent", async () => {
    const parent = await newClaim(api, author.token);
    const child = await newClaim(api, author.token, { parent_ids: [parent.id] });
    await api.post(`/claims/${child.id}/vote`, { value: 0.3 }, { token: reader.token });
    const anonymous = await api.get(`/claims/${parent.id}/children`);
    expect(anonymous.body.claims[0]).toMatchObject({ user_vote: null, is_bookmarked: null });
    const asReader = await api.get(`/claims/${parent.id}/children`, { token: reader.token });
    expect(asReader.body.claims[0]).toMatchObject({ user_vote: 0.3, is_bookmarked: false });
  });

  it("answers an empty list for a claim without sub-claims", async () => {
    const lonely = await newClaim(api, author.token);
    const res = await api.get(`/claims/${lonely.id}/children`);
    expect(res.body).toMatchObject({ claims: [], total: 0 });
  });

  it("answers 404 for an unknown or malformed claim id, 400 for a bad page", async () => {
    for (const id of [UNKNOWN_ID, "not-a-uuid"]) {
      const res = await api.get(`/claims/${id}/children`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "not_found", detail: "Claim not found" });
    }
    const parent = await newClaim(api, author.token);
    const bad = await api.get(`/claims/${parent.id}/children?limit=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("limit: must be an integer between 1 and 100");
  });
});
