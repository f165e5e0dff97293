// The inbox (docs/features/following.md): events recorded with their writes, fanned out by the worker to followers,
// one thread per claim with counts since last read, mark-read, Last-Modified/304.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { startBackground, stopBackground } from "../../server/jobs/index.ts";
import { db, readSql } from "../../server/db/client.ts";
import { FANOUT_BATCH, fanOutEvents } from "../../server/services/notifications.ts";
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

/** Waits until every recorded event has been fanned out. */
async function settled() {
  await eventually(async () => {
    const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`;
    return row.n === 0;
  });
}

async function inbox(agent: Voter, query = "") {
  const res = await api.get(`/notifications${query}`, { token: agent.token });
  expect(res.status, res.text).toBe(200);
  return res.body as { notifications: any[]; total: number; unread_count: number };
}

describe("inbox", () => {
  it("a follower gets one thread per claim counting votes, evidence and comments; the actor hears nothing of their own", async () => {
    const follower = await quickAgent();
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    expect((await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token })).status).toBe(200);
    expect((await api.post(`/claims/${claim.id}/follow`, undefined, { token: actor.token })).status).toBe(200);

    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.8 }, { token: actor.token })).status).toBe(200);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.6 }, { token: actor.token })).status).toBe(200);
    const ev = await api.post(`/claims/${claim.id}/evidence`, { position: "supports", content_type: "text", content: "A source that supports it well." }, { token: actor.token });
    expect(ev.status, ev.text).toBe(201);
    expect((await api.post(`/claims/${claim.id}/comments`, { content: "Interesting." }, { token: actor.token })).status).toBe(201);
    await settled();

    const mine = await inbox(follower);
    expect(mine.total).toBe(1);
    expect(mine.unread_count).toBe(1);
    expect(mine.notifications[0]).toMatchObject({
      claim: { id: claim.id, is_following: true },
      reasons: { votes: 2, evidence: 1, comments: 1, resolved: 0, arguments: 0, outcomes: 0 },
      unread: true,
      last_read_at: null,
    });
    // The actor follows too, but was told nothing of their own actions.
    expect((await inbox(actor)).total).toBe(0);
  });

  it("the follow flags filter what reaches a follower", async () => {
    const follower = await quickAgent();
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/follow`, { notify_on_vote: false }, { token: follower.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.3 }, { token: actor.token });
    await settled();
    expect((await inbox(follower)).total).toBe(0);
    await api.post(`/claims/${claim.id}/comments`, { content: "Now a comment." }, { token: actor.token });
    await settled();
    const after = await inbox(follower);
    expect(after.notifications[0].reasons).toEqual({ votes: 0, evidence: 0, comments: 1, resolved: 0, arguments: 0, outcomes: 0 });
  });

  it("mark one read, mark all read, unread filter; someone else's notification is 404", async () => {
    const follower = await quickAgent();
    const other = await quickAgent();
    const actor = await quickAgent();
    const claims = [await newClaim(api, author.token), await newClaim(api, author.token)];
    for (const c of claims) await api.post(`/claims/${c.id}/follow`, undefined, { token: follower.token });
    for (const c of claims) await api.post(`/claims/${c.id}/vote`, { value: 0.9 }, { token: actor.token });
    await settled();
    const all = await inbox(follower);
    expect(all.unread_count).toBe(2);
    // Most recently updated first.
    expect(all.notifications.map((n) => n.claim.id)).toEqual([claims[1].id, claims[0].id]);

    const first = all.notifications[1];
    expect((await api.post(`/notifications/${first.id}/read`, undefined, { token: other.token })).status).toBe(404);
    expect((await api.post(`/notifications/${UNKNOWN_ID}/read`, undefined, { token: follower.token })).status).toBe(404);
    expect((await api.post(`/notifications/not-a-uuid/read`, undefined, { token: follower.token })).status).toBe(404);
    expect((await api.post(`/notifications/${first.id}/read`, undefined, { token: follower.token })).status).toBe(204);
    const afterOne = await inbox(follower);
    expect(afterOne.unread_count).toBe(1);
    const readOne = afterOne.notifications.find((n) => n.id === first.id);
    expect(readOne).toMatchObject({ unread: false, reasons: { votes: 0, evidence: 0, comments: 0, resolved: 0, arguments: 0, outcomes: 0 }, last_read_at: expect.stringMatching(/Z$/) });
    expect((await inbox(follower, "?unread=true")).notifications.map((n) => n.id)).toEqual([all.notifications[0].id]);
    expect((await inbox(follower, "?unread=false")).notifications.map((n) => n.id)).toEqual([first.id]);

    // A new event marks the thread unread again and counts from zero.
    await api.post(`/claims/${claims[0].id}/vote`, { value: 0.1 }, { token: actor.token });
    await settled();
    const again = (await inbox(follower)).notifications.find((n) => n.id === first.id);
    expect(again).toMatchObject({ unread: true, reasons: { votes: 1 } });

    expect((await api.post(`/notifications/read`, undefined, { token: follower.token })).status).toBe(204);
    expect((await inbox(follower)).unread_count).toBe(0);
  });

  it("bad queries are 400 naming the parameter; no token is 401", async () => {
    const me = await quickAgent();
    expect((await api.get("/notifications?unread=maybe", { token: me.token })).body.detail).toMatch(/^unread:/);
    expect((await api.get("/notifications?limit=0", { token: me.token })).status).toBe(400);
    expect((await api.post("/notifications/read", { before: "yesterday" }, { token: me.token })).body.detail).toMatch(/^before:/);
    expect((await api.get("/notifications")).status).toBe(401);
  });

  it("Last-Modified, and If-Modified-Since answers 304 until something changes", async () => {
    const follower = await quickAgent();
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.7 }, { token: actor.token });
    await settled();
    // Past the second of the change: the answer's Last-Modified is then the change's own.
    await new Promise((r) => setTimeout(r, 1100));
    const first = await api.get("/notifications", { token: follower.token });
    const lastModified = first.headers.get("last-modified");
    expect(lastModified).toBeTruthy();
    const again = await api.get("/notifications", { token: follower.token, headers: { "if-modified-since": lastModified! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");

    await api.post(`/claims/${claim.id}/vote`, { value: 0.2 }, { token: actor.token });
    await settled();
    const changed = await api.get("/notifications", { token: follower.token, headers: { "if-modified-since": lastModified! } });
    expect(changed.status).toBe(200);
    expect(changed.body.notifications[0].reasons.votes).toBe(2);
  });
});

describe("hidden claims (docs/features/moderation.md)", () => {
  async function moderator(): Promise<Voter> {
    const mod = await quickAgent();
    await db().agent.update({ where: { id: mod.id }, data: { role: "moderator" } });
    return mod;
  }

  it("a hidden claim's thread leaves the inbox, its counts included, and comes back on restore", async () => {
    const mod = await moderator();
    const follower = await quickAgent();
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    expect((await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token })).status).toBe(200);
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.7 }, { token: actor.token })).status).toBe(200);
    await settled();
    expect((await inbox(follower)).total).toBe(1);

    expect((await api.post(`/moderation/claim/${claim.id}/hide`, { reason: "spam" }, { token: mod.token })).status).toBe(204);
    expect(await inbox(follower)).toMatchObject({ notifications: [], total: 0, unread_count: 0 });

    expect((await api.post(`/moderation/claim/${claim.id}/restore`, {}, { token: mod.token })).status).toBe(204);
    expect((await inbox(follower)).notifications.map((n) => n.claim.id)).toEqual([claim.id]);
  });

  it("an event whose claim was hidden before it went out reaches no inbox and no webhook", async () => {
    const mod = await moderator();
    const follower = await quickAgent();
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    expect((await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token })).status).toBe(200);
    const hook = await api.post("/webhooks", { url: "https://93.184.215.14/hook", events: ["claim.voted"] }, { token: follower.token });
    expect(hook.status, hook.text).toBe(201);
    await stopBackground();
    expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.7 }, { token: actor.token })).status).toBe(200);
    expect((await api.post(`/moderation/claim/${claim.id}/hide`, { reason: "spam" }, { token: mod.token })).status).toBe(204);
    await startBackground();
    await settled();
    expect((await api.post(`/moderation/claim/${claim.id}/restore`, {}, { token: mod.token })).status).toBe(204);
    expect((await inbox(follower)).total).toBe(0);
    const deliveries = await api.get(`/webhooks/${hook.body.id}/deliveries`, { token: follower.token });
    expect(deliveries.status, deliveries.text).toBe(200);
    expect(deliveries.body.deliveries).toEqual([]);
  });
});

describe("a claim with more followers than one fan-out batch", () => {
  it("counts every vote exactly once in every follower's thread, resuming each event from its own cursor", async () => {
    const claim = await newClaim(api, author.token);
    // Only the followers made below: the author, who follows their claim from the start, stops.
    expect((await api.del(`/claims/${claim.id}/follow`, { token: author.token })).status).toBe(204);
    const followers = FANOUT_BATCH + 40;
    // Followers straight into the table: the API path of following is tested above; here the numbers matter.
    await db().$executeRaw`
      WITH made AS (
        INSERT INTO agents (id, username, username_key, display_name, email, updated_at)
        SELECT gen_random_uuid(), 'fan_' || n || '_' || ${claim.id.slice(0, 8)}, 'fan_' || n || '_' || ${claim.id.slice(0, 8)},
               'Fan ' || n, 'fan_' || n || '_' || ${claim.id.slice(0, 8)} || '@example.test', now()
        FROM generate_series(1, ${followers}) AS n RETURNING id)
      INSERT INTO follows (agent_id, claim_id, updated_at) SELECT id, ${claim.id}::uuid, now() FROM made`;
    const voters = await quickAgents(3);

    await stopBackground();
    for (const v of voters) expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.8 }, { token: v.token })).status).toBe(200);
    // The first vote's walk had committed its first batch when its worker died: it resumes after it.
    const [first] = await readSql<{ id: string }>`
      SELECT id::text AS id FROM outbox_events WHERE claim_id = ${claim.id}::uuid ORDER BY id LIMIT 1`;
    const sorted = await readSql<{ agent_id: string }>`
      SELECT agent_id::text AS agent_id FROM follows WHERE claim_id = ${claim.id}::uuid ORDER BY agent_id`;
    const cursor = sorted[FANOUT_BATCH - 1].agent_id;
    await db().$executeRaw`UPDATE outbox_events SET fanout_cursor = ${cursor}::uuid WHERE id = ${first.id}::bigint`;
    await startBackground();
    await settled();

    const threads = await readSql<{ agent_id: string; votes: number }>`
      SELECT agent_id::text AS agent_id, votes FROM notifications WHERE claim_id = ${claim.id}::uuid`;
    expect(threads).toHaveLength(followers);
    const votesOf = new Map(threads.map((t) => [t.agent_id, t.votes]));
    // Before the cursor the first vote had already been counted (by the walk that died): not counted again.
    expect(sorted.slice(0, FANOUT_BATCH).every((f) => votesOf.get(f.agent_id) === 2)).toBe(true);
    expect(sorted.slice(FANOUT_BATCH).every((f) => votesOf.get(f.agent_id) === 3)).toBe(true);

    // Running the same jobs again adds nothing.
    const ids = (await readSql<{ id: string }>`SELECT id::text AS id FROM outbox_events WHERE claim_id = ${claim.id}::uuid`).map((e) => e.id);
    expect(await fanOutEvents(ids, async () => {})).toEqual({ recipients: 0, deliveries: [] });
  });
});
