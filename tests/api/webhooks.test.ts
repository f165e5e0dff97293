// Webhooks (docs/features/following.md) against a real local receiver that verifies signatures with the
// `standardwebhooks` package: delivery, retries with a shortened schedule, 410, 3 days of failures,
// ping, rotation, redelivery, the delivery log, and management rules.
process.env.WEBHOOK_ALLOW_PRIVATE = "1";
process.env.WEBHOOK_RETRY_BASE_MS = "150";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";
import { startBackground, stopBackground } from "../../server/jobs/index.ts";
import { enqueueDeliveries } from "../../server/queue/client.ts";
import { readSql, sqlTransaction } from "../../server/db/client.ts";
import { fanOutEvents } from "../../server/services/notifications.ts";
import { Prisma } from "../../server/db/generated/client.ts";
import { newClaim, quickAgent, UNKNOWN_ID, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
const receivers: Receiver[] = [];
beforeAll(async () => {
  api = await startApi();
  await startBackground();
  author = await quickAgent();
});
afterAll(async () => {
  await stopBackground();
  await Promise.all(receivers.map((r) => r.close()));
  await api.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function register(agent: Voter, r: Receiver, events = ["claim.voted", "claim.evidence_added", "claim.commented", "claim.resolved"]) {
  const res = await api.post("/webhooks", { url: r.url, events, description: "test" }, { token: agent.token });
  expect(res.status, res.text).toBe(201);
  r.secret = res.body.secret;
  return res.body;
}

async function deliveries(agent: Voter, hookId: string) {
  const res = await api.get(`/webhooks/${hookId}/deliveries?limit=100`, { token: agent.token });
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries as any[];
}

describe("delivery", () => {
  it("a follower's endpoint receives the event, signed per Standard Webhooks, with the claim and the actor", async () => {
    const follower = await quickAgent();
    const actor = await quickAgent();
    const r = await receiver();
    const hook = await register(follower, r);
    expect(hook).toMatchObject({ url: r.url, status: "active", disabled_reason: null, description: "test" });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token });
    const vote = await api.post(`/claims/${claim.id}/vote`, { value: 0.75 }, { token: actor.token });
    expect(vote.status).toBe(200);

    const [got] = await r.waitFor((all) => all.length >= 1);
    expect(got.verified).toBe(true);
    expect(got.id).toMatch(/^msg_/);
    expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(got.body).toMatchObject({ type: "claim.voted", data: { claim: { id: claim.id, vote_count: 1 }, actor_id: actor.id } });
    expect(got.body.timestamp).toMatch(/Z$/);
    const log = await eventually(async () => {
      const d = await deliveries(follower, hook.id);
      return d[0]?.status === "succeeded" ? d : null;
    });
    expect(log[0]).toMatchObject({ event_type: "claim.voted", webhook_message_id: got.id, attempt: 1, response_status: 200, error: null, next_attempt_at: null });
  });

  it("an endpoint only gets the event types it subscribed to, and the actor's own endpoint nothing", async () => {
    const follower = await quickAgent();
    const actor = await quickAgent();
    const r = await receiver();
    await register(follower, r, ["claim.commented"]);
    const own = await receiver();
    await register(actor, own);
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token });
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: actor.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.4 }, { token: actor.token });
    await api.post(`/claims/${claim.id}/comments`, { content: "A comment." }, { token: actor.token });
    const got = await r.waitFor((all) => all.length >= 1);
    await new Promise((res) => setTimeout(res, 1500));
    expect(got.map((g) => g.body.type)).toEqual(["claim.commented"]);
    expect(got[0].body.data.comment).toMatchObject({ content: "A comment." });
    expect(own.received).toEqual([]);
  });

  it("failures are retried with the same webhook-id until a 2xx; the log has one row per attempt", async () => {
    const follower = await quickAgent();
    const r = await receiver();
    let calls = 0;
    r.respond = () => (++calls <= 2 ? 500 : 204);
    const hook = await register(follower, r);
    expect((await api.post(`/webhooks/${hook.id}/test`, undefined, { token: follower.token })).status).toBe(202);
    const got = await r.waitFor((all) => all.length >= 3);
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
    expect(got.every((g) => g.verified)).toBe(true);
    expect(got[0].body.type).toBe("ping");
    const log = await eventually(async () => {
      const d = await deliveries(follower, hook.id);
      return d.length === 3 && d.every((x) => x.status !== "pending") ? d : null;
    });
    const byAttempt = [...log].sort((a, b) => a.attempt - b.attempt);
    expect(byAttempt.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [1, "failed", 500],
      [2, "failed", 500],
      [3, "succeeded", 204],
    ]);
    expect(byAttempt[0].next_attempt_at).toMatch(/Z$/);
    expect(byAttempt[0].error).toMatch(/500/);
    // Nothing further is sent once it succeeded.
    await new Promise((res) => setTimeout(res, 1000));
    expect(r.received.length).toBe(3);
  });

  it("a 410 disables the endpoint at once; PATCH status active re-enables it", async () => {
    const follower = await quickAgent();
    const r = await receiver();
    r.respond = () => 410;
    const hook = await register(follower, r);
    await api.post(`/webhooks/${hook.id}/test`, undefined, { token: follower.token });
    const disabled = await eventually(async () => {
      const h = await api.get(`/webhooks/${hook.id}`, { token: follower.token });
      return h.body.status === "disabled" ? h.body : null;
    });
    expect(disabled.disabled_reason).toMatch(/410/);
    await new Promise((res) => setTimeout(res, 1000));
    expect(r.received.length).toBe(1);

    // A disabled endpoint gets no claim events.
    const actor = await quickAgent();
    const claim = await newClaim(api, author.token);
    await api.post(`/claims/${claim.id}/follow`, undefined, { token: follower.token });
    await api.post(`/claims/${claim.id}/vote`, { value: 0.5 }, { token: actor.token });
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received.length).toBe(1);

    const enabled = await api.patch(`/webhooks/${hook.id}`, { status: "active" }, { token: follower.token });
    expect(enabled.body).toMatchObject({ status: "active", disabled_reason: null });
  });

  it("3 days of nothing but failures disable the endpoint", async () => {
    const follower = await quickAgent();
    const r = await receiver();
    r.respond = () => 503;
    const hook = await register(follower, r);
    // The endpoint has been failing for 3 days already (the clock is the database's).
    await sqlTransaction((tx) =>
      tx.execute(Prisma.sql`UPDATE webhooks SET failing_since = now() - interval '3 days 1 minute' WHERE id = ${hook.id}::uuid`),
    );
    await api.post(`/webhooks/${hook.id}/test`, undefined, { token: follower.token });
    const disabled = await eventually(async () => {
      const h = await api.get(`/webhooks/${hook.id}`, { token: follower.token });
      return h.body.status === "disabled" ? h.body : null;
    });
    expect(disabled.disabled_reason).toMatch(/3 days/);
  });

  it("rotating the secret signs from then on with the new one only; redelivery resends the same message", async () => {
    const follower = await quickAgent();
    const r = await receiver();
    const hook = await register(follower, r);
    const oldSecret = r.secret;
    const rotated = await api.post(`/webhooks/${hook.id}/rotate-secret`, undefined, { token: follower.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(oldSecret);
    r.secret = rotated.body.secret;
    await api.post(`/webhooks/${hook.id}/test`, undefined, { token: follower.token });
    const [first] = await r.waitFor((all) => all.length >= 1);
    expect(first.verified).toBe(true);

    const [delivery] = await eventually(async () => {
      const d = await deliveries(follower, hook.id);
      return d[0]?.status === "succeeded" ? d : null;
    });
    expect((await api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, undefined, { token: follower.token })).status).toBe(202);
    const got = await r.waitFor((all) => all.length >= 2);
    expect(got[1].id).toBe(first.id);
    expect(got[1].verified).toBe(true);
    expect((await deliveries(follower, hook.id)).map((d) => d.attempt).sort()).toEqual([1, 2]);
  });
});

describe("management", () => {
  it("list, get, patch, delete; another agent's webhook is 404; at most 10 per agent", async () => {
    const me = await quickAgent();
    const other = await quickAgent();
    const r = await receiver();
    const hook = await register(me, r);
    expect((await api.get("/webhooks", { token: me.token })).body.webhooks.map((w: any) => w.id)).toEqual([hook.id]);
    expect((await api.get("/webhooks", { token: me.token })).body.webhooks[0].secret).toBeUndefined();
    for (const [method, path] of [
      ["GET", `/webhooks/${hook.id}`],
      ["PATCH", `/webhooks/${hook.id}`],
      ["DELETE", `/webhooks/${hook.id}`],
      ["POST", `/webhooks/${hook.id}/test`],
      ["POST", `/webhooks/${hook.id}/rotate-secret`],
      ["GET", `/webhooks/${hook.id}/deliveries`],
      ["POST", `/webhooks/${hook.id}/deliveries/${UNKNOWN_ID}/redeliver`],
      ["GET", `/webhooks/${UNKNOWN_ID}`],
      ["GET", `/webhooks/nope`],
    ] as const) {
      const res = await api.request(method, path, { token: other.token, body: method === "PATCH" ? { description: "x" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.detail).toBe("Webhook not found");
    }
    const patched = await api.patch(`/webhooks/${hook.id}`, { events: ["claim.resolved", "ping"], description: null }, { token: me.token });
    expect(patched.body).toMatchObject({ events: ["claim.resolved", "ping"], description: null });
    expect((await api.patch(`/webhooks/${hook.id}`, { status: "disabled" }, { token: me.token })).status).toBe(400);
    expect((await api.post("/webhooks", { url: r.url, events: ["claim.nope"] }, { token: me.token })).body.detail).toMatch(/^events/);
    expect((await api.post("/webhooks", { url: r.url, events: [] }, { token: me.token })).body.detail).toMatch(/^events/);
    for (let i = 1; i < 10; i++) expect((await api.post("/webhooks", { url: r.url, events: ["ping"] }, { token: me.token })).status).toBe(201);
    const eleventh = await api.post("/webhooks", { url: r.url, events: ["ping"] }, { token: me.token });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.detail).toMatch(/at most 10/);
    expect((await api.del(`/webhooks/${hook.id}`, { token: me.token })).status).toBe(204);
    expect((await api.get(`/webhooks/${hook.id}`, { token: me.token })).status).toBe(404);
    expect((await api.get("/webhooks")).status).toBe(401);
  });

  it("API keys: managing needs the webhooks scope, listing read", async () => {
    const me = await quickAgent();
    const r = await receiver();
    const mint = async (scopes: string[]) => (await api.post("/auth/api-keys", { name: "k", scopes }, { token: me.token })).body.key as string;
    const readKey = await mint(["read"]);
    const hooksKey = await mint(["webhooks"]);
    expect((await api.post("/webhooks", { url: r.url, events: ["ping"] }, { token: readKey })).status).toBe(403);
    expect((await api.post("/webhooks", { url: r.url, events: ["ping"] }, { token: hooksKey })).status).toBe(201);
    expect((await api.get("/webhooks", { token: readKey })).status).toBe(200);
    expect((await api.get("/notifications", { token: readKey })).status).toBe(200);
  });
});

describe("a backlog of events", () => {
  it("goes out together: every thread counts each event once, every endpoint gets one message per event it hears", async () => {
    const hooked = await quickAgent();
    const quiet = await quickAgent();
    const voters = [await quickAgent(), await quickAgent(), await quickAgent()];
    const r = await receiver();
    await register(hooked, r, ["claim.voted", "claim.commented"]);
    const claims = [await newClaim(api, author.token), await newClaim(api, author.token)];
    for (const claim of claims) {
      expect((await api.post(`/claims/${claim.id}/follow`, undefined, { token: hooked.token })).status).toBe(200);
      expect((await api.post(`/claims/${claim.id}/follow`, { notify_on_vote: false }, { token: quiet.token })).status).toBe(200);
    }
    const [{ after }] = await readSql<{ after: string }>`SELECT COALESCE(max(id), 0)::text AS after FROM outbox_events`;
    // Written while no worker runs: the fan-out then finds them all waiting and takes them in one batch.
    await stopBackground();
    for (const claim of claims) {
      for (const v of voters) expect((await api.post(`/claims/${claim.id}/vote`, { value: 0.6 }, { token: v.token })).status).toBe(200);
    }
    expect((await api.post(`/claims/${claims[0].id}/comments`, { content: "Seen it." }, { token: voters[0].token })).status).toBe(201);
    // The follower's own vote is not news to them.
    expect((await api.post(`/claims/${claims[1].id}/vote`, { value: 0.2 }, { token: hooked.token })).status).toBe(200);
    await startBackground();

    const expected = [
      ...claims.flatMap((c) => voters.map((v) => `claim.voted ${c.id} ${v.id}`)),
      `claim.commented ${claims[0].id} ${voters[0].id}`,
    ].sort();
    await r.waitFor((all) => all.length >= expected.length);
    await eventually(async () => {
      const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`;
      return row.n === 0;
    });
    // A second fan-out of the same events (a job run twice) adds nothing.
    const ids = (await readSql<{ id: string }>`SELECT id::text AS id FROM outbox_events WHERE id > ${after}::bigint`).map((e) => e.id);
    expect(await fanOutEvents(ids, enqueueDeliveries)).toEqual({ recipients: 0, deliveries: [] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received.every((m) => m.verified)).toBe(true);
    expect(r.received.map((m) => `${m.body.type} ${m.body.data.claim.id} ${m.body.data.actor_id}`).sort()).toEqual(expected);
    expect(new Set(r.received.map((m) => m.id)).size).toBe(expected.length);

    const threads = async (agent: Voter) => {
      const res = await api.get("/notifications", { token: agent.token });
      expect(res.status, res.text).toBe(200);
      return Object.fromEntries(res.body.notifications.map((n: any) => [n.claim.id, n.reasons]));
    };
    expect(await threads(hooked)).toEqual({
      [claims[0].id]: { votes: 3, evidence: 0, comments: 1, resolved: 0, arguments: 0, outcomes: 0 },
      [claims[1].id]: { votes: 3, evidence: 0, comments: 0, resolved: 0, arguments: 0, outcomes: 0 },
    });
    expect(await threads(quiet)).toEqual({ [claims[0].id]: { votes: 0, evidence: 0, comments: 1, resolved: 0, arguments: 0, outcomes: 0 } });
  });
});
