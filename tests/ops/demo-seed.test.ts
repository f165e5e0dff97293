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

// As on a first `npm run dev`: resolution waits (the tests' default resolves at once, in the vote), and
// standing asks what it asks by default (the tests' default gives every person standing).
vi.hoisted(() => {
  process.env.RESOLUTION_STABLE_SECONDS = "1800";
  process.env.STANDING_MIN_AGE_SECONDS = "86400";
  process.env.STANDING_MIN_VOTES = "5";
  process.env.STANDING_REQUIRE_VERIFIED = "true";
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
    // Beside them, the claims made with a check against the world (server/seed/demo-checks.ts).
    expect(claims.filter((c) => c.check === null).length).toBe(ALL_CLAIMS);
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
      // The rule reads the counted votes only (their accounts have standing).
      const rule = consensusVerdict({ voters: c.consensus.voters, bridgingStatus: c.bridging.status, gradient: c.consensus.gradient ?? 0.5 });
      expect({ claim: c.statement, status: c.consensus.status, decided_by: c.consensus.decided_by }).toEqual({
        claim: c.statement,
        status: rule.status,
        decided_by: rule.decidedBy,
      });
      expect(c.consensus.voters + c.consensus.not_counted.people + c.consensus.not_counted.automated).toBe(c.vote_count);
      expect(c.consensus.histogram.reduce((a, b) => a + b, 0)).toBe(c.consensus.voters);
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

  it("shows agents beside people and names the votes that do not count, with the default standing settings", async () => {
    const claims = await allClaims();
    // The demo's people have standing: joined weeks (or days) ago, verified, five votes or more.
    const ada = await api.post("/auth/login", { email: demoEmail("ada"), password: DEMO_PASSWORD });
    expect((await api.get("/auth/me", { token: ada.body.access_token })).body.standing).toBe(true);
    const sam = await api.post("/auth/login", { email: demoEmail("sam"), password: DEMO_PASSWORD });
    expect((await api.get("/auth/me", { token: sam.body.access_token })).body.standing).toBe(false);
    // A claim where the agents and the people disagree.
    const wall = byStatement(claims, "The Great Wall");
    expect(wall.consensus.status).toBe("consensus_false");
    expect(wall.agents.voters).toBe(3);
    expect(wall.agents.gradient).toBeGreaterThan(0.8);
    expect(wall.consensus.not_counted.automated).toBe(3);
    // The bulls: people rate it false; two accounts without standing and an agent voted too.
    const bulls = byStatement(claims, "Bulls are enraged");
    expect(bulls.consensus).toMatchObject({ status: "consensus_false", voters: 5, not_counted: { people: 2, automated: 1 } });
    const detail = (await api.get(`/claims/${bulls.id}`)).body;
    expect(detail.not_counted_reasons).toMatchObject({ too_new: 1, unverified: 1 });
    // A fresh account's vote does not move it.
    const fresh = await api.post("/auth/register", { email: `fresh-${process.pid}@example.test`, password: "Password123", username: `fresh_${process.pid}` });
    expect(fresh.status, fresh.text).toBe(201);
    const login = await api.post("/auth/login", { email: `fresh-${process.pid}@example.test`, password: "Password123" });
    const voted = await api.post(`/claims/${bulls.id}/vote`, { value: 1 }, { token: login.body.access_token });
    expect(voted.status, voted.text).toBe(200);
    expect(voted.body.consensus).toMatchObject({ status: "consensus_false", voters: 5, since: bulls.consensus.since, not_counted: { people: 3 } });
    expect(voted.body.gradient).toBeGreaterThan(bulls.gradient);
    await api.del(`/claims/${bulls.id}/vote`, { token: login.body.access_token });
  });

  it("resolves the claims the rule resolves, so track records and the leaderboard are populated", async () => {
    const claims = await allClaims();
    const resolvable = claims.filter((c) => isConsensus(c.consensus.status) && c.consensus.voters >= MIN_RESOLUTION_VOTES);
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

describe("demo checks against the world", () => {
  it("has a check in every state and final outcomes enough for the calibration diagram", async () => {
    for (const state of ["open", "closed", "awaiting_outcome", "proposed", "disputed", "final"]) {
      const res = await api.get(`/claims?check=${state}&limit=100`);
      expect(res.body.total, state).toBeGreaterThan(0);
    }
    const calibration = await api.get("/stats/calibration");
    expect(calibration.body.n).toBeGreaterThanOrEqual(6);
    expect(calibration.body.bins.filter((b: { n: number }) => b.n > 0).length).toBeGreaterThanOrEqual(3);
  });
});

