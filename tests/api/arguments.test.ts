// Arguments (docs/features/arguments.md): adding (a new claim or an existing one), the refusals (itself,
// cycles, depth, duplicates), relevance votes and their exact sums, impact with and without bridging,
// the list with its balance, hidden children, the tree in JSON and Argdown, and followers told.
// On PGlite or DATABASE_URL's PostgreSQL.
import { randomUUID } from "node:crypto";
// The webhook test's receiver listens on loopback over http.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";
import { startBackground, stopBackground } from "../../server/jobs/index.ts";
import { db, readSql } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, UNKNOWN_ID, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  await startBackground();
  author = await quickAgent();
});
afterAll(async () => {
  await stopBackground();
  await api.close();
});

const uniq = () => randomUUID().slice(0, 8);
const claimFor = (text: string) => newClaim(api, author.token, { statement: `${text} ${uniq()}` });

async function link(parentId: string, body: Record<string, unknown>, token = author.token) {
  return api.post(`/claims/${parentId}/arguments`, body, { token });
}
async function linked(parentId: string, childId: string, stance = "supports") {
  const res = await link(parentId, { stance, child_claim_id: childId });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; [k: string]: any };
}
async function vote(token: string, claimId: string, value: number) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token });
  expect(res.status, res.text).toBe(200);
}
async function relevance(token: string, argumentId: string, value: number) {
  const res = await api.post(`/arguments/${argumentId}/relevance`, { value }, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("POST /claims/{claim_id}/arguments", () => {
  it("writes a new claim and links it in one go: 201 Argument with the child's own consensus", async () => {
    const parent = await claimFor("Cities should plant more trees");
    const statement = `Trees cool streets by several degrees in summer ${uniq()}`;
    const res = await link(parent.id, { stance: "supports", statement, tags: ["Urban"], complexity_tier: "moderate" });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ["author", "claim", "created_at", "id", "impact", "parent_claim_id", "relevance", "stance", "user_relevance"].sort(),
    );
    expect(res.body).toMatchObject({
      parent_claim_id: parent.id,
      stance: "supports",
      relevance: { value: null, votes: 0 },
      impact: null,
      user_relevance: null,
      author: { id: author.id },
    });
    expect(res.body.claim).toMatchObject({ statement, tags: ["urban"], complexity_tier: "moderate", consensus: { status: "no_votes" } });
    // The child is a claim like any other.
    expect((await api.get(`/claims/${res.body.claim.id}`)).status).toBe(200);
  });

  it("links an existing claim, and the same claim may stand under several parents", async () => {
    const child = await claimFor("Shade reduces heat stroke");
    const a = await claimFor("Parks are worth their cost");
    const b = await claimFor("Streets need trees");
    const first = await linked(a.id, child.id, "supports");
    const second = await linked(b.id, child.id, "opposes");
    expect(first.claim.id).toBe(child.id);
    expect(second).toMatchObject({ stance: "opposes", parent_claim_id: b.id });
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const parent = await claimFor("A parent for bad input");
    const child = await claimFor("A child for bad input");
    const before = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM arguments`;
    const cases: [Record<string, unknown>, string][] = [
      [{ stance: "maybe", child_claim_id: child.id }, "stance: must be one of supports, opposes"],
      [{ stance: "supports" }, "body: give exactly one of child_claim_id and statement"],
      [{ stance: "supports", child_claim_id: child.id, statement: "Both at once is one too many" }, "body: give exactly one of child_claim_id and statement"],
      [{ stance: "supports", statement: "short" }, "statement: must be 10-5000 characters"],
      [{ stance: "supports", child_claim_id: UNKNOWN_ID }, `child_claim_id: claim ${UNKNOWN_ID} does not exist`],
      [{ stance: "supports", child_claim_id: parent.id }, "arguments: a claim cannot stand under itself"],
    ];
    for (const [body, detail] of cases) {
      const res = await link(parent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail, JSON.stringify(body)).toBe(detail);
    }
    expect((await link(UNKNOWN_ID, { stance: "supports", child_claim_id: child.id })).status).toBe(404);
    expect((await api.post(`/claims/${parent.id}/arguments`, { stance: "supports", child_claim_id: child.id })).status).toBe(401);
    expect(await readSql<{ n: number }>`SELECT count(*)::int AS n FROM arguments`).toEqual(before);
  });

  it("refuses the same child under the same parent twice with 409", async () => {
    const parent = await claimFor("A parent linked once");
    const child = await claimFor("A child linked once");
    await linked(parent.id, child.id);
    const again = await link(parent.id, { stance: "opposes", child_claim_id: child.id });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("arguments: this claim already stands under that claim");
  });

  it("refuses a statement another claim has with the duplicate 409, creating nothing", async () => {
    const parent = await claimFor("A parent for duplicates");
    const existing = await claimFor("An argument already written");
    const res = await link(parent.id, { stance: "supports", statement: existing.statement.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "duplicate_claim", detail: "A claim with this statement already exists", existing_claim_id: existing.id });
  });

  it("refuses a cycle, however long, with 400", async () => {
    const [a, b, c] = [await claimFor("Cycle A"), await claimFor("Cycle B"), await claimFor("Cycle C")];
    await linked(a.id, b.id);
    await linked(b.id, c.id);
    for (const [parent, child] of [
      [b, a],
      [c, a],
    ]) {
      const res = await link(parent.id, { stance: "opposes", child_claim_id: child.id });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("arguments: would create a cycle");
    }
  });

  it("refuses a chain deeper than 8 levels, from either end", async () => {
    const chain = [];
    for (let i = 0; i < 9; i++) chain.push(await claimFor(`Depth level ${i}`));
    for (let i = 0; i < 8; i++) await linked(chain[i].id, chain[i + 1].id);
    // 8 links from the top: one more below the bottom is too deep.
    const below = await link(chain[8].id, { stance: "supports", statement: `One level too deep ${uniq()}` });
    expect(below.status).toBe(400);
    expect(below.body.detail).toBe("arguments: deeper than 8 levels");
    // And one more above the top.
    const top = await claimFor("Above the top");
    const above = await link(top.id, { stance: "supports", child_claim_id: chain[0].id });
    expect(above.status).toBe(400);
    expect(above.body.detail).toBe("arguments: deeper than 8 levels");
    // A side branch at the same depth is fine.
    expect((await link(chain[7].id, { stance: "opposes", statement: `A sibling at level 8 ${uniq()}` })).status).toBe(201);
  });
});

describe("relevance and impact", () => {
  it("keeps one changeable vote per agent; the mean is exact; DELETE removes it", async () => {
    const parent = await claimFor("Relevance parent");
    const child = await claimFor("Relevance child");
    const arg = await linked(parent.id, child.id);
    const [x, y] = await quickAgents(2);
    expect((await relevance(x.token, arg.id, 0.2)).relevance).toEqual({ value: 0.2, votes: 1 });
    const both = await relevance(y.token, arg.id, 0.6);
    expect(both.relevance.votes).toBe(2);
    expect(both.relevance.value).toBeCloseTo(0.4, 12);
    expect(both.user_relevance).toBe(0.6);
    const changed = await relevance(x.token, arg.id, 1);
    expect(changed.relevance.votes).toBe(2);
    expect(changed.relevance.value).toBeCloseTo(0.8, 12);
    expect((await api.request("DELETE", `/arguments/${arg.id}/relevance`, { token: y.token })).status).toBe(204);
    expect((await api.request("DELETE", `/arguments/${arg.id}/relevance`, { token: y.token })).status).toBe(204);
    const list = await api.get(`/claims/${parent.id}/arguments`, { token: x.token });
    expect(list.body.arguments[0]).toMatchObject({ relevance: { value: 1, votes: 1 }, user_relevance: 1 });
    // Bad values change nothing.
    for (const value of [-0.1, 1.1, "0.5", null]) {
      const res = await api.post(`/arguments/${arg.id}/relevance`, { value }, { token: x.token });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe("value: must be between 0 and 1");
    }
    expect((await api.post(`/arguments/${UNKNOWN_ID}/relevance`, { value: 0.5 }, { token: x.token })).status).toBe(404);
    expect(await checkInvariants()).toEqual([]);
  });

  it("keeps the sums exact under concurrent votes", async () => {
    const parent = await claimFor("Concurrent relevance parent");
    const arg = await linked(parent.id, (await claimFor("Concurrent relevance child")).id);
    const voters = await quickAgents(8);
    await Promise.all(voters.map((v, i) => api.post(`/arguments/${arg.id}/relevance`, { value: i / 10 }, { token: v.token })));
    await Promise.all(voters.slice(0, 4).map((v) => api.post(`/arguments/${arg.id}/relevance`, { value: 0.9 }, { token: v.token })));
    const [row] = await readSql<{ relevance_sum: number; relevance_votes: number }>`
      SELECT relevance_sum, relevance_votes FROM arguments WHERE id = ${arg.id}::uuid`;
    expect(row.relevance_votes).toBe(8);
    expect(row.relevance_sum).toBeCloseTo(0.9 * 4 + (4 + 5 + 6 + 7) / 10, 9);
    expect(await checkInvariants()).toEqual([]);
  });

  it("impact = gradient × relevance; null without relevance votes or child votes; the bridged score when bridged", async () => {
    const parent = await claimFor("Impact parent");
    const child = await claimFor("Impact child");
    const arg = await linked(parent.id, child.id);
    const [x, y] = await quickAgents(2);
    await relevance(x.token, arg.id, 0.5);
    // The child has no votes yet.
    expect((await api.get(`/claims/${parent.id}/arguments`)).body.arguments[0].impact).toBeNull();
    await vote(y.token, child.id, 0.8);
    const [c] = await readSql<{ gradient: number }>`SELECT gradient FROM claims WHERE id = ${child.id}::uuid`;
    expect((await api.get(`/claims/${parent.id}/arguments`)).body.arguments[0].impact).toBeCloseTo(c.gradient * 0.5, 9);
    // Bridged: the bridged score is the truth.
    await db().claimBridging.update({ where: { claimId: child.id }, data: { status: "bridged_false", score: 0.1 } });
    expect((await api.get(`/claims/${parent.id}/arguments`)).body.arguments[0].impact).toBeCloseTo(0.05, 9);
    await db().claimBridging.update({ where: { claimId: child.id }, data: { status: "divided", score: 0.5 } });
    expect((await api.get(`/claims/${parent.id}/arguments`)).body.arguments[0].impact).toBeCloseTo(c.gradient * 0.5, 9);
  });
});

describe("GET /claims/{claim_id}/arguments", () => {
  it("orders by impact with nulls last, filters by stance, pages, and reports the balance without touching the parent", async () => {
    const parent = await claimFor("Balance parent");
    const voter = await quickAgent();
    const strong = await linked(parent.id, (await claimFor("Strong support")).id, "supports");
    const weak = await linked(parent.id, (await claimFor("Weak support")).id, "supports");
    const against = await linked(parent.id, (await claimFor("An objection")).id, "opposes");
    const unrated = await linked(parent.id, (await claimFor("Not yet rated")).id, "supports");
    for (const a of [strong, weak, against]) await vote(voter.token, a.claim.id, 1);
    await relevance(voter.token, strong.id, 0.9);
    await relevance(voter.token, weak.id, 0.1);
    await relevance(voter.token, against.id, 0.5);
    const before = await api.get(`/claims/${parent.id}`);
    const res = await api.get(`/claims/${parent.id}/arguments`);
    expect(res.status).toBe(200);
    const impacts = res.body.arguments.map((a: any) => a.impact);
    expect(res.body.arguments.map((a: any) => a.id)).toEqual([strong.id, against.id, weak.id, unrated.id]);
    expect(impacts[3]).toBeNull();
    expect(res.body.total).toBe(4);
    expect(res.body.balance).toBeCloseTo(impacts[0] + impacts[2] - impacts[1], 9);
    const after = await api.get(`/claims/${parent.id}`);
    expect(after.body.gradient).toBe(before.body.gradient);
    expect(after.body.vote_count).toBe(0);
    const opposes = await api.get(`/claims/${parent.id}/arguments?stance=opposes`);
    expect(opposes.body.arguments.map((a: any) => a.id)).toEqual([against.id]);
    expect(opposes.body.total).toBe(1);
    const newest = await api.get(`/claims/${parent.id}/arguments?sort_by=created_at&limit=2&offset=1`);
    expect(newest.body.arguments.map((a: any) => a.id)).toEqual([against.id, weak.id]);
    for (const q of ["limit=0", "limit=101", "sort_by=votes", "stance=neutral", "offset=-1"]) {
      expect((await api.get(`/claims/${parent.id}/arguments?${q}`)).status, q).toBe(400);
    }
    expect((await api.get(`/claims/${UNKNOWN_ID}/arguments`)).status).toBe(404);
  });

  it("hides the argument when its child is hidden or deleted", async () => {
    const parent = await claimFor("Parent of a hidden child");
    const hidden = await linked(parent.id, (await claimFor("A child to hide")).id);
    const kept = await linked(parent.id, (await claimFor("A child to keep")).id);
    await db().claim.update({ where: { id: hidden.claim.id }, data: { hiddenAt: new Date(), hiddenReason: "spam" } });
    const res = await api.get(`/claims/${parent.id}/arguments`);
    expect(res.body.arguments.map((a: any) => a.id)).toEqual([kept.id]);
    expect(res.body.total).toBe(1);
    const voter = await quickAgent();
    expect((await api.post(`/arguments/${hidden.id}/relevance`, { value: 0.5 }, { token: voter.token })).status).toBe(404);
    const tree = await api.get(`/claims/${parent.id}/tree`);
    expect(tree.body.arguments.map((a: any) => a.id)).toEqual([kept.id]);
    await db().claim.delete({ where: { id: kept.claim.id } });
    expect((await api.get(`/claims/${parent.id}/arguments`)).body).toMatchObject({ arguments: [], total: 0, balance: 0 });
  });
});

describe("GET /claims/{claim_id}/tree", () => {
  it("nests arguments to the depth asked, and answers Argdown as text/plain", async () => {
    const root = await claimFor("Tree root");
    const pro = await link(root.id, { stance: "supports", statement: `Tree pro ${uniq()}` });
    const con = await link(root.id, { stance: "opposes", statement: `Tree con ${uniq()}` });
    const deep = await link(pro.body.claim.id, { stance: "opposes", statement: `Tree pro's objection ${uniq()}` });
    await link(deep.body.claim.id, { stance: "supports", statement: `Three levels down ${uniq()}` });

    const one = await api.get(`/claims/${root.id}/tree?depth=1`);
    expect(one.status).toBe(200);
    expect(one.body.claim.id).toBe(root.id);
    expect(one.body.arguments).toHaveLength(2);
    expect(one.body.arguments.every((a: any) => a.arguments.length === 0)).toBe(true);

    const two = await api.get(`/claims/${root.id}/tree`);
    const proNode = two.body.arguments.find((a: any) => a.id === pro.body.id);
    expect(proNode.arguments.map((a: any) => a.id)).toEqual([deep.body.id]);
    expect(proNode.arguments[0].arguments).toEqual([]);
    const three = await api.get(`/claims/${root.id}/tree?depth=3`);
    expect(three.body.arguments.find((a: any) => a.id === pro.body.id).arguments[0].arguments).toHaveLength(1);

    const text = await api.get(`/claims/${root.id}/tree?depth=3&format=argdown`);
    expect(text.status).toBe(200);
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    const lines = text.text.trimEnd().split("\n");
    expect(lines[0]).toBe(`[c${root.id.replaceAll("-", "").slice(0, 16)}]: ${root.statement}`);
    expect(lines).toContain(`  + [c${pro.body.claim.id.replaceAll("-", "").slice(0, 16)}]: ${pro.body.claim.statement}`);
    expect(lines).toContain(`  - [c${con.body.claim.id.replaceAll("-", "").slice(0, 16)}]: ${con.body.claim.statement}`);
    expect(lines).toContain(`    - [c${deep.body.claim.id.replaceAll("-", "").slice(0, 16)}]: ${deep.body.claim.statement}`);
    expect(lines.filter((l) => l.startsWith("      + "))).toHaveLength(1);

    for (const q of ["depth=0", "depth=5", "format=xml"]) expect((await api.get(`/claims/${root.id}/tree?${q}`)).status, q).toBe(400);
    expect((await api.get(`/claims/${UNKNOWN_ID}/tree`)).status).toBe(404);
  });

  it("shows a claim under two parents in full at its first place and as a reference at the other", async () => {
    const root = await claimFor("Root with a shared grandchild");
    const pro = await linked(root.id, (await claimFor("Pro that shares")).id);
    const con = await linked(root.id, (await claimFor("Con that shares")).id, "opposes");
    const shared = await claimFor("The shared reason");
    await linked(shared.id, (await claimFor("Under the shared reason")).id);
    await linked(pro.claim.id, shared.id);
    await linked(con.claim.id, shared.id, "opposes");

    const res = await api.get(`/claims/${root.id}/tree?depth=3`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ truncated: false, continue_at: [] });
    // Breadth-first in the listed order: the first parent listed holds it in full (all impacts null: newest first).
    const [first, second] = res.body.arguments;
    expect([first.id, second.id]).toEqual([con.id, pro.id]);
    expect(first.arguments).toHaveLength(1);
    expect(first.arguments[0]).toMatchObject({ stance: "opposes", claim: { id: shared.id } });
    expect(first.arguments[0].arguments).toHaveLength(1);
    expect(second.arguments).toHaveLength(1);
    expect(second.arguments[0]).toEqual({ id: expect.any(String), stance: "supports", claim_id: shared.id, repeated: true });

    const text = await api.get(`/claims/${root.id}/tree?depth=3&format=argdown`);
    const lines = text.text.trimEnd().split("\n");
    const title = `[c${shared.id.replaceAll("-", "").slice(0, 16)}]`;
    expect(lines.filter((l) => l.includes(`${title}: `))).toEqual([`    - ${title}: ${shared.statement}`]);
    expect(lines).toContain(`    + ${title}`);
  });
});

describe("followers", () => {
  it("are told of a new argument (reason arguments), the author is not", async () => {
    const parent = await claimFor("A followed parent");
    const follower = await quickAgent();
    expect((await api.post(`/claims/${parent.id}/follow`, {}, { token: follower.token })).status).toBe(200);
    await link(parent.id, { stance: "supports", statement: `News for followers ${uniq()}` });
    await eventually(async () => {
      const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`;
      return row.n === 0;
    });
    const inbox = await api.get("/notifications", { token: follower.token });
    const thread = inbox.body.notifications.find((n: any) => n.claim.id === parent.id);
    expect(thread.reasons).toEqual({ votes: 0, evidence: 0, comments: 0, resolved: 0, arguments: 1, outcomes: 0 });
    const [event] = await readSql<{ type: string }>`
      SELECT type FROM outbox_events WHERE claim_id = ${parent.id}::uuid ORDER BY id DESC LIMIT 1`;
    expect(event.type).toBe("claim.argument_added");
    const own = await api.get("/notifications", { token: author.token });
    expect(own.body.notifications.some((n: any) => n.claim.id === parent.id)).toBe(false);
  });

  it("a follower's webhook subscribed to claim.argument_added receives the event with the argument", async () => {
    const follower = await quickAgent();
    const r = await startReceiver();
    try {
      const hook = await api.post("/webhooks", { url: r.url, events: ["claim.argument_added"] }, { token: follower.token });
      expect(hook.status, hook.text).toBe(201);
      r.secret = hook.body.secret;
      const parent = await claimFor("A parent with a webhook follower");
      await api.post(`/claims/${parent.id}/follow`, {}, { token: follower.token });
      const added = await link(parent.id, { stance: "opposes", statement: `Webhook news ${uniq()}` });
      const [got] = await r.waitFor((all) => all.length >= 1);
      expect(got.verified).toBe(true);
      expect(got.body).toMatchObject({
        type: "claim.argument_added",
        data: { claim: { id: parent.id }, actor_id: author.id, argument: { id: added.body.id, stance: "opposes" } },
      });
    } finally {
      await r.close();
    }
  });
});
