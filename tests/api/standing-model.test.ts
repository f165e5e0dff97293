// A property test of standing (docs/features/consensus.md#standing): fast-check generates sequences of
// votes, removals and changes of what standing is decided from (verification, suspension, age, the
// automated flag) by a few accounts on a few claims, with the standing job running in between — on
// PostgreSQL also at the same time as the votes. After every step checkInvariants() (what `npm run
// check:invariants` runs) finds nothing: every stored count, histogram and status equals a
// recomputation from the votes as sorted, and every vote is sorted as its account stands unless the
// account is marked for the job. After the job has run out, every claim's counts equal a model's
// recomputation from the facts alone. Knobs: STANDING_MODEL_SEED, STANDING_MODEL_RUNS, STANDING_MODEL_COMMANDS.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { issueTokenPair } from "../../server/services/auth.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { applyStandingRule, drainAllStanding, drainStanding } from "../../server/services/standing.ts";
import { consensusVerdict, histogramBin } from "../../server/domain/consensus.ts";
import { gradientFromSums } from "../../server/domain/gradient.ts";
import { newClaim, quickAgent, type Voter } from "./claims-fixtures.ts";

// Two votes make standing here, so that a few claims exercise the count as well as the other facts.
vi.hoisted(() => {
  process.env.STANDING_MIN_AGE_SECONDS = "86400";
  process.env.STANDING_MIN_VOTES = "2";
  process.env.STANDING_REQUIRE_VERIFIED = "true";
});
const MIN_VOTES = 2;

const SEED = Number(process.env.STANDING_MODEL_SEED ?? 19_019);
const RUNS = Number(process.env.STANDING_MODEL_RUNS ?? 8);
const MAX_COMMANDS = Number(process.env.STANDING_MODEL_COMMANDS ?? 30);
const ACCOUNTS = 5;
const CLAIMS = 3;

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  await applyStandingRule();
  await drainAllStanding();
  author = await quickAgent();
}, 180_000);
afterAll(() => api?.close());

interface Account extends Voter {
  verified: boolean;
  old: boolean;
  suspended: boolean;
  automated: boolean;
}

/** What the service is given: the facts of each account and each current vote. */
interface World {
  accounts: Account[];
  claims: string[];
  /** `${account}/${claim}` → value. */
  votes: Map<string, number>;
}

/** An account born `verified` or not, two days `old` or new. */
async function makeAccount({ verified, old }: { verified: boolean; old: boolean }): Promise<Account> {
  const username = `m_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const agent = await db().agent.create({
    data: {
      username,
      usernameKey: username,
      displayName: username,
      email: `${username}@example.test`,
      emailVerified: verified ? new Date() : null,
      createdAt: new Date(Date.now() - (old ? 2 * 86_400_000 : 0)),
    },
    select: { id: true },
  });
  return { id: agent.id, token: (await issueTokenPair(agent.id)).access_token, verified, old, suspended: false, automated: false };
}

const sql = (text: string, ...params: unknown[]) => db().$executeRawUnsafe(text, ...params);

type Step = { name: string; run: (w: World) => Promise<void> };

const account = fc.nat({ max: ACCOUNTS - 1 });
const claim = fc.nat({ max: CLAIMS - 1 });
const value = fc.constantFrom(0, 0.05, 0.1, 0.3, 0.5, 0.79, 0.8, 0.81, 0.95, 1);

async function castIn(w: World, a: number, c: number, v: number): Promise<void> {
  const who = w.accounts[a];
  const res = await api.post(`/claims/${w.claims[c]}/vote`, { value: v }, { token: who.token });
  // A suspended account's credentials are refused (401 or 403 as the credential's look-up finds it): nothing changes.
  if (who.suspended) return void expect([401, 403], res.text).toContain(res.status);
  expect(res.status, res.text).toBe(200);
  w.votes.set(`${a}/${c}`, v);
}

async function removeIn(w: World, a: number, c: number): Promise<void> {
  const who = w.accounts[a];
  const res = await api.del(`/claims/${w.claims[c]}/vote`, { token: who.token });
  if (who.suspended) return void expect([401, 403], res.text).toContain(res.status);
  expect(res.status, res.text).toBe(204);
  w.votes.delete(`${a}/${c}`);
}

/** Each step with its weight: mostly votes, so that accounts reach the votes standing asks for. */
const steps: { weight: number; arbitrary: fc.Arbitrary<Step> }[] = [
  fc.tuple(account, claim, value).map(([a, c, v]) => ({ name: `vote ${a} ${c} ${v}`, run: (w: World) => castIn(w, a, c, v) })),
  fc.tuple(account, claim).map(([a, c]) => ({ name: `unvote ${a} ${c}`, run: (w: World) => removeIn(w, a, c) })),
  fc.tuple(account, fc.boolean()).map(([a, on]) => ({
    name: `${on ? "verify" : "unverify"} ${a}`,
    run: async (w: World) => {
      await sql(`UPDATE agents SET email_verified = ${on ? "now()" : "NULL"} WHERE id = $1::uuid`, w.accounts[a].id);
      w.accounts[a].verified = on;
    },
  })),
  fc.tuple(account, fc.boolean()).map(([a, on]) => ({
    name: `${on ? "suspend" : "unsuspend"} ${a}`,
    run: async (w: World) => {
      await sql(`UPDATE agents SET suspended_at = ${on ? "now()" : "NULL"}, suspended_until = NULL WHERE id = $1::uuid`, w.accounts[a].id);
      w.accounts[a].suspended = on;
    },
  })),
  account.map((a) => ({
    name: `age ${a}`,
    run: async (w: World) => {
      await sql(`UPDATE agents SET created_at = now() - interval '2 days' WHERE id = $1::uuid`, w.accounts[a].id);
      w.accounts[a].old = true;
    },
  })),
  fc.tuple(account, fc.boolean()).map(([a, on]) => ({
    name: `automated ${a} ${on}`,
    run: async (w: World) => {
      const who = w.accounts[a];
      const res = await api.patch("/auth/me", { automated: on }, { token: who.token });
      if (who.suspended) return void expect([401, 403], res.text).toContain(res.status);
      expect(res.status, res.text).toBe(200);
      who.automated = on;
    },
  })),
  fc.nat({ max: 3 }).map((n) => ({ name: `job ${n + 1}`, run: async () => void (await drainStanding({ limit: n + 1 })) })),
  // The job and votes at once (on PGlite they take turns on the one connection).
  fc.tuple(account, claim, value).map(([a, c, v]) => ({
    name: `job while vote ${a} ${c} ${v}`,
    run: async (w: World) => void (await Promise.all([drainStanding({ limit: 2 }), castIn(w, a, c, v)])),
  })),
].map((arbitrary, i) => ({ weight: [6, 2, 1, 1, 1, 1, 2, 3][i], arbitrary }));

/** The standing of an account in the model, from its facts and its current votes. */
function hasStanding(w: World, a: number): boolean {
  const acc = w.accounts[a];
  const votes = [...w.votes.keys()].filter((k) => k.startsWith(`${a}/`)).length;
  return !acc.automated && !acc.suspended && acc.verified && acc.old && votes >= MIN_VOTES;
}

async function expectModel(w: World): Promise<void> {
  for (const [c, id] of w.claims.entries()) {
    const votes = [...w.votes.entries()].filter(([k]) => k.endsWith(`/${c}`)).map(([k, v]) => ({ a: Number(k.split("/")[0]), v }));
    const counted = votes.filter(({ a }) => hasStanding(w, a));
    const automated = votes.filter(({ a }) => w.accounts[a].automated);
    const histogram = (vs: typeof votes) => {
      const bins = new Array(10).fill(0);
      for (const { v } of vs) bins[histogramBin(v)]++;
      return bins;
    };
    // Every account here has reputation 0: weight 0.1 each.
    const mean = gradientFromSums({ weightedSum: counted.reduce((s, { v }) => s + 0.1 * v, 0), weightTotal: 0.1 * counted.length, voteCount: counted.length });
    const body = (await api.get(`/claims/${id}`)).body;
    expect({ claim: c, consensus: body.consensus, agents: body.agents }).toMatchObject({
      claim: c,
      consensus: {
        status: consensusVerdict({ voters: counted.length, bridgingStatus: "insufficient_data", gradient: mean }).status,
        voters: counted.length,
        histogram: histogram(counted),
        not_counted: { people: votes.length - counted.length - automated.length, automated: automated.length },
      },
      agents: { voters: automated.length, histogram: histogram(automated) },
    });
    if (counted.length) expect(body.consensus.gradient).toBeCloseTo(mean, 9);
  }
}

describe("standing, as a model", () => {
  it("keeps every count exact through votes, changes of standing and the job", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ verified: fc.boolean(), old: fc.boolean() }), { minLength: ACCOUNTS, maxLength: ACCOUNTS }),
        fc.array(fc.oneof(...steps), { minLength: 8, maxLength: MAX_COMMANDS }),
        async (born, sequence) => {
        run++;
        const w: World = { accounts: [], claims: [], votes: new Map() };
        for (const facts of born) w.accounts.push(await makeAccount(facts));
        for (let i = 0; i < CLAIMS; i++) w.claims.push((await newClaim(api, author.token, { tags: [`model-${run}`] })).id);
        const trace: string[] = [];
        try {
          for (const step of sequence) {
            trace.push(step.name);
            await step.run(w);
            expect(await checkInvariants()).toEqual([]);
          }
          await drainAllStanding();
          expect(await checkInvariants()).toEqual([]);
          await expectModel(w);
        } catch (err) {
          throw new Error(`after: ${trace.join(" · ")}\n${(err as Error).message}`);
        }
      }),
      // Shrinking replays whole sequences against the service: a failure is reported as it stands.
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 1_200_000);
});
