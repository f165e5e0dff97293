// Bridged consensus end to end (docs/features/bridging.md): planted camps voting through the API, a full fit (in
// the worker thread, as the server runs it), the bridging field on claims, the list filter and sort,
// and the re-score of claims with new votes between fits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { config } from "../../server/config.ts";
import { dbBackend, readSql } from "../../server/db/client.ts";
import { fitOffThread } from "../../server/services/bridging-fit.ts";
import { rescorePending, runBridgingFit } from "../../server/services/bridging.ts";
import { newClaim, quickAgent, quickAgents, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let campA: Voter[];
let campB: Voter[];
const claims: Record<"bothTrue" | "bothFalse" | "carried" | "unvoted", string> = {} as never;
const partisan: string[] = [];

async function vote(claimId: string, value: number, who: Voter) {
  const res = await api.post(`/claims/${claimId}/vote`, { value }, { token: who.token });
  expect(res.status, res.text).toBe(200);
}

const bridgingOf = async (id: string) => {
  const res = await api.get(`/claims/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body.bridging as { score: number | null; polarity: number | null; status: string; computed_at: string | null };
};

beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  campA = await quickAgents(8);
  campB = await quickAgents(6);
  // Ten partisan claims reveal the camps; then one claim both camps accept, one both reject, and one
  // camp A carries over camp B's objection (its plain gradient is high).
  const jitter = (i: number) => (i % 3) * 0.03;
  for (let p = 0; p < 10; p++) {
    const c = await newClaim(api, author.token, { tags: ["bridging-test"] });
    partisan.push(c.id);
    const [high, low] = p % 2 === 0 ? [campA, campB] : [campB, campA];
    for (const [i, v] of high.entries()) await vote(c.id, 0.9 - jitter(i), v);
    for (const [i, v] of low.entries()) await vote(c.id, 0.1 + jitter(i), v);
  }
  const plant = async (a: number, b: number) => {
    const c = await newClaim(api, author.token, { tags: ["bridging-test"] });
    const toward = (x: number, i: number) => (x > 0.5 ? x - jitter(i) : x + jitter(i));
    for (const [i, v] of campA.entries()) await vote(c.id, toward(a, i), v);
    for (const [i, v] of campB.entries()) await vote(c.id, toward(b, i), v);
    return c.id;
  };
  claims.bothTrue = await plant(0.95, 0.9);
  claims.bothFalse = await plant(0.05, 0.1);
  claims.carried = await plant(0.95, 0.1);
  claims.unvoted = (await newClaim(api, author.token, { tags: ["bridging-test"] })).id;
}, 120_000);
afterAll(() => api.close());

describe("bridged consensus", () => {
  it("before any fit every claim is insufficient_data with null values", async () => {
    expect(await bridgingOf(claims.bothTrue)).toEqual({ score: null, polarity: null, status: "insufficient_data", computed_at: null });
  });

  it("a full fit (worker thread) finds bridged_true, bridged_false and divided", async () => {
    const summary = await runBridgingFit();
    expect(summary).not.toBeNull();
    expect(summary!.fittedVotes).toBe(13 * 14);
    expect((await bridgingOf(claims.bothTrue)).status).toBe("bridged_true");
    expect((await bridgingOf(claims.bothFalse)).status).toBe("bridged_false");
    const carried = await bridgingOf(claims.carried);
    expect(carried.status).toBe("divided");
    const plain = (await api.get(`/claims/${claims.carried}`)).body.gradient;
    expect(plain).toBeGreaterThan(0.6); // the plain mean leans true; bridging says divided
    for (const id of partisan) expect((await bridgingOf(id)).status).toBe("divided");
    expect(await bridgingOf(claims.unvoted)).toMatchObject({ status: "insufficient_data", score: null });
    const b = await bridgingOf(claims.bothTrue);
    expect(b.score).toBeGreaterThan(0.75);
    expect(Math.abs(b.polarity!)).toBeLessThan(0.15);
    expect(b.computed_at).not.toBeNull();
  });

  it("a second fit over the same votes writes no row (as `npm run bridging:refit` runs it)", async () => {
    const again = await runBridgingFit({ foreground: true });
    expect(again).toMatchObject({ changedClaims: 0, changedAgents: 0 });
  });

  // The worker's heap is capped from the claim and agent counts (PostgreSQL, where it reads the votes).
  // A cap of 2 MB is raised to the floor at which a worker can start, and is still too small for the read.
  it.runIf(dbBackend() === "postgres")("a worker that runs out of its capped heap is run again uncapped: the fit completes", async () => {
    const source = { postgres: config().DATABASE_URL! };
    const fit = await fitOffThread(source, { oldGenerationMb: 2 });
    expect(fit.votes).toBe(13 * 14);
    expect(fit.fit.fittedVotes).toBe(13 * 14);
  });

  it("respects the interval: a fit younger than minIntervalSeconds is skipped", async () => {
    expect(await runBridgingFit({ minIntervalSeconds: 3600, inline: true })).toBeNull();
  });

  it("GET /claims filters by bridging_status and sorts by bridging_score (unscored last)", async () => {
    const divided = await api.get("/claims?bridging_status=divided&tags=bridging-test&limit=100");
    expect(divided.status, divided.text).toBe(200);
    expect(divided.body.total).toBe(11);
    expect(divided.body.claims.every((c: { bridging: { status: string } }) => c.bridging.status === "divided")).toBe(true);

    for (const order of ["desc", "asc"]) {
      const sorted = await api.get(`/claims?sort_by=bridging_score&sort_order=${order}&tags=bridging-test&limit=100`);
      expect(sorted.status).toBe(200);
      const scores = sorted.body.claims.map((c: { bridging: { score: number | null } }) => c.bridging.score);
      expect(scores.at(-1)).toBeNull(); // the unvoted claim, last both ways
      const scored = scores.filter((s: number | null) => s !== null);
      expect(scored).toEqual([...scored].sort((p: number, q: number) => (order === "desc" ? q - p : p - q)));
    }
    expect(
      (await api.get("/claims?sort_by=bridging_score&sort_order=desc&tags=bridging-test&limit=1")).body.claims[0].id,
    ).toBe(claims.bothTrue);

    const bad = await api.get("/claims?bridging_status=maybe");
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/bridging_status/);
  });

  it("claims with new votes are re-scored between fits against the frozen agents", async () => {
    // Camp B changes its mind on the claim both rejected: now camp A says no, camp B yes → divided.
    for (const v of campB) await vote(claims.bothFalse, 0.95, v);
    const pending = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM bridging_pending WHERE claim_id = ${claims.bothFalse}::uuid`;
    expect(pending[0].n).toBe(1);
    expect((await bridgingOf(claims.bothFalse)).status).toBe("bridged_false");
    await rescorePending();
    expect((await bridgingOf(claims.bothFalse)).status).toBe("divided");
    const left = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM bridging_pending`;
    expect(left[0].n).toBe(0);
  });

  it("a brand-new account's vote does not count until the next fit places it", async () => {
    const newcomer = await quickAgent();
    const c = await newClaim(api, author.token);
    await vote(c.id, 1, newcomer);
    await rescorePending();
    expect((await bridgingOf(c.id)).status).toBe("insufficient_data");
  });

  it("re-scoring while people vote on the same claims answers every vote (no deadlock, no 500)", async () => {
    const targets = [claims.bothTrue, claims.bothFalse, claims.carried];
    const voters = [...campA, ...campB];
    let draining = true;
    const drain = (async () => {
      while (draining) {
        await rescorePending();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) {
      const votes = voters.flatMap((v, i) =>
        targets.map((claimId, j) => api.post(`/claims/${claimId}/vote`, { value: ((i + j + round) % 10) / 10 }, { token: v.token })),
      );
      statuses.push(...(await Promise.all(votes)).map((r) => r.status));
    }
    draining = false;
    await drain;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // A mark taken while its claim was being voted on waits for the next round, and is not lost.
    await rescorePending();
    const left = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM bridging_pending`;
    expect(left[0].n).toBe(0);
  });
});

describe("the OpenAPI document", () => {
  it("describes the bridging field, its filter and sort, the track record and the leaderboard", async () => {
    const doc = (await api.get("/openapi.json")).body;
    expect(doc.components.schemas.Claim.properties.bridging).toBeDefined();
    expect(doc.components.schemas.Bridging.properties.status.enum).toEqual([
      "insufficient_data",
      "bridged_true",
      "bridged_false",
      "divided",
      "undecided",
    ]);
    const listParams = doc.paths["/claims"].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toContain("bridging_status");
    const sortBy = doc.paths["/claims"].get.parameters.find((p: { name: string }) => p.name === "sort_by");
    expect(JSON.stringify(sortBy.schema)).toContain("bridging_score");
    expect(doc.paths["/profiles/{agent_id}/track-record"].get).toBeDefined();
    expect(doc.paths["/discover/leaderboard"].get).toBeDefined();
  });
});
