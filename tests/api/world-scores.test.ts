// World scores (docs/features/checks.md#scores) as a property: over random votes, random changes and
// late votes after close_at, and random outcomes (ambiguous and annulled among them), every account's
// `world` track record equals a recomputation by the formulas from what each vote was at close_at.
// PGlite by default, PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { startApi, type TestApi } from "../helpers/api.ts";
import { readSql } from "../../server/db/client.ts";
import { finaliseDueOutcomes, proposeOutcome } from "../../server/services/checks.ts";
import { quickAgent, setReputation, type Voter } from "./claims-fixtures.ts";

let api: TestApi;
let author: Voter;
let proposer: Voter;
beforeAll(async () => {
  api = await startApi();
  author = await quickAgent();
  proposer = await quickAgent();
  await setReputation(proposer.id, 10_000);
  await readSql`UPDATE agents SET standing = true WHERE id = ${proposer.id}::uuid`;
});
afterAll(async () => {
  await api.close();
});

const OUTCOMES = ["true", "false", "ambiguous", "annulled"] as const;
const VOTERS = 4;
const value = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);
/** A voter on one claim: its vote before close_at (or none), and what it does after (nothing, changes, removes, or votes late). */
const voterPlan = fc.record({ before: fc.option(value, { nil: null }), after: fc.oneof(fc.constant<"keep">("keep"), fc.constant<"remove">("remove"), value) });
const claimPlan = fc.record({ outcome: fc.constantFrom(...OUTCOMES), voters: fc.array(voterPlan, { minLength: VOTERS, maxLength: VOTERS }) });

/** The formulas, written out again here: Brier, log (clipped at 0.001), peer against the other scored voters' mean. */
function expected(mine: (v: { voter: number }) => boolean, all: { claim: number; voter: number; value: number; o: number }[]) {
  const own = all.filter(mine);
  if (own.length === 0) return { scored: 0, brier: null, log: null, peer: null };
  const peers = own
    .map((v) => {
      const others = all.filter((x) => x.claim === v.claim && x.voter !== v.voter);
      if (others.length === 0) return null;
      const m = others.reduce((s, x) => s + x.value, 0) / others.length;
      return (m - v.o) ** 2 - (v.value - v.o) ** 2;
    })
    .filter((x): x is number => x !== null);
  return {
    scored: own.length,
    brier: own.reduce((s, v) => s + (v.value - v.o) ** 2, 0) / own.length,
    log: own.reduce((s, v) => s + Math.log(Math.min(0.999, Math.max(0.001, v.o ? v.value : 1 - v.value))), 0) / own.length,
    peer: peers.length ? peers.reduce((s, x) => s + x, 0) / peers.length : null,
  };
}

describe("world scores", () => {
  it("equal a recomputation by formula over random votes and outcomes", { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(claimPlan, { minLength: 1, maxLength: 3 }), async (plans) => {
        const voters = await Promise.all(Array.from({ length: VOTERS }, () => quickAgent()));
        const scoredVotes: { claim: number; voter: number; value: number; o: number }[] = [];
        for (const [ci, plan] of plans.entries()) {
          const created = await api.post(
            "/claims",
            { statement: `A claim to score ${randomUUID()}`, check: { criteria: "Whatever the report says", check_at: new Date(Date.now() + 3_600_000).toISOString() } },
            { token: author.token },
          );
          expect(created.status, created.text).toBe(201);
          const id = created.body.id;
          for (const [vi, v] of plan.voters.entries()) {
            if (v.before !== null) expect((await api.post(`/claims/${id}/vote`, { value: v.before }, { token: voters[vi].token })).status).toBe(200);
          }
          // Time passes: close_at and check_at are now.
          await readSql`UPDATE claim_checks SET close_at = now(), check_at = now() WHERE claim_id = ${id}::uuid`;
          for (const [vi, v] of plan.voters.entries()) {
            if (v.after === "remove") {
              if (v.before !== null) expect((await api.del(`/claims/${id}/vote`, { token: voters[vi].token })).status).toBe(204);
            } else if (v.after !== "keep") {
              expect((await api.post(`/claims/${id}/vote`, { value: v.after }, { token: voters[vi].token })).status).toBe(200);
            }
          }
          expect(await proposeOutcome({ claimId: id, proposerId: proposer.id, outcome: plan.outcome, evidenceUrl: "https://example.org/r", note: "n" })).toEqual({ ok: true });
          await readSql`UPDATE claim_checks SET dispute_deadline = now() WHERE claim_id = ${id}::uuid`;
          if (plan.outcome === "true" || plan.outcome === "false") {
            for (const [vi, v] of plan.voters.entries()) {
              if (v.before !== null) scoredVotes.push({ claim: ci, voter: vi, value: v.before, o: plan.outcome === "true" ? 1 : 0 });
            }
          }
        }
        expect(await finaliseDueOutcomes()).toBe(plans.length);
        for (const [vi, voter] of voters.entries()) {
          const got = (await api.get(`/profiles/${voter.id}/track-record`)).body.world;
          const want = expected((v) => v.voter === vi, scoredVotes);
          expect(got.scored).toBe(want.scored);
          for (const key of ["brier", "log", "peer"] as const) {
            if (want[key] === null) expect(got[key], key).toBeNull();
            else expect(got[key], key).toBeCloseTo(want[key] as number, 9);
          }
          expect(got.calibration.reduce((s: number, b: { n: number }) => s + b.n, 0)).toBe(want.scored);
        }
      }),
      { numRuns: 6, seed: 20261128 },
    );
  });
});
