// Related claims are read from a maintained set (docs/api.md#discovery): these tests show the set
// following writes. Voters in common change the score at once (a trigger keeps them); a vote on the
// claim or a set older than RELATED_REFRESH_SECONDS brings new members at the next refresh (here:
// the refresher's function, run by the test); hidden and deleted claims leave at once. Runs on
// PGlite by default and on PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, startApi, type TestAgent, type TestApi } from "../helpers/api.ts";
import { db, readSql } from "../../server/db/client.ts";
import { computeRelatedSet, refreshStaleRelatedSets } from "../../server/services/discovery.ts";
import { grantAdmin } from "../../server/services/moderation.ts";
import { config } from "../../server/config.ts";

let api: TestApi;
let author: TestAgent;
let admin: TestAgent;
beforeAll(async () => {
  api = await startApi();
  [author, admin] = await Promise.all([createAgent(api), createAgent(api)]);
  expect((await grantAdmin(admin.username))?.role).toBe("admin");
});
afterAll(() => api.close());

let seq = 0;
/** Tags unique to this run, so that claims of other tests never share them. */
const tag = (name: string) => `rs-${name}-${process.pid}`;

async function newClaim(tags: string[] = []): Promise<string> {
  seq += 1;
  const res = await api.post("/claims", { statement: `Related set claim number ${seq}`, tags }, { token: author.token });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function vote(agent: TestAgent, claimId: string) {
  expect((await api.post(`/claims/${claimId}/vote`, { value: 0.6 }, { token: agent.token })).status).toBe(200);
}

async function related(claimId: string): Promise<Record<string, { relevance_score: number; shared_tags: string[] }>> {
  const res = await api.get(`/discover/related/${claimId}?limit=20`);
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.related.map((r: any) => [r.id, r]));
}

/** Every stored count against a recount from the votes themselves. */
async function expectStoredCountsExact() {
  const wrong = await readSql<{ claim_id: string; related_id: string; shared_voters: number; actual: number }>`
    SELECT r.claim_id, r.related_id, r.shared_voters,
           (SELECT count(*)::int FROM claim_votes a JOIN claim_votes b ON b.agent_id = a.agent_id
            WHERE a.claim_id = r.claim_id AND b.claim_id = r.related_id) AS actual
    FROM related_claims r`;
  expect(wrong.filter((w) => w.shared_voters !== w.actual)).toEqual([]);
}

/** Drains the refresher's queue, as the background refresher does every few seconds. */
async function refreshAll() {
  while ((await refreshStaleRelatedSets(50)) > 0);
}

describe("the related set of a claim", () => {
  it("is computed on the first read and stored", async () => {
    const source = await newClaim([tag("first")]);
    const peer = await newClaim([tag("first")]);
    expect(await readSql`SELECT 1 FROM related_sets WHERE claim_id = ${source}::uuid`).toHaveLength(0);
    expect(Object.keys(await related(source))).toEqual([peer]);
    const [set] = await readSql<{ stale: boolean }>`SELECT stale FROM related_sets WHERE claim_id = ${source}::uuid`;
    expect(set).toEqual({ stale: false });
  });

  it("counts a new voter in common at once, and a vote taken back", async () => {
    const source = await newClaim([tag("vote")]);
    const member = await newClaim([tag("vote")]);
    expect((await related(source))[member].relevance_score).toBe(10);
    const voter = await createAgent(api);
    await vote(voter, member);
    await vote(voter, source); // both claims now share this voter
    expect((await related(source))[member].relevance_score).toBe(15);
    expect((await related(member))[source].relevance_score).toBe(15); // the other claim's set, computed now
    await vote(voter, member); // the same vote again changes nothing
    expect((await related(source))[member].relevance_score).toBe(15);
    expect((await api.del(`/claims/${member}/vote`, { token: voter.token })).status).toBe(204);
    expect((await related(source))[member].relevance_score).toBe(10);
    expect((await related(member))[source].relevance_score).toBe(10);
    await expectStoredCountsExact();
  });

  it("takes in a claim that gained a voter in common once the claim's set is refreshed", async () => {
    const source = await newClaim([tag("gain")]);
    const stranger = await newClaim([tag("elsewhere")]);
    expect(await related(source)).toEqual({});
    const voter = await createAgent(api);
    await vote(voter, stranger);
    await vote(voter, source); // marks the source's set stale
    const [set] = await readSql<{ stale: boolean }>`SELECT stale FROM related_sets WHERE claim_id = ${source}::uuid`;
    expect(set.stale).toBe(true);
    await refreshAll();
    expect((await related(source))[stranger]).toMatchObject({ relevance_score: 5, shared_tags: [] });
    await expectStoredCountsExact();
  });

  it("takes in a new claim with a tag in common once the set is older than RELATED_REFRESH_SECONDS", async () => {
    const source = await newClaim([tag("new"), tag("other")]);
    const before = await newClaim([tag("new")]);
    expect(Object.keys(await related(source))).toEqual([before]);
    const later = await newClaim([tag("new"), tag("other")]);
    // Within the refresh period the set is as computed (its scores exact)...
    expect(Object.keys(await related(source))).toEqual([before]);
    // ...and a read of an older set schedules its refresh.
    const age = (config().RELATED_REFRESH_SECONDS + 1) * 1000;
    await db().$executeRaw`UPDATE related_sets SET computed_at = ${new Date(Date.now() - age)} WHERE claim_id = ${source}::uuid`;
    await related(source);
    await refreshAll();
    const now = await related(source);
    expect(now[later]).toMatchObject({ relevance_score: 20, shared_tags: [tag("new"), tag("other")] });
    expect(now[before]).toMatchObject({ relevance_score: 10 });
  });

  it("reads shared tags from the claims: a member whose tags change scores anew at once", async () => {
    const source = await newClaim([tag("t1"), tag("t2")]);
    const member = await newClaim([tag("t1")]);
    expect((await related(source))[member].relevance_score).toBe(10);
    await db().claim.update({ where: { id: member }, data: { tags: [tag("t1"), tag("t2")] } });
    expect((await related(source))[member]).toMatchObject({ relevance_score: 20, shared_tags: [tag("t1"), tag("t2")] });
    await db().claim.update({ where: { id: member }, data: { tags: [] } });
    expect((await related(source))[member]).toBeUndefined(); // relevance 0: left out
  });

  it("leaves out a hidden member at once and takes it back on restore; a deleted one is gone", async () => {
    const source = await newClaim([tag("hide")]);
    const [hidden, deleted, kept] = [await newClaim([tag("hide")]), await newClaim([tag("hide")]), await newClaim([tag("hide")])];
    expect(Object.keys(await related(source)).sort()).toEqual([hidden, deleted, kept].sort());
    expect((await api.post(`/moderation/claim/${hidden}/hide`, { reason: "spam" }, { token: admin.token })).status).toBe(204);
    expect(Object.keys(await related(source)).sort()).toEqual([deleted, kept].sort());
    await db().claim.delete({ where: { id: deleted } });
    expect(Object.keys(await related(source))).toEqual([kept]);
    expect(await readSql`SELECT 1 FROM related_claims WHERE related_id = ${deleted}::uuid`).toHaveLength(0);
    expect((await api.post(`/moderation/claim/${hidden}/restore`, {}, { token: admin.token })).status).toBe(204);
    expect(Object.keys(await related(source)).sort()).toEqual([hidden, kept].sort());
    // A hidden source is a 404, its set kept for when it is restored.
    expect((await api.post(`/moderation/claim/${source}/hide`, { reason: "spam" }, { token: admin.token })).status).toBe(204);
    expect((await api.get(`/discover/related/${source}`)).status).toBe(404);
  });

  it("keeps every stored count exact under concurrent votes and recomputations", async () => {
    const claims = [await newClaim([tag("busy")]), await newClaim([tag("busy")]), await newClaim([tag("busy")])];
    for (const c of claims) await related(c);
    const voters = await Promise.all(Array.from({ length: 8 }, () => createAgent(api)));
    const sources = await readSql<{ id: string; tags: string[] }>`
      SELECT id::text AS id, tags FROM claims WHERE id = ANY(${claims}::uuid[]) AND hidden_at IS NULL`;
    await Promise.all([
      ...voters.flatMap((v) => claims.map((c) => vote(v, c))),
      ...sources.map((s) => computeRelatedSet(s)),
      ...sources.map((s) => computeRelatedSet(s)),
    ]);
    await Promise.all(voters.slice(0, 4).map((v) => api.del(`/claims/${claims[0]}/vote`, { token: v.token })));
    await expectStoredCountsExact();
    const first = await related(claims[0]);
    expect(first[claims[1]].relevance_score).toBe(10 + 5 * 4);
    expect((await related(claims[1]))[claims[2]].relevance_score).toBe(10 + 5 * 8);
  });
});
