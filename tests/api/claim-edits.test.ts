// Edits with history (docs/features/edits.md) over real HTTP: the author edits a claim until its first
// vote, every version is kept, then the statement is locked (409 edit_locked), also after the vote is
// removed; nobody else may edit; a duplicate statement is refused by name; hidden history is 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../../server/services/moderation.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let author: TestAgent;
let other: TestAgent;
let admin: TestAgent;

beforeAll(async () => {
  api = await startApi();
  [author, other, admin] = await Promise.all([createAgent(api), createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
});
afterAll(() => api.close());

async function newClaim(statement: string): Promise<string> {
  const res = await api.post("/claims", { statement, tags: ["edits"] }, { token: author.token });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const edit = (id: string, statement: string, token = author.token) => api.request("PATCH", `/claims/${id}`, { token, body: { statement } });

describe("PATCH /claims/{claim_id} and GET /claims/{claim_id}/history", () => {
  it("lets the author edit before the first vote and keeps every version, oldest first", async () => {
    const first = `The river floods every spring ${Math.random()}`;
    const id = await newClaim(first);
    const never = await api.get(`/claims/${id}/history`);
    expect(never.status).toBe(200);
    expect(never.body).toMatchObject({ claim_id: id, edited_at: null, versions: [{ version: 1, statement: first }] });

    const second = `The river floods most springs ${Math.random()}`;
    const third = `The river floods in most springs since 1990 ${Math.random()}`;
    const r1 = await edit(id, `  ${second}  `);
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.statement).toBe(second);
    expect((await edit(id, third)).status).toBe(200);

    expect((await api.get(`/claims/${id}`)).body.statement).toBe(third);
    const history = await api.get(`/claims/${id}/history`);
    expect(history.body.versions.map((v: { version: number; statement: string }) => [v.version, v.statement])).toEqual([
      [1, first],
      [2, second],
      [3, third],
    ]);
    expect(history.body.edited_at).toMatch(/Z$/);
    expect(history.body.versions[0].created_at).toBe(never.body.versions[0].created_at);
  });

  it("locks the statement once anyone voted, even after the vote is taken back", async () => {
    const id = await newClaim(`Bridges rust faster near the sea ${Math.random()}`);
    expect((await api.post(`/claims/${id}/vote`, { value: 0.7 }, { token: other.token })).status).toBe(200);
    const locked = await edit(id, `Bridges rust faster by the sea ${Math.random()}`);
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe("edit_locked");
    expect((await api.request("DELETE", `/claims/${id}/vote`, { token: other.token })).status).toBe(204);
    expect((await edit(id, `Bridges rust faster by the sea ${Math.random()}`)).body.code).toBe("edit_locked");
    expect((await api.get(`/claims/${id}/history`)).body.versions).toHaveLength(1);
  });

  it("refuses anyone but the author (403), no token (401), a taken statement (409 naming it), a short one (400)", async () => {
    const taken = `Glaciers in the Alps shrink each decade ${Math.random()}`;
    const takenId = await newClaim(taken);
    const id = await newClaim(`Glaciers in the Andes shrink each decade ${Math.random()}`);
    expect((await edit(id, `Something else entirely ${Math.random()}`, other.token)).body.code).toBe("forbidden");
    expect((await api.request("PATCH", `/claims/${id}`, { body: { statement: "A statement long enough" } })).status).toBe(401);
    const dup = await edit(id, taken.toUpperCase());
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "duplicate_claim", existing_claim_id: takenId });
    const short = await edit(id, "short");
    expect(short.status).toBe(400);
    expect(short.body.errors[0].field).toBe("statement");
    expect((await api.get(`/claims/${id}/history`)).body.versions).toHaveLength(1);
    expect((await edit("00000000-0000-4000-8000-000000000000", "A statement long enough")).status).toBe(404);
  });

  it("answers 404 for the history of a hidden claim to others, and shows it to its author", async () => {
    const id = await newClaim(`A claim to be hidden later on ${Math.random()}`);
    expect((await api.post(`/moderation/claim/${id}/hide`, { reason: "spam" }, { token: admin.token })).status).toBeLessThan(300);
    expect((await api.get(`/claims/${id}/history`)).status).toBe(404);
    expect((await api.get(`/claims/${id}/history`, { token: author.token })).status).toBe(200);
  });
});

describe("PATCH /evidence/{evidence_id} and GET /evidence/{evidence_id}/history", () => {
  it("lets its author correct title and excerpt before the first vote, keeps every version, then locks it", async () => {
    const claim = await newClaim(`Evidence gets edited on this claim ${Math.random()}`);
    const ev = await api.post(`/claims/${claim}/evidence`, { position: "supports", content_type: "link", content: "https://example.org/paper", title: "A papr" }, { token: other.token });
    expect(ev.status, ev.text).toBe(201);
    const patch = (body: object, token = other.token) => api.request("PATCH", `/evidence/${ev.body.id}`, { token, body });

    expect((await patch({ title: "Someone else's fix" }, author.token)).body.code).toBe("forbidden");
    const fixed = await patch({ title: "A paper", excerpt: "Table 2 shows it." });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body).toMatchObject({ title: "A paper", excerpt: "Table 2 shows it.", content: "https://example.org/paper" });
    const history = await api.get(`/evidence/${ev.body.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.versions.map((v: { title: string; excerpt: string | null }) => [v.title, v.excerpt])).toEqual([
      ["A papr", null],
      ["A paper", "Table 2 shows it."],
    ]);
    expect(history.body.edited_at).toMatch(/Z$/);

    expect((await api.post(`/evidence/${ev.body.id}/vote`, { direction: "up" }, { token: author.token })).status).toBe(200);
    const locked = await patch({ title: "Too late" });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe("edit_locked");
    expect((await api.get(`/evidence/${ev.body.id}`)).body.title).toBe("A paper");
  });
});
