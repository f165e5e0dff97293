// Standing (docs/features/consensus.md#standing) with the default settings: only votes of accounts
// with standing decide a claim's status. Accounts that cost nothing — fresh, unverified, automated —
// cannot move a claim at consensus; an account that earns standing moves the counts of every claim it
// voted on, exactly, and loses it again when suspended; with the default age a verified account with
// five votes waits a day; concurrent votes leave the counts exact. Through the REST adapter, the
// mailed verification link and the moderation endpoints, on PGlite or PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAgent, startApi, type TestApi } from "../helpers/api.ts";
import { afterSignUpMail, startSmtpSink, tokenIn, type SmtpSink } from "../helpers/smtp-sink.ts";
import { db } from "../../server/db/client.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { applyStandingRule, configuredRule, drainAllStanding, drainStanding } from "../../server/services/standing.ts";
import { standingOf, type StandingRule } from "../../server/domain/standing.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

// The defaults (tests/setup.ts gives every other file the open rule).
vi.hoisted(() => {
  process.env.STANDING_MIN_AGE_SECONDS = "86400";
  process.env.STANDING_MIN_VOTES = "5";
  process.env.STANDING_REQUIRE_VERIFIED = "true";
});

const DAY = 86_400_000;

let api: TestApi;
let smtp: SmtpSink;
let author: Voter;
let moderator: { token: string };
/** Claims whose votes give their voters the five current votes standing asks for. */
let fillers: string[];

beforeAll(async () => {
  smtp = await startSmtpSink();
  process.env.SMTP_URL = smtp.url;
  api = await startApi();
  // What the background task does at start: the configured rule is stored (it was the open rule).
  await applyStandingRule();
  await drainAllStanding();
  author = await quickAgent();
  fillers = [];
  for (let i = 0; i < 5; i++) fillers.push((await newClaim(api, author.token, { tags: ["standing-filler"] })).id);
  const admin = await createAgent(api);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
  moderator = admin;
}, 180_000);
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

interface Person extends Voter {
  email: string;
}

/** An account made in the database: `verified` or not, created `ageDays` ago. */
async function person({ verified, ageDays }: { verified: boolean; ageDays: number }): Promise<Person> {
  const username = `s_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const email = `${username}@example.test`;
  const agent = await db().agent.create({
    data: {
      username,
      usernameKey: username,
      displayName: username,
      email,
      emailVerified: verified ? new Date() : null,
      createdAt: new Date(Date.now() - ageDays * DAY),
    },
    select: { id: true },
  });
  return { id: agent.id, token: (await issueTokenPair(agent.id)).access_token, email };
}

/** An automated account registered with one call, as an agent would (POST /auth/register). */
async function automatedAccount(): Promise<Voter> {
  const username = `bot_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const email = `${username}@example.test`;
  const reg = await api.post("/auth/register", { email, password: "Password123", username, automated: true });
  expect(reg.status, reg.text).toBe(201);
  const login = await api.post("/auth/login", { email, password: "Password123" });
  return { id: reg.body.id, token: login.body.access_token };
}

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Five current votes: the number standing asks for. */
async function fiveVotes(who: Voter, value = 0.5) {
  for (const id of fillers) await vote(id, value, who);
}

const claimOf = async (id: string) => {
  const res = await api.get(`/claims/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const standingOfAgent = async (who: Voter) => (await api.get("/auth/me", { token: who.token })).body.standing as boolean;

/** Six accounts with standing (verified, two days old, five votes each), restated. */
async function elders(n = 6): Promise<Person[]> {
  const people: Person[] = [];
  for (let i = 0; i < n; i++) {
    const p = await person({ verified: true, ageDays: 2 });
    await fiveVotes(p);
    people.push(p);
  }
  await drainAllStanding();
  for (const p of people) expect(await standingOfAgent(p)).toBe(true);
  return people;
}

/** A claim six elders rate false (≈0.05): consensus_false by the votes alone. */
async function falseClaim(voters: Voter[]) {
  const claim = await newClaim(api, author.token, { tags: ["standing"] });
  for (const [i, v] of voters.entries()) await vote(claim.id, 0.03 + (i % 3) * 0.02, v);
  return claim.id;
}

describe("accounts that cost nothing", () => {
  it("do not move a claim at consensus: one automated account, then 15 fresh unverified and 15 automated ones", async () => {
    const six = await elders();
    const id = await falseClaim(six);
    const before = await claimOf(id);
    expect(before.consensus).toMatchObject({ status: "consensus_false", decided_by: "votes", voters: 6, not_counted: { people: 0, automated: 0 } });
    expect(before.agents).toEqual({ voters: 0, gradient: null, histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });

    // The issue's account: registered with one call, automated, voting 0.95.
    const bot = await automatedAccount();
    const afterOne = await vote(id, 0.95, bot);
    expect(afterOne.consensus).toMatchObject({ status: "consensus_false", voters: 6, since: before.consensus.since, not_counted: { people: 0, automated: 1 } });
    expect(afterOne.agents).toMatchObject({ voters: 1, gradient: 0.95 });

    for (let i = 0; i < 15; i++) await vote(id, 1, await person({ verified: false, ageDays: 0 }));
    for (let i = 0; i < 14; i++) await vote(id, 1, await automatedAccount());
    await drainAllStanding();
    const after = await claimOf(id);
    expect(after.consensus.status).toBe("consensus_false");
    expect(after.consensus.since).toBe(before.consensus.since);
    expect(after.consensus.voters).toBe(6);
    expect(after.consensus.histogram).toEqual(before.consensus.histogram);
    expect(after.consensus.gradient).toBe(before.consensus.gradient);
    expect(after.consensus.not_counted).toEqual({ people: 15, automated: 15 });
    expect(after.agents.voters).toBe(15);
    expect(after.agents.gradient).toBeGreaterThanOrEqual(0.95);
    expect(after.agents.histogram.reduce((a: number, b: number) => a + b, 0)).toBe(15);
    // Every vote is still in the gradient, which the crowd of new accounts carried far up.
    expect(after.vote_count).toBe(36);
    expect(after.gradient).toBeGreaterThan(before.gradient + 0.5);
    // Why they do not count: the page's line reads these.
    expect(after.not_counted_reasons).toEqual({ suspended: 0, unverified: 15, too_new: 0, too_few_votes: 0, restating: 0 });
    // The list's filter and the statistic read the stored status.
    const list = await api.get(`/claims?consensus=consensus_false&tags=standing&limit=100`);
    expect(list.body.claims.map((c: { id: string }) => c.id)).toContain(id);
    expect(await checkInvariants()).toEqual([]);
  }, 240_000);
});

describe("an account that earns standing", () => {
  it("moves the counts of every claim it voted on once it verifies and has five votes; suspension takes it out again", async () => {
    const six = await elders();
    const claims: string[] = [];
    for (let i = 0; i < 5; i++) claims.push(await falseClaim(six));
    const newcomer = await createAgent(api); // registered with a password: not verified
    await db().agent.update({ where: { id: newcomer.id }, data: { createdAt: new Date(Date.now() - 2 * DAY) } });
    for (const id of claims) await vote(id, 0.15, newcomer);
    await drainAllStanding();
    expect(await standingOfAgent(newcomer)).toBe(false);
    const before = await Promise.all(claims.map(claimOf));
    for (const c of before) {
      expect(c.consensus).toMatchObject({ voters: 6, not_counted: { people: 1, automated: 0 } });
      expect(c.not_counted_reasons.unverified).toBe(1);
    }

    // The mailed link verifies the address: the account gains standing, and each of its five votes counts.
    const since = await afterSignUpMail(smtp, newcomer.email);
    expect((await api.post("/auth/email/verify", undefined, { token: newcomer.token })).status).toBe(202);
    const token = tokenIn(await smtp.waitForMail(newcomer.email, { subject: /Verify your email/, since }), "/verify-email");
    expect((await api.post("/auth/email/verify/confirm", { token })).status).toBe(204);
    // Others vote while the job restates it: both take the claim rows in turn.
    const others = await Promise.all([0, 1].map(() => person({ verified: false, ageDays: 0 })));
    await Promise.all([drainAllStanding(), ...claims.map((id, i) => vote(id, 0.2 + i * 0.01, others[i % 2]))]);
    await drainAllStanding();
    expect(await standingOfAgent(newcomer)).toBe(true);
    const gained = await Promise.all(claims.map(claimOf));
    for (const [i, c] of gained.entries()) {
      expect(c.consensus.voters).toBe(7);
      expect(c.consensus.not_counted).toEqual({ people: 1, automated: 0 });
      // The newcomer's 0.15 is in the counted histogram now; the status is still false.
      expect(c.consensus.histogram[1]).toBe(before[i].consensus.histogram[1] + 1);
      expect(c.consensus.status).toBe("consensus_false");
      expect(c.consensus.since).toBe(before[i].consensus.since);
    }
    expect(await checkInvariants()).toEqual([]);

    // Suspended: its votes stop counting (they stay, and come back when it is lifted).
    expect((await api.post(`/moderation/agents/${newcomer.id}/suspend`, { reason: "sock puppets" }, { token: moderator.token })).status).toBe(204);
    await Promise.all([drainAllStanding(), ...claims.map((id, i) => vote(id, 0.1 + i * 0.01, others[(i + 1) % 2]))]);
    await drainAllStanding();
    const suspended = await Promise.all(claims.map(claimOf));
    for (const c of suspended) {
      expect(c.consensus.voters).toBe(6);
      // The two others' votes and the suspended account's.
      expect(c.consensus.not_counted.people).toBe(3);
      expect(c.not_counted_reasons.suspended).toBe(1);
    }
    expect(await checkInvariants()).toEqual([]);
    expect((await api.post(`/moderation/agents/${newcomer.id}/unsuspend`, {}, { token: moderator.token })).status).toBe(204);
    await drainAllStanding();
    for (const c of await Promise.all(claims.map(claimOf))) expect(c.consensus).toMatchObject({ voters: 7, not_counted: { people: 2, automated: 0 } });
    expect(await checkInvariants()).toEqual([]);
  }, 240_000);

  it("counts its fifth vote at once, and its first four once restated; below five again, none", async () => {
    const voter = await person({ verified: true, ageDays: 3 });
    const claims = [];
    for (let i = 0; i < 5; i++) claims.push((await newClaim(api, author.token)).id);
    for (const id of claims.slice(0, 4)) expect((await vote(id, 0.7, voter)).consensus.voters).toBe(0);
    // The fifth vote decides its own standing afresh: counted in its own statement.
    expect((await vote(claims[4], 0.7, voter)).consensus.voters).toBe(1);
    expect((await claimOf(claims[0])).consensus.voters).toBe(0);
    await drainAllStanding();
    for (const id of claims) expect((await claimOf(id)).consensus).toMatchObject({ voters: 1, status: "too_few_votes" });
    // A removal below five takes the others out again.
    expect((await api.del(`/claims/${claims[4]}/vote`, { token: voter.token })).status).toBe(204);
    await drainAllStanding();
    for (const id of claims.slice(0, 4)) expect((await claimOf(id)).consensus).toMatchObject({ voters: 0, status: "no_votes", not_counted: { people: 1 } });
    expect((await claimOf(claims[0])).not_counted_reasons.too_few_votes).toBe(1);
    expect(await checkInvariants()).toEqual([]);
  }, 120_000);
});

describe("an account's votes at once", () => {
  it("take turns on the account: the count standing reads is exact, and the account is marked when it crosses five", async () => {
    const voter = await person({ verified: true, ageDays: 3 });
    const claims: string[] = [];
    for (let i = 0; i < 10; i++) claims.push((await newClaim(api, author.token)).id);
    await Promise.all(claims.map((id) => vote(id, 0.4, voter)));
    // However they interleaved, the fifth to commit and the later ones counted, and the account is
    // marked (a vote that counted its others without the earlier ones would leave it unmarked).
    expect(await checkInvariants()).toEqual([]);
    const counted = (await Promise.all(claims.map(claimOf))).filter((c) => c.consensus.voters === 1).length;
    expect(counted).toBe(6);
    await drainAllStanding();
    for (const id of claims) expect((await claimOf(id)).consensus.voters).toBe(1);
    expect(await checkInvariants()).toEqual([]);
  }, 120_000);
});

describe("the age", () => {
  it("keeps a verified account with five votes from standing for a day, then the job finds it", async () => {
    const young = await person({ verified: true, ageDays: 0 });
    await fiveVotes(young, 0.6);
    await drainAllStanding();
    expect(await standingOfAgent(young)).toBe(false);
    const [row] = await db().$queryRawUnsafe<{ gains: Date; created: Date }[]>(
      `SELECT standing_gains_at AS gains, created_at AS created FROM agents WHERE id = $1::uuid`,
      young.id,
    );
    expect(row.gains.getTime() - row.created.getTime()).toBe(DAY);
    expect((await claimOf(fillers[0])).not_counted_reasons.too_new).toBeGreaterThanOrEqual(1);

    // A day passes (the clock is moved by moving the account's birth; nothing marks it: only its time
    // coming does, through the job's look at standing_gains_at).
    await db().$executeRawUnsafe(
      `UPDATE agents SET created_at = created_at - interval '1 day', standing_gains_at = standing_gains_at - interval '1 day' WHERE id = $1::uuid`,
      young.id,
    );
    await db().$executeRawUnsafe(`DELETE FROM standing_pending WHERE agent_id = $1::uuid`, young.id);
    expect(await checkInvariants()).toEqual([]); // due, not yet restated: not a violation
    await drainStanding();
    expect(await standingOfAgent(young)).toBe(true);
    const [after] = await db().$queryRawUnsafe<{ gains: Date | null }[]>(`SELECT standing_gains_at AS gains FROM agents WHERE id = $1::uuid`, young.id);
    expect(after.gains).toBeNull();
    expect(await checkInvariants()).toEqual([]);
  }, 120_000);
});

describe("an account's standing at birth", () => {
  it("is the rule's for an account with no votes, under any rule (the insert trigger and domain/standing.ts agree)", async () => {
    const rules: StandingRule[] = [
      { minAgeSeconds: 0, minVotes: 0, requireVerified: false },
      { minAgeSeconds: 0, minVotes: 0, requireVerified: true },
      { minAgeSeconds: 3600, minVotes: 0, requireVerified: false },
      { minAgeSeconds: 0, minVotes: 1, requireVerified: false },
    ];
    try {
      for (const rule of rules) {
        await applyStandingRule(rule);
        for (const verified of [true, false]) {
          for (const ageDays of [0, 1]) {
            const p = await person({ verified, ageDays });
            const [row] = await db().$queryRawUnsafe<{ standing: boolean; gains: Date | null; created: Date; now: Date }[]>(
              `SELECT standing, standing_gains_at AS gains, created_at AS created, now() FROM agents WHERE id = $1::uuid`,
              p.id,
            );
            const expected = standingOf(
              { automated: false, suspendedAt: null, suspendedUntil: null, verified, createdAt: row.created, votes: 0 },
              rule,
              row.now,
            );
            expect({ rule, verified, ageDays, standing: row.standing, gains: row.gains }).toEqual({ rule, verified, ageDays, standing: expected.standing, gains: expected.gainsAt });
          }
        }
      }
    } finally {
      await applyStandingRule(configuredRule());
      await drainAllStanding();
    }
    expect(await checkInvariants()).toEqual([]);
  }, 120_000);
});
