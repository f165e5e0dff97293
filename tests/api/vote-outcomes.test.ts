// Resolved outcomes are history (docs/api.md#scoring, docs/features/bridging.md): when a claim resolves, every vote on it is
// recorded in vote_outcomes, and the learning score and expertise accuracy come from those records,
// so changing or deleting the vote afterwards cannot clean an agent's record.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const profile = async (who: Voter) => {
  const res = await api.get(`/profiles/${who.id}`);
  expect(res.status).toBe(200);
  return res.body as { learning_score: Record<string, unknown>; expertise: unknown[]; reputation_score: number };
};

interface OutcomeRow {
  agent_id: string;
  value: number | null;
  crowd_gradient: number | null;
  crowd_basis: string | null;
  resolution_gradient: number;
  consensus_true: boolean;
  outcome: string;
  tags: string[];
  resolved_at: Date;
}

const outcomesOf = (claimId: string) =>
  db().$queryRawUnsafe<OutcomeRow[]>(
    `SELECT agent_id::text AS agent_id, value, crowd_gradient, crowd_basis::text AS crowd_basis, resolution_gradient,
            consensus_true, outcome::text AS outcome, tags, resolved_at
     FROM vote_outcomes WHERE claim_id = $1::uuid ORDER BY agent_id`,
    claimId,
  );

/** A claim tagged `tag` that `contrarian` voted 0.1 on and nine others 1.0: it resolves true. */
async function resolvedAgainst(contrarian: Voter, tag: string) {
  const claim = await newClaim(api, author.token, { tags: [tag] });
  await vote(claim.id, 0.1, contrarian);
  for (const v of await quickAgents(9)) await vote(claim.id, 1, v);
  const row = await db().claim.findUniqueOrThrow({ where: { id: claim.id }, select: { resolvedAt: true } });
  expect(row.resolvedAt).not.toBeNull();
  return claim;
}

describe("a resolved vote stays on the record", () => {
  it("deleting a resolved vote leaves the learning score and expertise accuracy as they were", async () => {
    const contrarian = await quickAgent();
    // Two more votes in the tag make it an expertise area (engagement 3).
    for (let i = 0; i < 2; i++) await vote((await newClaim(api, author.token, { tags: ["ethics"] })).id, 0.5, contrarian);
    const claim = await resolvedAgainst(contrarian, "ethics");

    const before = await profile(contrarian);
    expect(before.learning_score).toMatchObject({ accuracy_rate: 0, total_resolved_votes: 1, correct_resolved_votes: 0 });
    expect(before.learning_score.score).toBeCloseTo(0.25, 10);
    expect(before.expertise).toEqual([{ tag: "ethics", engagement_count: 3, accuracy: 0 }]);

    expect((await api.del(`/claims/${claim.id}/vote`, { token: contrarian.token })).status).toBe(204);
    const after = await profile(contrarian);
    expect(after.learning_score).toEqual(before.learning_score);
    expect(after.expertise).toEqual(before.expertise);
    expect(after.reputation_score).toBe(before.reputation_score);
    expect(await checkInvariants()).toEqual([]);
  });

  it("changing a resolved vote to the winning side does not turn it into a correct one", async () => {
    const contrarian = await quickAgent();
    const claim = await resolvedAgainst(contrarian, "history");
    const before = await profile(contrarian);
    await vote(claim.id, 1, contrarian);
    const after = await profile(contrarian);
    expect(after.learning_score).toEqual(before.learning_score);
    expect(after.learning_score).toMatchObject({ accuracy_rate: 0, total_resolved_votes: 1 });
    // The record keeps the value the vote had when the claim resolved.
    const [record] = (await outcomesOf(claim.id)).filter((r) => r.agent_id === contrarian.id);
    expect(record).toMatchObject({ value: 0.1, outcome: "opposed" });
    expect(await checkInvariants()).toEqual([]);
  });

  it("resolution records every vote: value, the crowd when it was cast, the consensus side, the tags", async () => {
    const claim = await newClaim(api, author.token, { tags: ["physics", "optics"] });
    const [first, neutral, ...rest] = await quickAgents(10);
    await vote(claim.id, 0.1, first); // the crowd before it: nobody, 0.5
    await vote(claim.id, 0.5, neutral); // the crowd before it: first's 0.1
    for (const v of rest) await vote(claim.id, 1, v);
    const resolved = await db().claim.findUniqueOrThrow({ where: { id: claim.id } });
    expect(resolved.resolvedAt).not.toBeNull();

    const records = await outcomesOf(claim.id);
    expect(records).toHaveLength(10);
    const byAgent = new Map(records.map((r) => [r.agent_id, r]));
    expect(byAgent.get(first.id)).toMatchObject({ value: 0.1, crowd_gradient: 0.5, crowd_basis: "cast", outcome: "opposed", consensus_true: true });
    expect(byAgent.get(neutral.id)).toMatchObject({ value: 0.5, crowd_basis: "cast", outcome: "neutral", consensus_true: true });
    expect(byAgent.get(neutral.id)!.crowd_gradient).toBeCloseTo(0.1, 10);
    const last = byAgent.get(rest.at(-1)!.id)!;
    expect(last).toMatchObject({ value: 1, outcome: "aligned", crowd_basis: "cast", tags: ["physics", "optics"] });
    expect(last.resolution_gradient).toBeCloseTo(resolved.gradient, 10);
    for (const r of records) expect(r.resolved_at.getTime()).toBe(resolved.resolvedAt!.getTime());

    // History is not rewritten: the records refuse updates (a trigger raises; PGlite's adapter drops
    // the message, so the test checks that nothing changed).
    await expect(db().$executeRawUnsafe(`UPDATE vote_outcomes SET outcome = 'aligned' WHERE claim_id = $1::uuid`, claim.id)).rejects.toThrow();
    expect(await outcomesOf(claim.id)).toEqual(records);
  });

  it("a vote cast after resolution is not scored", async () => {
    const late = await quickAgent();
    const claim = await resolvedAgainst(await quickAgent(), "late");
    await vote(claim.id, 0, late);
    expect((await outcomesOf(claim.id)).map((r) => r.agent_id)).not.toContain(late.id);
    expect((await profile(late)).learning_score).toMatchObject({ total_resolved_votes: 0, accuracy_rate: null });
  });
});

describe("re-sending the same vote", () => {
  it("appends no gradient-history point and leaves the claim's updated_at alone", async () => {
    const claim = await newClaim(api, author.token);
    const voter = await quickAgent();
    const first = await vote(claim.id, 0.7, voter);
    const history = () => db().gradientHistory.count({ where: { claimId: claim.id } });
    expect(await history()).toBe(1);
    const again = await vote(claim.id, 0.7, voter);
    expect(again).toMatchObject({ gradient: 0.7, vote_count: 1, user_vote: 0.7, updated_at: first.updated_at });
    expect(await history()).toBe(1);
    // A real change still appends one.
    await vote(claim.id, 0.6, voter);
    expect(await history()).toBe(2);
    expect(await checkInvariants()).toEqual([]);
  });
});
