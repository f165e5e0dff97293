// Outcome events (docs/features/checks.md#notifications) over real HTTP: a follower's inbox thread and
// a webhook receiver (verifying Standard Webhooks signatures) hear of a check's proposal and of its
// outcome becoming final — by the background jobs, with a second instance's outcomes task running
// too, once; a dispute and a moderator's settlement likewise; the one who acted hears nothing of their
// own step. The claim's voters hear of every step without following it: a current voter, one whose
// vote was removed after close_at (still scored), a voter who follows too (one thread, one delivery
// each); not one whose vote was removed before close_at. With more followers and voters than a fan-out
// batch, the walk resumes after a crash's last batch and tells each of them once. PGlite by default,
// PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  // A dispute window of a second, so the outcomes task runs every second.
  process.env.OUTCOME_DISPUTE_SECONDS = "1";
});

import { randomUUID } from "node:crypto";
import { startApi, type TestApi } from "../helpers/api.ts";
import { sleep } from "../helpers/time.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";
import { db, readSql } from "../../server/db/client.ts";
import { FANOUT_BATCH, fanOutEvents } from "../../server/services/notifications.ts";
import { BACKGROUND_TASKS, startBackground, stopBackground } from "../../server/jobs/index.ts";
import { startRunner, type Runner } from "../../server/jobs/runner.ts";
import { quickAgent, setReputation, type Voter } from "./claims-fixtures.ts";

const OUTCOME_EVENTS = ["claim.outcome_proposed", "claim.outcome_disputed", "claim.outcome_final"];

let api: TestApi;
let author: Voter;
let moderator: Voter;
const receivers: Receiver[] = [];
/** A second instance's runner of the outcomes task, beside the background's own (one job queue per process: stopped last). */
let second: Runner;
beforeAll(async () => {
  api = await startApi();
  await startBackground();
  second = await startRunner([BACKGROUND_TASKS.find((t) => t.name === "outcomes")!]);
  author = await quickAgent();
  moderator = await quickAgent();
  await readSql`UPDATE agents SET role = 'moderator' WHERE id = ${moderator.id}::uuid`;
});
afterAll(async () => {
  await stopBackground();
  await second.stop();
  await Promise.all(receivers.map((r) => r.close()));
  await api.close();
});


/** An account with standing and `reputation`. */
async function able(reputation: number): Promise<Voter> {
  const agent = await quickAgent();
  await setReputation(agent.id, reputation);
  await readSql`UPDATE agents SET standing = true WHERE id = ${agent.id}::uuid`;
  return agent;
}

/** A webhook of `agent` subscribed to the outcome events. */
async function hookOf(agent: Voter): Promise<Receiver> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const hook = await api.post("/webhooks", { url: receiver.url, events: OUTCOME_EVENTS, description: "outcomes" }, { token: agent.token });
  expect(hook.status, hook.text).toBe(201);
  receiver.secret = hook.body.secret;
  return receiver;
}

/** An account following `claimId` with a webhook subscribed to the outcome events. */
async function listener(claimId: string): Promise<{ agent: Voter; receiver: Receiver }> {
  const agent = await quickAgent();
  const receiver = await startReceiver();
  receivers.push(receiver);
  const hook = await api.post("/webhooks", { url: receiver.url, events: OUTCOME_EVENTS, description: "outcomes" }, { token: agent.token });
  expect(hook.status, hook.text).toBe(201);
  receiver.secret = hook.body.secret;
  expect([200, 201, 204]).toContain((await api.post(`/claims/${claimId}/follow`, undefined, { token: agent.token })).status);
  return { agent, receiver };
}

/**
 * A claim created over REST with a check due in `dueMs` (closing then too), once it is awaiting its
 * outcome; `beforeClose` runs first, while votes are still scored.
 */
async function awaitingClaim(dueMs = 2_500, beforeClose?: (claimId: string) => Promise<void>): Promise<string> {
  const res = await api.post(
    "/claims",
    {
      statement: `Global sea level rose more than 4 mm in 2026 (${randomUUID()})`,
      check: { criteria: "NOAA's annual climate report for 2026 states a rise above 4 mm", check_at: new Date(Date.now() + dueMs).toISOString() },
    },
    { token: author.token },
  );
  expect(res.status, res.text).toBe(201);
  if (beforeClose) {
    await beforeClose(res.body.id);
    // Done before close_at, or this machine was too slow for the window.
    expect(Date.now()).toBeLessThan(new Date(res.body.check.close_at).getTime());
  }
  await sleep(Math.max(0, new Date(res.body.check.check_at).getTime() - Date.now() + 100));
  return res.body.id;
}

async function vote(agent: Voter, claimId: string, value: number) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: agent.token });
  expect(res.status, res.text).toBe(200);
}

async function unvote(agent: Voter, claimId: string) {
  const res = await api.del(`/claims/${claimId}/vote`, { token: agent.token });
  expect([200, 204], res.text).toContain(res.status);
}

async function thread(agent: Voter, claimId: string) {
  const res = await api.get("/notifications?limit=100", { token: agent.token });
  expect(res.status, res.text).toBe(200);
  return res.body.notifications.find((n: { claim: { id: string } }) => n.claim.id === claimId);
}

/** The event types received, in the order the events happened (deliveries may overtake each other). */
const types = (r: Receiver) => r.received.map((x) => x.body.type).sort((a, b) => OUTCOME_EVENTS.indexOf(a) - OUTCOME_EVENTS.indexOf(b));
const got = (r: Receiver, type: string) => r.received.find((x) => x.body.type === type)!;

describe("outcome events", () => {
  it("a proposal and its undisputed outcome reach a follower's inbox and webhook once, with two instances' outcomes tasks", { timeout: 60_000 }, async () => {
    const claimId = await awaitingClaim();
    const { agent: follower, receiver } = await listener(claimId);
    const proposer = await able(12);
    // The proposer follows and listens too: told of the final outcome, not of their own proposal.
    const ownHook = await startReceiver();
    receivers.push(ownHook);
    const own = await api.post("/webhooks", { url: ownHook.url, events: OUTCOME_EVENTS }, { token: proposer.token });
    ownHook.secret = own.body.secret;
    await api.post(`/claims/${claimId}/follow`, undefined, { token: proposer.token });

    const proposed = await api.post(
      `/claims/${claimId}/outcome`,
      { outcome: "true", evidence_url: "https://example.org/report", note: "The report states 4.3 mm" },
      { token: proposer.token },
    );
    expect(proposed.status, proposed.text).toBe(200);

    await receiver.waitFor((all) => all.length >= 2, 20_000);
    const first = got(receiver, "claim.outcome_proposed");
    expect(first.verified).toBe(true);
    expect(first.body).toMatchObject({
      type: "claim.outcome_proposed",
      data: { claim: { id: claimId, check: { state: "proposed", proposal: { outcome: "true" } } }, actor_id: proposer.id },
    });
    // More periods of both runners: nothing more is sent.
    await sleep(2_500);
    expect(types(receiver)).toEqual(["claim.outcome_proposed", "claim.outcome_final"]);
    expect(receiver.received.every((x) => x.verified)).toBe(true);
    expect(got(receiver, "claim.outcome_final").body).toMatchObject({ data: { claim: { id: claimId, check: { state: "final", outcome: "true" } }, actor_id: null } });
    expect(types(ownHook)).toEqual(["claim.outcome_final"]);

    const inbox = await eventually(async () => {
      const t = await thread(follower, claimId);
      return t?.reasons.outcomes === 2 ? t : null;
    });
    expect(inbox).toMatchObject({ unread: true, source: "claim", actor: null, reasons: { votes: 0, evidence: 0, comments: 0, resolved: 0, arguments: 0, outcomes: 2 } });
    expect((await thread(proposer, claimId))?.reasons.outcomes).toBe(1);
    const [{ n }] = await readSql<{ n: number }>`
      SELECT count(*)::int AS n FROM outbox_events WHERE claim_id = ${claimId}::uuid AND type = 'claim.outcome_final'`;
    expect(n).toBe(1);
  });

  it("a dispute and a moderator's settlement reach a follower's inbox and webhook, the actor named", { timeout: 60_000 }, async () => {
    const claimId = await awaitingClaim();
    const { agent: follower, receiver } = await listener(claimId);
    const proposer = await able(10);
    const disputer = await able(5);
    // A window long enough for the dispute: the proposal's deadline is pushed out by hand.
    const proposed = await api.post(`/claims/${claimId}/outcome`, { outcome: "true", evidence_url: "https://example.org/report", note: "4.3 mm" }, { token: proposer.token });
    expect(proposed.status, proposed.text).toBe(200);
    await readSql`UPDATE claim_checks SET dispute_deadline = now() + interval '1 hour' WHERE claim_id = ${claimId}::uuid`;
    const disputed = await api.post(`/claims/${claimId}/outcome/dispute`, { reason: "The figure is for 2025", evidence_url: "https://example.org/2025" }, { token: disputer.token });
    expect(disputed.status, disputed.text).toBe(200);
    await receiver.waitFor((all) => all.length >= 2);
    const settled = await api.post(`/moderation/claims/${claimId}/outcome`, { outcome: "false", reason: "The report gives 3.9 mm for 2026" }, { token: moderator.token });
    expect(settled.status, settled.text).toBe(200);
    await receiver.waitFor((all) => all.length >= 3);
    await sleep(1_500);
    expect(types(receiver)).toEqual(["claim.outcome_proposed", "claim.outcome_disputed", "claim.outcome_final"]);
    expect(got(receiver, "claim.outcome_disputed").body).toMatchObject({ data: { claim: { check: { state: "disputed" } }, actor_id: disputer.id } });
    expect(got(receiver, "claim.outcome_final").body).toMatchObject({ data: { claim: { check: { state: "final", outcome: "false" } }, actor_id: moderator.id } });
    const inbox = await eventually(async () => {
      const t = await thread(follower, claimId);
      return t?.reasons.outcomes === 3 ? t : null;
    });
    expect(inbox.actor).toMatchObject({ id: moderator.id });
  });

  it("every step reaches the claim's voters who do not follow it, once for a voter who follows, never the one who took it", { timeout: 90_000 }, async () => {
    // Everyone exists before the claim: its window (seconds) holds only the votes.
    const voter = await quickAgent();
    const gone = await quickAgent();
    const early = await quickAgent();
    const both = await quickAgent();
    const proposer = await able(12);
    const disputer = await able(5);
    const hooks = {
      voter: await hookOf(voter),
      gone: await hookOf(gone),
      early: await hookOf(early),
      both: await hookOf(both),
      proposer: await hookOf(proposer),
      disputer: await hookOf(disputer),
      moderator: await hookOf(moderator),
    };
    const claimId = await awaitingClaim(4_000, async (id) => {
      await vote(voter, id, 0.8);
      await vote(gone, id, 0.7);
      await vote(early, id, 0.4);
      await unvote(early, id);
      await vote(both, id, 0.3);
      await api.post(`/claims/${id}/follow`, undefined, { token: both.token });
      // Those who take the steps voted too: each is told of the others' steps only.
      await vote(proposer, id, 0.9);
      await vote(disputer, id, 0.2);
      await vote(moderator, id, 0.5);
    });
    // Removed after close_at: the vote is still scored, so its voter is still told.
    await unvote(gone, claimId);
    expect((await api.get(`/claims/${claimId}`)).body.vote_count).toBe(5);

    const proposed = await api.post(`/claims/${claimId}/outcome`, { outcome: "true", evidence_url: "https://example.org/report", note: "4.3 mm" }, { token: proposer.token });
    expect(proposed.status, proposed.text).toBe(200);
    await readSql`UPDATE claim_checks SET dispute_deadline = now() + interval '1 hour' WHERE claim_id = ${claimId}::uuid`;
    await hooks.voter.waitFor((all) => all.length >= 1, 20_000);
    const disputed = await api.post(`/claims/${claimId}/outcome/dispute`, { reason: "The figure is for 2025", evidence_url: "https://example.org/2025" }, { token: disputer.token });
    expect(disputed.status, disputed.text).toBe(200);
    await hooks.voter.waitFor((all) => all.length >= 2, 20_000);
    const settled = await api.post(`/moderation/claims/${claimId}/outcome`, { outcome: "false", reason: "The report gives 3.9 mm for 2026" }, { token: moderator.token });
    expect(settled.status, settled.text).toBe(200);

    const all = ["claim.outcome_proposed", "claim.outcome_disputed", "claim.outcome_final"];
    for (const r of [hooks.voter, hooks.gone, hooks.both]) await r.waitFor((got) => got.length >= 3, 20_000);
    await hooks.proposer.waitFor((got) => got.length >= 2, 20_000);
    await hooks.disputer.waitFor((got) => got.length >= 2, 20_000);
    await hooks.moderator.waitFor((got) => got.length >= 2, 20_000);
    // The fan-out has had its time: nothing more arrives, nothing twice.
    await sleep(2_000);
    expect(types(hooks.voter)).toEqual(all);
    expect(types(hooks.gone)).toEqual(all);
    expect(types(hooks.both)).toEqual(all);
    expect(types(hooks.early)).toEqual([]);
    expect(types(hooks.proposer)).toEqual(["claim.outcome_disputed", "claim.outcome_final"]);
    expect(types(hooks.disputer)).toEqual(["claim.outcome_proposed", "claim.outcome_final"]);
    expect(types(hooks.moderator)).toEqual(["claim.outcome_proposed", "claim.outcome_disputed"]);
    expect(hooks.voter.received.every((x) => x.verified)).toBe(true);
    expect(got(hooks.voter, "claim.outcome_final").body).toMatchObject({
      data: { claim: { id: claimId, check: { state: "final", outcome: "false" } }, actor_id: moderator.id },
    });

    // The inbox: one thread each, counting the steps they did not take; a voter who does not follow
    // hears of nothing else (no votes), the one who follows of the later votes too.
    const outcomes = async (agent: Voter) => (await thread(agent, claimId))?.reasons.outcomes ?? 0;
    const threads = [];
    for (const agent of [voter, gone, both]) {
      threads.push(
        await eventually(async () => {
          const found = await thread(agent, claimId);
          return found?.reasons.outcomes === 3 ? found : null;
        }),
      );
    }
    for (const t of threads.slice(0, 2)) {
      expect(t).toMatchObject({ unread: true, source: "claim", reasons: { votes: 0, evidence: 0, comments: 0, resolved: 0, arguments: 0, outcomes: 3 } });
    }
    expect(threads[2]).toMatchObject({ unread: true, reasons: { outcomes: 3 } });
    expect(threads[2].reasons.votes).toBeGreaterThan(0);
    expect(await outcomes(proposer)).toBe(2);
    expect(await outcomes(disputer)).toBe(2);
    expect(await outcomes(moderator)).toBe(2);
    expect(await thread(early, claimId)).toBeUndefined();
    const inbox = await api.get("/notifications?limit=100", { token: both.token });
    expect(inbox.body.notifications.filter((n: { claim: { id: string } }) => n.claim.id === claimId)).toHaveLength(1);
  });

  it("with more voters and followers than two fan-out batches, a walk resumed after a crash tells each of them once", { timeout: 90_000 }, async () => {
    const claimId = await awaitingClaim();
    // Only the accounts made below: the author, who follows their claim from the start, stops.
    expect((await api.del(`/claims/${claimId}/follow`, { token: author.token })).status).toBe(204);
    const tag = claimId.slice(0, 8);
    // Straight into the tables: the API paths of voting and following are tested above; here the numbers
    // matter. 1040 voters, the first 100 of them following too; 30 followers who did not vote; 20 whose
    // vote was removed after close_at (kept at close).
    await db().$executeRaw`
      INSERT INTO agents (id, username, username_key, display_name, email, updated_at)
      SELECT gen_random_uuid(), 'crowd_' || n || '_' || ${tag}, 'crowd_' || n || '_' || ${tag}, 'Crowd ' || n,
             'crowd_' || n || '_' || ${tag} || '@example.test', now()
      FROM generate_series(1, ${2 * FANOUT_BATCH + 40 + 30 + 20}) AS n`;
    const crowd = (await readSql<{ id: string }>`
      SELECT id::text AS id FROM agents WHERE username LIKE ${`crowd_%_${tag}`} ORDER BY username`).map((r) => r.id);
    const voters = crowd.slice(0, 2 * FANOUT_BATCH + 40);
    const followers = [...voters.slice(0, 100), ...crowd.slice(voters.length, voters.length + 30)];
    const kept = crowd.slice(voters.length + 30);
    await db().$executeRaw`
      INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, updated_at)
      SELECT gen_random_uuid(), ${claimId}::uuid, a, 0.7, 1, now() FROM unnest(${voters}::uuid[]) AS a`;
    await db().$executeRaw`INSERT INTO follows (agent_id, claim_id, updated_at) SELECT a, ${claimId}::uuid, now() FROM unnest(${followers}::uuid[]) AS a`;
    await db().$executeRaw`INSERT INTO check_votes_at_close (claim_id, agent_id, value) SELECT ${claimId}::uuid, a, 0.4 FROM unnest(${kept}::uuid[]) AS a`;
    const audience = [...new Set([...voters, ...followers, ...kept])].sort();
    expect(audience).toHaveLength(crowd.length);

    await stopBackground();
    const proposer = await able(12);
    const proposed = await api.post(`/claims/${claimId}/outcome`, { outcome: "true", evidence_url: "https://example.org/report", note: "4.3 mm" }, { token: proposer.token });
    expect(proposed.status, proposed.text).toBe(200);
    // A long window: the outcome stays proposed, one event.
    await readSql`UPDATE claim_checks SET dispute_deadline = now() + interval '1 hour' WHERE claim_id = ${claimId}::uuid`;
    // The walk had committed its first batch when its worker died: it resumes after it.
    const [event] = await readSql<{ id: string }>`
      SELECT id::text AS id FROM outbox_events WHERE claim_id = ${claimId}::uuid AND type = 'claim.outcome_proposed'`;
    await readSql`UPDATE outbox_events SET fanout_cursor = ${audience[FANOUT_BATCH - 1]}::uuid WHERE id = ${event.id}::bigint`;
    await startBackground();
    await eventually(async () => {
      const [row] = await readSql<{ done: boolean }>`SELECT fanned_out_at IS NOT NULL AS done FROM outbox_events WHERE id = ${event.id}::bigint`;
      return row.done;
    }, 30_000);

    const threads = await readSql<{ agent_id: string; outcomes: number }>`
      SELECT agent_id::text AS agent_id, outcomes FROM notifications WHERE claim_id = ${claimId}::uuid`;
    const outcomesOf = new Map(threads.map((t) => [t.agent_id, t.outcomes]));
    // Up to the cursor the dead walk had told them (not again); after it, each once, in two batches.
    expect(audience.slice(0, FANOUT_BATCH).some((id) => outcomesOf.has(id))).toBe(false);
    expect(audience.slice(FANOUT_BATCH).every((id) => outcomesOf.get(id) === 1)).toBe(true);
    expect(threads).toHaveLength(audience.length - FANOUT_BATCH);
    // Running the same job again adds nothing.
    expect(await fanOutEvents([event.id], async () => {})).toEqual({ recipients: 0, deliveries: [] });
  });
});
