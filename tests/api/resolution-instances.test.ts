// Resolution with two instances (docs/features/consensus.md): two API server processes on one
// PostgreSQL database (this file's schema), both running the resolution job every half second with
// RESOLUTION_STABLE_SECONDS=3. Claims brought to consensus through either instance resolve once each
// after the stable time: one outcome record and one reputation event per voter, whichever instance
// found them due. Only meaningful with a shared database: on PGlite the file is skipped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbReady, readSql } from "../../server/db/client.ts";
import { checkInvariants } from "../../server/services/invariants.ts";
import { callApi, startApiProcess, type ApiProcess } from "../helpers/api-process.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { quickAgent, quickAgents } from "./claims-fixtures.ts";

const onPostgres = !!process.env.DATABASE_URL;
const STABLE_SECONDS = 3;

function stop(server: ApiProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once("exit", () => resolve());
    process.kill(-server.child.pid!, "SIGTERM");
  });
}

describe.skipIf(!onPostgres)("resolution with two instances", () => {
  let a: ApiProcess | undefined;
  let b: ApiProcess | undefined;

  beforeAll(async () => {
    await dbReady();
    const env = { RESOLUTION_STABLE_SECONDS: String(STABLE_SECONDS), LOG_LEVEL: "error" };
    [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  it("each claim resolves once, after the stable time, with both instances' jobs looking for it", { timeout: 120_000 }, async () => {
    const author = await quickAgent();
    const voters = await quickAgents(10);
    const claims: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await callApi(i % 2 ? a! : b!, "POST", "/claims", author.token, { statement: `Two instances resolve claim ${i} once` });
      expect(res.status, res.text).toBe(201);
      claims.push(res.body.id);
    }
    // Every claim to consensus (true for even, false for odd), the votes spread over both instances.
    await Promise.all(
      claims.map(async (id, c) => {
        for (const [i, v] of voters.entries()) {
          const res = await callApi(i % 2 ? a! : b!, "POST", `/claims/${id}/vote`, v.token, { value: c % 2 ? 0.05 : 0.95 });
          expect(res.status, res.text).toBe(200);
        }
      }),
    );
    const reachedAt = Date.now();
    const resolvedAt = async () =>
      readSql<{ id: string; resolved_at: Date | null; consensus_since: Date }>`
        SELECT id::text AS id, resolved_at, consensus_since FROM claims WHERE id = ANY(${claims}::uuid[])`;
    // Not before the stable time.
    for (const row of await resolvedAt()) {
      if (row.resolved_at) expect(row.resolved_at.getTime() - row.consensus_since.getTime()).toBeGreaterThanOrEqual(STABLE_SECONDS * 1000 - 50);
    }
    await eventually(async () => (await resolvedAt()).every((r) => r.resolved_at !== null), 30_000);
    for (const row of await resolvedAt()) {
      expect(row.resolved_at!.getTime() - row.consensus_since.getTime()).toBeGreaterThanOrEqual(STABLE_SECONDS * 1000 - 50);
    }
    expect(Date.now() - reachedAt).toBeLessThan(30_000);
    const [counts] = await readSql<{ records: number; events: number }>`
      SELECT (SELECT count(*)::int FROM vote_outcomes WHERE claim_id = ANY(${claims}::uuid[])) AS records,
             (SELECT count(*)::int FROM reputation_events WHERE claim_id = ANY(${claims}::uuid[])) AS events`;
    expect(Number(counts.records)).toBe(60);
    expect(Number(counts.events)).toBe(60);
    expect(await checkInvariants()).toEqual([]);
    // Each voter: +1 for each of the six aligned votes, once.
    const profile = await callApi(a!, "GET", `/profiles/${voters[0].id}`, author.token);
    expect(profile.body.learning_score.total_resolved_votes).toBe(6);
  });
});
