// Derived counters are kept by triggers whatever path writes the rows, and checkInvariants() (also
// `npm run check:invariants`) recomputes every one of them from the raw rows and reports a corrupted one.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { db } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, quickAgent, quickAgents, setReputation, type Voter } from "./claims-fixtures.ts";
import { disputeOutcome, proposeOutcome, setCheckIn, settleOutcome } from "../../server/services/checks.ts";
import { sqlTransaction } from "../../server/db/client.ts";

let api: TestApi;
let author: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
});
afterAll(() => api.close());

const sql = (text: string, ...params: unknown[]) => db().$executeRawUnsafe(text, ...params);
const total = async () => (await api.get("/claims?limit=1")).body.total as number;

/** A claim that resolved true with one opposed voter (`contrarian`), tagged `tag`. */
async function resolvedClaim(tag: string) {
  const claim = await newClaim(api, author.token, { tags: [tag] });
  const [contrarian, ...crowd] = await quickAgents(10);
  await vote(claim.id, 0.1, contrarian);
  for (const v of crowd) await vote(claim.id, 1, v);
  return { claim, contrarian, crowd };
}

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
}

/** Applies `corrupt`, expects a report matching `reported`, then `repair`s and expects none. */
async function expectReported(corrupt: string, repair: string, reported: RegExp, params: unknown[] = []) {
  expect(await checkInvariants()).toEqual([]);
  await sql(corrupt, ...params);
  const violations = await checkInvariants();
  await sql(repair, ...params);
  expect(violations.join("\n")).toMatch(reported);
  expect(await checkInvariants()).toEqual([]);
}

describe("the claims counter", () => {
  it("counts claims inserted by any path, e.g. plain SQL", async () => {
    await newClaim(api, author.token);
    const before = await total();
    const id = randomUUID();
    await sql(
      `INSERT INTO claims (id, statement, author_id, tags, updated_at) VALUES ($1::uuid, 'Inserted straight into the table', $2::uuid, '{bulk}', now())`,
      id,
      author.id,
    );
    expect(await total()).toBe(before + 1);
    expect(await checkInvariants()).toEqual([]);
    // Its bridging row came with it (a trigger), unscored, and follows a backdated creation time.
    expect((await api.get(`/claims/${id}`)).body.bridging).toEqual({ score: null, polarity: null, status: "insufficient_data", computed_at: null });
    await sql(`UPDATE claims SET created_at = created_at - interval '3 days' WHERE id = $1::uuid`, id);
    expect(await checkInvariants()).toEqual([]);
    await sql(`DELETE FROM claims WHERE id = $1::uuid`, id);
    expect(await total()).toBe(before);
    expect(await checkInvariants()).toEqual([]);
  });

  it("is one per claim created through the API (no double count with the trigger)", async () => {
    const before = await total();
    await newClaim(api, author.token);
    await newClaim(api, author.token);
    expect(await total()).toBe(before + 2);
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("checkInvariants reports a corrupted counter", () => {
  it("a claim without its bridging row", async () => {
    const { id } = await newClaim(api, author.token);
    await expectReported(
      `DELETE FROM claim_bridging WHERE claim_id = '${id}'`,
      `INSERT INTO claim_bridging (claim_id, created_at) SELECT id, created_at FROM claims WHERE id = '${id}'`,
      /no claim_bridging row/,
    );
  });

  it("claims counter", async () => {
    await newClaim(api, author.token);
    await expectReported(
      `UPDATE platform_counters SET value = value + 3 WHERE name = 'claims'`,
      `UPDATE platform_counters SET value = value - 3 WHERE name = 'claims'`,
      /platform counter 'claims'/,
    );
  });

  it("tag_stats: a wrong count and a tag row with no claims", async () => {
    await newClaim(api, author.token, { tags: ["counted"] });
    await expectReported(
      `UPDATE tag_stats SET claim_count = claim_count + 1 WHERE tag = 'counted'`,
      `UPDATE tag_stats SET claim_count = claim_count - 1 WHERE tag = 'counted'`,
      /tag_stats 'counted'/,
    );
    await expectReported(
      `INSERT INTO tag_stats (tag, claim_count) VALUES ('phantom', 2)`,
      `DELETE FROM tag_stats WHERE tag = 'phantom'`,
      /tag_stats 'phantom'/,
    );
    await expectReported(
      `DELETE FROM tag_stats WHERE tag = 'counted'`,
      `INSERT INTO tag_stats (tag, claim_count) SELECT 'counted', count(*) FROM claims WHERE 'counted' = ANY(tags)`,
      /tag_stats 'counted'/,
    );
  });

  it("tag_daily_counts", async () => {
    await newClaim(api, author.token, { tags: ["daily"] });
    await expectReported(
      `UPDATE tag_daily_counts SET claim_count = claim_count + 1 WHERE tag = 'daily'`,
      `UPDATE tag_daily_counts SET claim_count = claim_count - 1 WHERE tag = 'daily'`,
      /tag_daily_counts 'daily'/,
    );
    await expectReported(
      `UPDATE tag_daily_counts SET day = day - 1 WHERE tag = 'daily'`,
      `UPDATE tag_daily_counts SET day = day + 1 WHERE tag = 'daily'`,
      /tag_daily_counts 'daily'/,
    );
  });

  it("the striped claim-vote counters", async () => {
    const claim = await newClaim(api, author.token);
    await vote(claim.id, 0.4, await quickAgent());
    await expectReported(
      `INSERT INTO platform_counters (name, value) VALUES ('claim_votes:99', 5)`,
      `DELETE FROM platform_counters WHERE name = 'claim_votes:99'`,
      /claim_votes:\*/,
    );
  });

  it("a claim's histograms against its votes: the counted votes' and the agents'", async () => {
    const claim = await newClaim(api, author.token);
    await vote(claim.id, 0.35, await quickAgent());
    await vote(claim.id, 1, await quickAgent());
    const agent = await quickAgent();
    await sql(`UPDATE agents SET automated = true WHERE id = $1::uuid`, agent.id);
    await vote(claim.id, 0.8, agent);
    const stored = (await api.get(`/claims/${claim.id}`)).body;
    expect(stored.consensus.histogram).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
    expect(stored.agents.histogram).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    // One vote moved to the wrong bin: the sum still matches the vote count, the bins do not.
    await expectReported(
      `UPDATE claims SET counted_histogram = '{0,0,1,0,0,0,0,0,0,1}' WHERE id = $1::uuid`,
      `UPDATE claims SET counted_histogram = '{0,0,0,1,0,0,0,0,0,1}' WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: counted_histogram=\\[0,0,1,0,0,0,0,0,0,1\\] but its counted votes give \\[0,0,0,1,0,0,0,0,0,1\\]`),
      [claim.id],
    );
    await expectReported(
      `UPDATE claims SET agents_histogram = '{0,0,0,0,0,0,0,1,0,0}' WHERE id = $1::uuid`,
      `UPDATE claims SET agents_histogram = '{0,0,0,0,0,0,0,0,1,0}' WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: agents_histogram=\\[0,0,0,0,0,0,0,1,0,0\\] but its automated accounts' votes give \\[0,0,0,0,0,0,0,0,1,0\\]`),
      [claim.id],
    );
  });

  it("a claim's counted sums, each vote's sorting and each account's standing", async () => {
    const claim = await newClaim(api, author.token);
    const voter = await quickAgent();
    await vote(claim.id, 0.7, voter);
    await expectReported(
      `UPDATE claims SET counted_vote_count = counted_vote_count + 1 WHERE id = $1::uuid`,
      `UPDATE claims SET counted_vote_count = counted_vote_count - 1 WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: .*counted_vote_count=2 .*from the counted votes: 1 votes`),
      [claim.id],
    );
    await expectReported(
      `UPDATE claims SET counted_weighted_sum = counted_weighted_sum + 0.01 WHERE id = $1::uuid`,
      `UPDATE claims SET counted_weighted_sum = counted_weighted_sum - 0.01 WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: .*counted_weighted_sum=0\\.0[78]`),
      [claim.id],
    );
    // A vote sorted against its account's standing, with nothing marked to re-sort it.
    await expectReported(
      `WITH v AS (UPDATE claim_votes SET counted = false WHERE claim_id = $1::uuid AND agent_id = $2::uuid)
       UPDATE claims SET counted_vote_count = 0, counted_weighted_sum = 0, counted_weight_total = 0, counted_histogram = '{0,0,0,0,0,0,0,0,0,0}',
         consensus_status = 'no_votes', consensus_since = NULL WHERE id = $1::uuid`,
      `WITH v AS (UPDATE claim_votes SET counted = true WHERE claim_id = $1::uuid AND agent_id = $2::uuid)
       UPDATE claims SET counted_vote_count = 1, counted_weighted_sum = 0.07, counted_weight_total = 0.1, counted_histogram = '{0,0,0,0,0,0,0,1,0,0}',
         consensus_status = 'too_few_votes', consensus_since = now() WHERE id = $1::uuid`,
      new RegExp(`vote of agent ${voter.id} on claim ${claim.id}: automated=false counted=false but the account says automated=false standing=true`),
      [claim.id, voter.id],
    );
    // An account whose stored standing is not the rule's, not marked for restating.
    await expectReported(
      `UPDATE agents SET standing = false WHERE id = $1::uuid`,
      `UPDATE agents SET standing = true WHERE id = $1::uuid`,
      new RegExp(`agent ${voter.id}: standing=false .*but the rule gives standing=true`),
      [voter.id],
    );
  });

  it("a claim's newest gradient-history point against its state, among claims without points", async () => {
    await newClaim(api, author.token);
    const claim = await newClaim(api, author.token);
    await vote(claim.id, 0.3, await quickAgent());
    await vote(claim.id, 0.9, await quickAgent());
    // An older point that disagrees is history; the newest one must be the claim's state.
    await expectReported(
      `INSERT INTO gradient_history (claim_id, gradient, vote_count) VALUES ($1::uuid, 0.99, 7)`,
      `DELETE FROM gradient_history WHERE claim_id = $1::uuid AND vote_count = 7`,
      new RegExp(`claim ${claim.id}: gradient=[0-9.]+ vote_count=2 but its last history point says 0.99, 7`),
      [claim.id],
    );
  });

  it("a claim's consensus status against the rule, and its start", async () => {
    const claim = await newClaim(api, author.token);
    for (const v of await quickAgents(5)) await vote(claim.id, 0.9, v);
    expect((await api.get(`/claims/${claim.id}`)).body.consensus.status).toBe("consensus_true");
    await expectReported(
      `UPDATE claims SET consensus_status = 'open' WHERE id = $1::uuid`,
      `UPDATE claims SET consensus_status = 'consensus_true' WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: consensus_status=open but 5 counted votes, bridging insufficient_data and their gradient 0.9 give consensus_true`),
      [claim.id],
    );
    await expectReported(
      `UPDATE claims SET consensus_since = NULL WHERE id = $1::uuid`,
      `UPDATE claims SET consensus_since = now() WHERE id = $1::uuid`,
      new RegExp(`claim ${claim.id}: consensus_status=consensus_true with consensus_since=null`),
      [claim.id],
    );
  });

  it("an agent's resolved-vote counts against its outcome records, and the records against the resolution events", async () => {
    const { claim, contrarian } = await resolvedClaim("audited");
    await expectReported(
      `UPDATE agents SET resolved_votes = resolved_votes + 1, correct_resolved_votes = correct_resolved_votes + 1 WHERE id = $1::uuid`,
      `UPDATE agents SET resolved_votes = resolved_votes - 1, correct_resolved_votes = correct_resolved_votes - 1 WHERE id = $1::uuid`,
      new RegExp(`agent ${contrarian.id}: .*resolved_votes`),
      [contrarian.id],
    );
    // A record gone missing (deleting the row bypasses the application) is reported too.
    const [saved] = await db().$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM vote_outcomes WHERE claim_id = $1::uuid AND agent_id = $2::uuid`,
      claim.id,
      contrarian.id,
    );
    expect(saved).toBeDefined();
    await sql(`DELETE FROM vote_outcomes WHERE claim_id = $1::uuid AND agent_id = $2::uuid`, claim.id, contrarian.id);
    const violations = (await checkInvariants()).join("\n");
    await sql(
      `INSERT INTO vote_outcomes SELECT * FROM jsonb_populate_record(NULL::vote_outcomes, $1::jsonb)`,
      JSON.stringify(saved, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    );
    expect(violations).toMatch(new RegExp(`claim ${claim.id}, agent ${contrarian.id}`));
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("a check's bonds", () => {
  it("each account's outcome events against the check's stage; a lost bond below zero is no violation", async () => {
    const { id: claimId } = await newClaim(api, author.token);
    const terms = { criteria: "Checked against the annual report", finePrint: null, sourceUrl: null, checkAt: new Date(Date.now() + 3_600_000), closeAt: null, assumptions: [] };
    expect(await sqlTransaction((tx) => setCheckIn(tx, { claimId, viewerId: author.id, terms, now: new Date() }))).toEqual({ ok: true });
    await sql(`UPDATE claim_checks SET close_at = now() - interval '2 hours', check_at = now() - interval '1 hour' WHERE claim_id = $1::uuid`, claimId);
    const [proposer, disputer, moderator] = await quickAgents(3);
    await setReputation(proposer.id, 10);
    await setReputation(disputer.id, 2);
    await sql(`UPDATE agents SET standing = true WHERE id = ANY($1::uuid[])`, [proposer.id, disputer.id]);
    expect(await proposeOutcome({ claimId, proposerId: proposer.id, outcome: "true", evidenceUrl: "https://example.org/r", note: "n" })).toEqual({ ok: true });
    expect(await disputeOutcome({ claimId, disputerId: disputer.id, reason: "r", evidenceUrl: "https://example.org/d" })).toEqual({ ok: true });
    expect(await settleOutcome({ claimId, moderatorId: moderator.id, outcome: "true", reason: "The report says so" })).toEqual({ ok: true });
    // The disputer lost its bond: -3, and consistent.
    await expectReported(
      `UPDATE claim_checks SET outcome = 'false' WHERE claim_id = $1::uuid`,
      `UPDATE claim_checks SET outcome = 'true' WHERE claim_id = $1::uuid`,
      new RegExp(`claim ${claimId}, agent ${proposer.id}: outcome bond events sum to 5, the check's stage says -5`),
      [claimId],
    );
  });
});
