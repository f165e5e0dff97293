// Concurrency storms through real HTTP on the configured database (PostgreSQL with DATABASE_URL, else
// PGlite). Unlike tests/api/concurrency.test.ts (one kind of write at a time), everything happens at
// once here: two dozen agents cast, change and remove claim votes and evidence votes on a few hot
// claims, while one claim resolves mid-storm and evidence votes move the reputation (so the vote
// weight) of agents who are voting themselves. Each agent's own requests are sequential, so the final
// rows are known exactly; across agents everything overlaps. Afterwards the stored rows equal that
// model, every derived field equals what the rows say (checkInvariants), and `npm run
// check:invariants` says the same from outside, on PostgreSQL and on an embedded PGlite directory.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../server/db/client.ts";
import { seededRandom } from "../../server/domain/bridging.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { newClaim, newEvidence, quickAgent, quickAgents, setReputation, type Voter } from "../api/claims-fixtures.ts";
import { startApi, type ApiResponse, type TestApi } from "../helpers/api.ts";

const root = path.resolve(import.meta.dirname, "../..");
const onPostgres = !!process.env.DATABASE_URL;

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

type Op =
  | { kind: "vote"; claimId: string; value: number }
  | { kind: "unvote"; claimId: string }
  | { kind: "evidence-vote"; evidenceId: string; direction: "up" | "down" }
  | { kind: "evidence-unvote"; evidenceId: string };

function send(op: Op, token: string): Promise<ApiResponse> {
  switch (op.kind) {
    case "vote":
      return api.post(`/claims/${op.claimId}/vote`, { value: op.value }, { token });
    case "unvote":
      return api.del(`/claims/${op.claimId}/vote`, { token });
    case "evidence-vote":
      return api.post(`/evidence/${op.evidenceId}/vote`, { direction: op.direction }, { token });
    case "evidence-unvote":
      return api.del(`/evidence/${op.evidenceId}/vote`, { token });
  }
}

/** Runs `run(i)` for i in [0, n) with at most `width` running at once. */
async function pool<T>(n: number, width: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await run(i);
      }
    }),
  );
  return out;
}

/** `npm run check:invariants` against the given environment: exit code and output. */
function checkInvariantsCli(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/cli/check-invariants.ts"], { cwd: root, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe(`a storm of claim votes and evidence votes (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  const AGENTS = 24;
  const OPS_PER_AGENT = 14;

  it("leaves exactly the rows each agent's last answer says, and every invariant holds", { timeout: 240_000 }, async () => {
    // Seeded (mulberry32, the bridging simulations' generator): a failing storm can be replayed.
    const rand = seededRandom(20261121);
    const claimAuthor = await quickAgent();
    const agents = await quickAgents(AGENTS);
    // Different reputations, so a lost or doubled update would show in the weighted sums.
    for (const [i, a] of agents.entries()) if (i % 3) await setReputation(a.id, (i * 37) % 400);
    // "consensus" collects high votes: it resolves mid-storm, rewarding voters while they vote.
    const [consensus, contested, quiet] = [await newClaim(api, claimAuthor.token), await newClaim(api, claimAuthor.token), await newClaim(api, claimAuthor.token)];
    const claims = [consensus.id, contested.id, quiet.id];
    // Evidence written by storm agents: votes on it move the reputation of agents who are voting.
    const writers = agents.slice(0, 4);
    const evidence: { id: string; author: Voter }[] = [];
    for (const [i, w] of writers.entries()) evidence.push({ id: (await newEvidence(api, w.token, claims[i % 3])).id, author: w });

    const plans: Op[][] = agents.map(() =>
      Array.from({ length: OPS_PER_AGENT }, (): Op => {
        const r = rand();
        if (r < 0.45) {
          const claimId = claims[Math.floor(rand() * claims.length)];
          const value = claimId === consensus.id ? 0.85 + 0.15 * rand() : Math.round(rand() * 100) / 100;
          return { kind: "vote", claimId, value };
        }
        if (r < 0.6) return { kind: "unvote", claimId: claims[Math.floor(rand() * claims.length)] };
        const target = evidence[Math.floor(rand() * evidence.length)].id;
        if (r < 0.9) return { kind: "evidence-vote", evidenceId: target, direction: rand() < 0.6 ? "up" : "down" };
        return { kind: "evidence-unvote", evidenceId: target };
      }),
    );

    // What each agent's own sequence leaves behind.
    const expectedVotes = new Map<string, number>();
    const expectedEvidenceVotes = new Map<string, "up" | "down">();
    const failures: string[] = [];
    await Promise.all(
      agents.map(async (agent, i) => {
        for (const op of plans[i]) {
          const res = await send(op, agent.token);
          const ownEvidence = op.kind === "evidence-vote" && evidence.some((e) => e.id === op.evidenceId && e.author.id === agent.id);
          const expected = ownEvidence ? 403 : op.kind.endsWith("unvote") ? 204 : 200;
          if (res.status !== expected) failures.push(`${op.kind} by agent ${i}: ${res.status} ${res.text.slice(0, 200)}`);
          if (res.status >= 400) continue;
          if (op.kind === "vote") expectedVotes.set(`${agent.id}/${op.claimId}`, op.value);
          if (op.kind === "unvote") expectedVotes.delete(`${agent.id}/${op.claimId}`);
          if (op.kind === "evidence-vote") expectedEvidenceVotes.set(`${agent.id}/${op.evidenceId}`, op.direction);
          if (op.kind === "evidence-unvote") expectedEvidenceVotes.delete(`${agent.id}/${op.evidenceId}`);
        }
      }),
    );
    expect(failures).toEqual([]);

    const votes = await db().claimVote.findMany({ where: { claimId: { in: claims } } });
    expect(new Map(votes.map((v) => [`${v.agentId}/${v.claimId}`, v.value]))).toEqual(expectedVotes);
    const evidenceVotes = await db().evidenceVote.findMany({ where: { evidenceId: { in: evidence.map((e) => e.id) } } });
    expect(new Map(evidenceVotes.map((v) => [`${v.agentId}/${v.evidenceId}`, v.direction]))).toEqual(expectedEvidenceVotes);

    // The consensus claim resolved exactly once: one outcome event per voter at most.
    const resolved = await db().claim.findUniqueOrThrow({ where: { id: consensus.id } });
    expect(resolved.resolvedAt).not.toBeNull();
    const outcomes = await db().reputationEvent.groupBy({
      by: ["agentId"],
      where: { claimId: consensus.id, reason: { in: ["vote_aligned", "vote_opposed"] } },
      _count: true,
    });
    expect(outcomes.length).toBeGreaterThanOrEqual(10);
    expect(outcomes.filter((o) => o._count !== 1)).toEqual([]);

    expect(await checkInvariants()).toEqual([]);
    // The public view agrees with the rows.
    for (const claimId of claims) {
      const view = await api.get(`/claims/${claimId}`);
      expect(view.body.vote_count).toBe(votes.filter((v) => v.claimId === claimId).length);
    }
  });

  it("same agent, same target, many requests at once: one row, no 5xx, invariants hold", { timeout: 120_000 }, async () => {
    const author = await quickAgent();
    const writer = await quickAgent();
    const claim = await newClaim(api, author.token);
    const ev = await newEvidence(api, writer.token, claim.id);
    const agents = await quickAgents(6);
    const responses = await pool(agents.length * 16, 24, (i) => {
      const agent = agents[i % agents.length];
      const k = Math.floor(i / agents.length);
      const op: Op =
        k % 4 === 0
          ? { kind: "vote", claimId: claim.id, value: (k % 7) / 6 }
          : k % 4 === 1
            ? { kind: "evidence-vote", evidenceId: ev.id, direction: k % 3 ? "up" : "down" }
            : k % 4 === 2
              ? { kind: "unvote", claimId: claim.id }
              : { kind: "evidence-unvote", evidenceId: ev.id };
      return send(op, agent.token);
    });
    expect(responses.filter((r) => ![200, 204].includes(r.status)).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    for (const agent of agents) {
      expect(await db().claimVote.count({ where: { claimId: claim.id, agentId: agent.id } })).toBeLessThanOrEqual(1);
      expect(await db().evidenceVote.count({ where: { evidenceId: ev.id, agentId: agent.id } })).toBeLessThanOrEqual(1);
    }
    expect(await checkInvariants()).toEqual([]);
  });
});

describe("npm run check:invariants on any database", () => {
  it.skipIf(!onPostgres)("on PostgreSQL (DATABASE_URL, this file's schema): clean, then a broken counter is named, exit 1", { timeout: 120_000 }, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.PGLITE_DATA_DIR;
    const clean = await checkInvariantsCli(env);
    expect(clean.output).toContain("Invariants hold (postgres)");
    expect(clean.code).toBe(0);

    const claim = await db().claim.findFirstOrThrow({ select: { id: true, voteCount: true } });
    await db().claim.update({ where: { id: claim.id }, data: { voteCount: { increment: 1 } } });
    try {
      const broken = await checkInvariantsCli(env);
      expect(broken.code).toBe(1);
      expect(broken.output).toContain(`claim ${claim.id}: stored vote_count=${claim.voteCount + 1}`);
    } finally {
      await db().claim.update({ where: { id: claim.id }, data: { voteCount: claim.voteCount } });
    }
  });

  // Each run checks the backend it is testing (the PGlite one spawns three processes that each open PGlite).
  it.skipIf(onPostgres)("on an embedded PGlite directory (DATA_DIR): clean, then a broken counter is named, exit 1", { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "claims-invariants-"));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.PGLITE_DATA_DIR;
    try {
      // Migrates the new directory and finds an empty, consistent database.
      const clean = await checkInvariantsCli(env);
      expect(clean.output).toContain("Invariants hold (pglite)");
      expect(clean.code).toBe(0);

      const seed = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "tests/security/seed-broken-claim.ts"], { cwd: root, env });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("close", (code) => resolve({ code, output }));
      });
      expect(seed.code, seed.output).toBe(0);
      const claimId = seed.output.trim().split("\n").pop();
      const broken = await checkInvariantsCli(env);
      expect(broken.code, broken.output).toBe(1);
      expect(broken.output).toContain(`claim ${claimId}: stored vote_count=3`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
