// A profile's activity lists (docs/features/activity.md) over real HTTP: each kind newest first, paged
// by a cursor without overlap or gaps, hidden content left out, votes only to the voter, the bounds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../../server/services/moderation.ts";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";

let api: TestApi;
let admin: TestAgent;
let author: TestAgent;
let other: TestAgent;

beforeAll(async () => {
  api = await startApi();
  [admin, author, other] = await Promise.all([createAgent(api), createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
});
afterAll(() => api.close());

async function newClaim(who: TestAgent, statement: string): Promise<string> {
  const res = await api.post("/claims", { statement, tags: ["activity"] }, { token: who.token });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe("GET /profiles/{agent_id}/activity", () => {
  it("pages the claims newest first by cursor, every claim once, and leaves hidden claims out", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newClaim(author, `Activity claim number ${i} ${Math.random()}`));
    const hidden = await newClaim(author, `A claim a moderator hides ${Math.random()}`);
    const hide = await api.post(`/moderation/claim/${hidden}/hide`, { reason: "spam" }, { token: admin.token });
    expect(hide.status, hide.text).toBeLessThan(300);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; text: string; body: any } = await api.get(`/profiles/${author.username}/activity?type=claims&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.type).toBe("claims");
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      for (const item of res.body.items) {
        expect(item).toMatchObject({ type: "claim", claim: { id: item.id }, value: null });
        seen.push(item.id);
      }
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([...ids].reverse());
    expect(seen).not.toContain(hidden);
    expect(pages).toBe(3);
    // claims is the default type
    const first = await api.get(`/profiles/${author.id}/activity?limit=1`);
    expect(first.body.items.map((i: { id: string }) => i.id)).toEqual([ids[4]]);
  });

  it("lists evidence and arguments with what they say and where", async () => {
    const claim = await newClaim(author, `A claim others argue about ${Math.random()}`);
    const ev = await api.post(`/claims/${claim}/evidence`, { position: "opposes", content_type: "link", content: "https://example.org/study", title: "A study that disagrees" }, { token: other.token });
    expect(ev.status, ev.text).toBe(201);
    const arg = await api.post(`/claims/${claim}/arguments`, { stance: "supports", statement: `Because of a reason stated here ${Math.random()}` }, { token: other.token });
    expect(arg.status, arg.text).toBe(201);

    const evidence = await api.get(`/profiles/${other.id}/activity?type=evidence`);
    expect(evidence.status).toBe(200);
    expect(evidence.body.items).toEqual([
      expect.objectContaining({ type: "evidence", id: ev.body.id, claim: { id: claim, statement: expect.stringContaining("others argue") }, position: "opposes", text: "A study that disagrees" }),
    ]);
    const args = await api.get(`/profiles/${other.id}/activity?type=arguments`);
    expect(args.body.items).toHaveLength(1);
    expect(args.body.items[0]).toMatchObject({ type: "argument", claim: { id: claim }, position: "supports", text: expect.stringContaining("Because of a reason") });
    expect(args.body.items[0].child_claim_id).toEqual(expect.any(String));
    expect(args.body.next_cursor).toBeNull();
  });

  it("lists votes to the voter only: 403 to anyone else and to nobody signed in", async () => {
    const claim = await newClaim(author, `A claim that gets a vote ${Math.random()}`);
    expect((await api.post(`/claims/${claim}/vote`, { value: 0.8 }, { token: other.token })).status).toBe(200);
    const own = await api.get(`/profiles/${other.id}/activity?type=votes`, { token: other.token });
    expect(own.status, own.text).toBe(200);
    expect(own.body.items[0]).toMatchObject({ type: "vote", claim: { id: claim }, value: 0.8 });
    for (const token of [author.token, undefined]) {
      const res = await api.get(`/profiles/${other.id}/activity?type=votes`, { token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
  });

  it("refuses a limit over 50, an unknown type and a malformed cursor by name; 404 for an unknown agent", async () => {
    for (const [query, field] of [["limit=51", "limit"], ["type=comments", "type"], ["cursor=abc", "cursor"]] as const) {
      const res = await api.get(`/profiles/${author.id}/activity?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await api.get(`/profiles/00000000-0000-4000-8000-000000000000/activity`)).status).toBe(404);
  });
});
