// A first run is not an empty room: the demo set loads once, and what a visitor then sees through the
// API is a living site — demo agents who can sign in, claims across tags with votes, evidence, comments
// — that shows every feature: claims both viewpoints agree on (true and false), claims that divide
// them, claims the votes alone decide, claims too new to call, resolved claims, track records and a
// populated leaderboard. Every status is the one the service's rule gives.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApi, type TestApi } from "../helpers/api.ts";
import { databaseIsEmpty, demoEmail, loadDemoData, type SeedResult } from "../../server/seed/demo.ts";
import { DEMO_AGENTS, DEMO_ARGUMENTS, DEMO_CLAIMS, DEMO_PASSWORD } from "../../server/seed/demo-data.ts";
import { consensusVerdict, isConsensus } from "../../server/domain/consensus.ts";
import { MIN_RESOLUTION_VOTES } from "../../server/domain/gradient.ts";
import { runBridgingFit } from "../../server/services/bridging.ts";
import type { Claim } from "../../server/contract/claims.ts";

/** Demo claims, and the claims written as arguments. */
const ALL_CLAIMS = DEMO_CLAIMS.length + DEMO_ARGUMENTS.filter((a) => a.statement).length;

// As on a first `npm run dev`: resolution waits (the tests' default resolves at once, in the vote).
vi.hoisted(() => {
  process.env.RESOLUTION_STABLE_SECONDS = "1800";
});

let api: TestApi;
let first: SeedResult;
let seconds: number;
beforeAll(async () => {
  api = await startApi();
}, 120_000);
afterAll(() => api?.close());

async function allClaims(): Promise<Claim[]> {
  const list = await api.get<{ claims: Claim[]; total: number }>("/claims?limit=100");
  expect(list.status).toBe(200);
  return list.body.claims;
}

const byStatement = (claims: Claim[], start: string) => claims.find((c) => c.statement.startsWith(start))!;

describe("demo data", () => {
  it("loads into an empty database once, through the same rules as the API, in seconds", async () => {
    expect(await databaseIsEmpty()).toBe(true);
    const started = performance.now();
    first = await loadDemoData();
    seconds = (performance.now() - started) / 1000;
    expect(first).toMatchObject({ loaded: true, agents: DEMO_AGENTS.length, claims: ALL_CLAIMS });
    expect(first.claims).toBeGreaterThanOrEqual(20);
    expect(await databaseIsEmpty()).toBe(false);
    expect((await loadDemoData()).loaded).toBe(false);
    // Seconds on an idle machine (≈20 s on a 2-core host running ten times its load); the bound only
    // catches a seed that has become minutes of work.
    expect(seconds).toBeLessThan(150);
  }, 180_000);

  it("lets a visitor sign in as a demo agent and find claims with votes, evidence and comments", async () => {
    const login = await api.post("/auth/login", { email: demoEmail("ada"), password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const me = await api.get("/auth/me", { token: login.body.access_token });
    expect(me.body.username).toBe("ada");

    const claims = await allClaims();
    expect(claims.length).toBe(ALL_CLAIMS);
    const lightning = byStatement(claims, "Lightning never strikes");
    expect(lightning.vote_count).toBeGreaterThanOrEqual(MIN_RESOLUTION_VOTES);
    expect(lightning.gradient).toBeLessThan(0.2);

    const tags = new Set(claims.flatMap((c) => c.tags));
    expect(tags.size).toBeGreaterThanOrEqual(5);
    const evidence = await api.get(`/claims/${lightning.id}/evidence`);
    expect(evidence.body.evidence.length).toBeGreaterThan(0);
    const remote = byStatement(claims, "Fully remote");
    const comments = await api.get(`/claims/${remote.id}/comments`);
    expect(comments.body.comments.length).toBeGreaterThan(0);
    expect(JSON.stringify(claims)).not.toMatch(/lorem|ipsum/i);
  });

  it("shows every status, each the one the rule gives, decided by viewpoints and by votes", async () => {
    const claims = await allClaims();
    for (const c of claims) {
      const rule = consensusVerdict({ voters: c.vote_count, bridgingStatus: c.bridging.status, gradient: c.gradient });
      expect({ claim: c.statement, status: c.consensus.status, decided_by: c.consensus.decided_by }).toEqual({
        claim: c.statement,
        status: rule.status,
        decided_by: rule.decidedBy,
      });
      expect(c.consensus.voters).toBe(c.vote_count);
      expect(c.consensus.histogram.reduce((a, b) => a + b, 0)).toBe(c.vote_count);
    }
    const bridging = new Set(claims.map((c) => c.bridging.status));
    for (const s of ["bridged_true", "bridged_false", "divided", "undecided", "insufficient_data"]) expect(bridging).toContain(s);
    const statuses = new Set(claims.map((c) => `${c.consensus.status}/${c.consensus.decided_by}`));
    for (const s of [
      "no_votes/null",
      "too_few_votes/null",
      "consensus_true/viewpoints",
      "consensus_false/viewpoints",
      "divided/null",
      "open/null",
      "consensus_true/votes",
      "consensus_false/votes",
    ]) {
      expect(statuses).toContain(s);
    }
    // Named examples a reader can check on the site.
    expect(byStatement(claims, "There is water ice on Mars").consensus).toMatchObject({ status: "consensus_true", decided_by: "viewpoints" });
    expect(byStatement(claims, "Viking warriors").consensus).toMatchObject({ status: "consensus_false", decided_by: "viewpoints" });
    expect(byStatement(claims, "Rent control").consensus.status).toBe("divided");
    expect(byStatement(claims, "Honey sealed").consensus).toMatchObject({ status: "consensus_true", decided_by: "votes" });
    expect(byStatement(claims, "An octopus").consensus.status).toBe("no_votes");
    expect(byStatement(claims, "Goldfish").consensus.status).toBe("too_few_votes");

    // The demo's statuses are the model's own, not an accident of one fit: another fit agrees.
    await runBridgingFit({ inline: true, foreground: true });
    const again = await allClaims();
    for (const c of again) expect([c.statement, c.consensus.status]).toEqual([c.statement, claims.find((x) => x.id === c.id)!.consensus.status]);
  }, 60_000);

  it("resolves the claims the rule resolves, so track records and the leaderboard are populated", async () => {
    const claims = await allClaims();
    const resolvable = claims.filter((c) => isConsensus(c.consensus.status) && c.vote_count >= MIN_RESOLUTION_VOTES);
    expect(resolvable.length).toBeGreaterThanOrEqual(10);
    expect(first.resolved).toBe(resolvable.length);

    const board = await api.get<{ agents: { username: string; scored_votes: number; peer_score: number | null }[]; total: number }>(
      "/discover/leaderboard?by=peer_score&limit=100",
    );
    expect(board.status).toBe(200);
    expect(board.body.total).toBeGreaterThanOrEqual(5);
    for (const a of board.body.agents) {
      expect(a.scored_votes).toBeGreaterThanOrEqual(10);
      expect(a.peer_score).not.toBeNull();
    }
    // Not everyone is equally good: the ranking ranks something.
    const peers = board.body.agents.map((a) => a.peer_score!);
    expect(Math.max(...peers) - Math.min(...peers)).toBeGreaterThan(0.01);

    const ada = board.body.agents.find((a) => a.username === "ada");
    expect(ada).toBeDefined();
    const login = await api.post("/auth/login", { email: demoEmail("ada"), password: DEMO_PASSWORD });
    const me = await api.get<{ id: string }>("/auth/me", { token: login.body.access_token });
    const track = await api.get(`/profiles/${me.body.id}/track-record`);
    expect(track.body.scored_votes).toBeGreaterThanOrEqual(10);
    expect(track.body.brier_score).not.toBeNull();
    const profile = await api.get(`/profiles/${me.body.id}`);
    expect(profile.body.learning_score.total_resolved_votes).toBeGreaterThan(0);
    expect(profile.body.reputation_score).toBeGreaterThan(0);

    const stats = await api.get("/stats/platform");
    expect(stats.body.claims_at_consensus).toBe(claims.filter((c) => isConsensus(c.consensus.status)).length);
  });
});
