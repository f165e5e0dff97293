// Outcome events (docs/features/checks.md#notifications) over real HTTP: a follower's inbox thread and
// a webhook receiver (verifying Standard Webhooks signatures) hear of a check's proposal and of its
// outcome becoming final — by the background jobs, with a second instance's outcomes task running
// too, once; a dispute and a moderator's settlement likewise; the one who acted hears nothing of their
// own step. PGlite by default, PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "1";
  // A dispute window of a second, so the outcomes task runs every second.
  process.env.OUTCOME_DISPUTE_SECONDS = "1";
});

import { randomUUID } from "node:crypto";
import { startApi, type TestApi } from "../helpers/api.ts";
import { eventually, startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";
import { readSql } from "../../server/db/client.ts";
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An account with standing and `reputation`. */
async function able(reputation: number): Promise<Voter> {
  const agent = await quickAgent();
  await setReputation(agent.id, reputation);
  await readSql`UPDATE agents SET standing = true WHERE id = ${agent.id}::uuid`;
  return agent;
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

/** A claim created over REST with a check due in a second and a half, once it is awaiting its outcome. */
async function awaitingClaim(): Promise<string> {
  const res = await api.post(
    "/claims",
    {
      statement: `Global sea level rose more than 4 mm in 2026 (${randomUUID()})`,
      check: { criteria: "NOAA's annual climate report for 2026 states a rise above 4 mm", check_at: new Date(Date.now() + 1_500).toISOString() },
    },
    { token: author.token },
  );
  expect(res.status, res.text).toBe(201);
  await sleep(Math.max(0, new Date(res.body.check.check_at).getTime() - Date.now() + 100));
  return res.body.id;
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
});
