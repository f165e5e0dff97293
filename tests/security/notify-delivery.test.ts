// Delivery of followers' updates across crashes and instances (docs/features/following.md; PostgreSQL only — on
// PGlite the database lives inside the one process):
//   - kill -9 of the API process in the middle of a write storm: after a new process starts on the same
//     database, every write that was acknowledged has its event delivered to the follower's webhook and
//     counted in the follower's inbox;
//   - two API processes on one PostgreSQL, both running the relay and the workers: N events reach the
//     receiver as exactly N messages, each attempted once (no duplicate webhook-id, one attempt-1 row each).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbReady, readSql } from "../../server/db/client.ts";
import { callApi, kill9, startApiProcess, type ApiProcess } from "../helpers/api-process.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";
import { quickAgents, type Voter } from "../api/claims-fixtures.ts";

const onPostgres = !!process.env.DATABASE_URL;
const SERVER_ENV = { WEBHOOK_ALLOW_PRIVATE: "1", WEBHOOK_RETRY_BASE_MS: "200" };
const CLAIM_EVENTS = ["claim.voted", "claim.evidence_added", "claim.commented", "claim.resolved"];

/** A follower of `claims` with a webhook to `receiver` (through `server`). */
async function followWithWebhook(server: ApiProcess, follower: Voter, claims: string[], receiver: Receiver) {
  for (const id of claims) expect((await callApi(server, "POST", `/claims/${id}/follow`, follower.token)).status).toBe(200);
  const hook = await callApi(server, "POST", "/webhooks", follower.token, { url: receiver.url, events: CLAIM_EVENTS });
  expect(hook.status, hook.text).toBe(201);
  receiver.secret = hook.body.secret;
}

async function newClaims(server: ApiProcess, author: Voter, n: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await callApi(server, "POST", "/claims", author.token, { statement: `${label} claim number ${i} ${randomUUID()}` });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

/** Distinct messages received (a retry repeats its webhook-id). */
function messages(receiver: Receiver) {
  const byId = new Map<string, (typeof receiver.received)[number]>();
  for (const r of receiver.received) if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}

describe.skipIf(!onPostgres)("follower updates across crashes and instances (PostgreSQL)", () => {
  const started: ApiProcess[] = [];
  const receivers: Receiver[] = [];
  beforeAll(() => dbReady());
  afterAll(async () => {
    for (const s of started) await kill9(s);
    for (const r of receivers) await r.close();
  });

  async function start() {
    const server = await startApiProcess(SERVER_ENV);
    started.push(server);
    return server;
  }

  it("kill -9 mid-storm: every acknowledged write's event reaches the webhook and the inbox", { timeout: 400_000 }, async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const first = await start();
    const [author, follower, ...actors] = await quickAgents(14);
    const claims = await newClaims(first, author, 3, "Crash-delivery");
    await followWithWebhook(first, follower, claims, receiver);

    type Ack = { kind: "vote"; actor: string; claimId: string } | { kind: "comment"; actor: string; claimId: string; commentId: string };
    const acked: Ack[] = [];
    const KILL_AFTER = 120;
    let killed: Promise<void> | undefined;
    await Promise.all(
      actors.map(async (actor, i) => {
        for (let step = 0; step < 200 && !killed; step++) {
          const claimId = claims[(i + step) % claims.length];
          const comment = step % 3 === 2;
          let res;
          try {
            res = comment
              ? await callApi(first, "POST", `/claims/${claimId}/comments`, actor.token, { content: `Storm comment ${randomUUID()}` })
              : await callApi(first, "POST", `/claims/${claimId}/vote`, actor.token, { value: ((i * 7 + step) % 11) / 10 });
          } catch {
            return; // the process is gone: this write is unanswered
          }
          if (res.status >= 300) continue; // refused (a resolved claim, say): nothing acknowledged
          acked.push(comment ? { kind: "comment", actor: actor.id, claimId, commentId: res.body.id } : { kind: "vote", actor: actor.id, claimId });
          if (acked.length >= KILL_AFTER && !killed) killed = kill9(first);
        }
      }),
    );
    await killed;
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // A new process on the same database picks up whatever the killed one had not relayed or delivered.
    await start();
    const votesBy = (list: Ack[]) => {
      const counts = new Map<string, number>();
      for (const a of list) if (a.kind === "vote") counts.set(`${a.actor}|${a.claimId}`, (counts.get(`${a.actor}|${a.claimId}`) ?? 0) + 1);
      return counts;
    };
    const wantedVotes = votesBy(acked);
    const wantedComments = acked.filter((a) => a.kind === "comment").map((a) => (a as { commentId: string }).commentId);
    const missing = () => {
      const got = messages(receiver);
      const gotVotes = new Map<string, number>();
      for (const m of got) {
        if (m.body?.type !== "claim.voted") continue;
        const key = `${m.body.data.actor_id}|${m.body.data.claim.id}`;
        gotVotes.set(key, (gotVotes.get(key) ?? 0) + 1);
      }
      const gotComments = new Set(got.filter((m) => m.body?.type === "claim.commented").map((m) => m.body.data.comment?.id));
      const votes = [...wantedVotes].filter(([key, n]) => (gotVotes.get(key) ?? 0) < n).map(([key]) => key);
      const comments = wantedComments.filter((id) => !gotComments.has(id));
      return [...votes, ...comments];
    };
    // A job the killed process held is retried once it expires (60 s) at the next maintenance (every 30 s).
    await eventually(async () => missing().length === 0, 180_000).catch(async () => {
      const stuck = await readSql`
        SELECT id::text, type, relayed_at, fanned_out_at, comment_id::text FROM outbox_events WHERE fanned_out_at IS NULL LIMIT 5`;
      const pending = await readSql`SELECT message_id, attempt, status, error FROM webhook_deliveries WHERE status <> 'succeeded' LIMIT 5`;
      throw new Error(
        `acknowledged writes never delivered: ${missing().join(", ")}; unfanned events ${JSON.stringify(stuck)}; unsucceeded deliveries ${JSON.stringify(pending)}`,
      );
    });
    expect(receiver.received.every((r) => r.verified)).toBe(true);

    // The inbox counted at least every acknowledged write (an unanswered one may have committed too).
    await eventually(async () => {
      const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM outbox_events WHERE fanned_out_at IS NULL`;
      return row.n === 0;
    }, 60_000);
    const inbox = await readSql<{ claim_id: string; votes: number; comments: number }>`
      SELECT claim_id::text AS claim_id, votes, comments FROM notifications WHERE agent_id = ${follower.id}::uuid`;
    for (const claimId of claims) {
      const row = inbox.find((r) => r.claim_id === claimId);
      const votes = acked.filter((a) => a.claimId === claimId && a.kind === "vote").length;
      const comments = acked.filter((a) => a.claimId === claimId && a.kind === "comment").length;
      expect(row?.votes ?? 0, `votes on ${claimId}`).toBeGreaterThanOrEqual(votes);
      expect(row?.comments ?? 0, `comments on ${claimId}`).toBeGreaterThanOrEqual(comments);
    }
  });

  it("two processes on one database deliver each message exactly once", { timeout: 300_000 }, async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const [a, b] = await Promise.all([start(), start()]);
    const [author, follower, ...voters] = await quickAgents(42);
    const claims = await newClaims(a, author, 2, "Exactly-once");
    await followWithWebhook(b, follower, claims, receiver);
    const [hook] = await readSql<{ id: string }>`SELECT id::text AS id FROM webhooks WHERE agent_id = ${follower.id}::uuid`;

    // N votes, taken by both processes in turn, concurrently.
    const results = await Promise.all(
      voters.map((v, i) => callApi(i % 2 ? a : b, "POST", `/claims/${claims[i % claims.length]}/vote`, v.token, { value: (i % 5) / 4 })),
    );
    const acknowledged = results.filter((r) => r.status === 200).length;
    expect(acknowledged).toBe(voters.length);
    const expected = await readSql<{ n: number }>`
      SELECT count(*)::int AS n FROM outbox_events WHERE claim_id = ANY(${claims}::uuid[]) AND actor_id IS DISTINCT FROM ${follower.id}::uuid`;
    const n = expected[0].n; // the votes, plus any resolution they caused
    expect(n).toBeGreaterThanOrEqual(voters.length);

    await receiver.waitFor((all) => all.length >= n, 60_000);
    // Give a duplicate the time to show up, were there one: until every delivery has settled.
    await eventually(async () => {
      const [row] = await readSql<{ n: number }>`
        SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${hook.id}::uuid AND status = 'pending'`;
      return row.n === 0;
    }, 60_000);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(n);
    expect(ids.length).toBe(n);
    const attempts = await readSql<{ message_id: string; attempts: number; firsts: number }>`
      SELECT message_id, count(*)::int AS attempts, count(*) FILTER (WHERE attempt = 1)::int AS firsts
      FROM webhook_deliveries WHERE webhook_id = ${hook.id}::uuid GROUP BY message_id`;
    expect(attempts).toHaveLength(n);
    expect(attempts.every((r) => r.attempts === 1 && r.firsts === 1)).toBe(true);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });
});
