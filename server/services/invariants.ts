// Every derived field recomputed from the raw rows and compared with what is stored: the running
// sums, vote counts and gradients of claims, the evidence counters, the claims counter, and each
// agent's reputation, tier and resolved-vote counts against their reputation events.
// Used after concurrency tests and by `npm run check:invariants` against any database.
import { db } from "../db/client.ts";
import { ESTABLISHED_MIN, TRUSTED_MIN } from "../domain/reputation.ts";
import { MIN_VOTE_WEIGHT, NEUTRAL_GRADIENT } from "../domain/gradient.ts";

/** Floats are compared with this tolerance, relative to the size of the value when it exceeds 1. */
export const TOLERANCE = 1e-6;
/** Rows reported per check: enough to diagnose, bounded on a broken large database. */
const MAX_REPORTED = 100;

type Row = Record<string, unknown>;

interface Check {
  sql: string;
  describe(row: Row): string;
}

const differs = (stored: string, expected: string) =>
  `abs((${stored}) - (${expected})) > ${TOLERANCE} * greatest(1, abs(${expected}))`;

const CHECKS: Check[] = [
  {
    // vote_count, Σw·v, Σw and the gradient against the claim's vote rows.
    sql: `
      WITH v AS (
        SELECT claim_id, count(*) AS n, sum(weight * value) AS swv, sum(weight) AS sw FROM claim_votes GROUP BY claim_id
      ), c AS (
        SELECT c.id, c.vote_count, c.weighted_sum, c.weight_total, c.gradient,
               coalesce(v.n, 0) AS n, coalesce(v.swv, 0) AS swv, coalesce(v.sw, 0) AS sw
        FROM claims c LEFT JOIN v ON v.claim_id = c.id
      )
      SELECT id::text AS id, vote_count, n, weighted_sum, swv, weight_total, sw, gradient,
             CASE WHEN n = 0 OR sw < ${MIN_VOTE_WEIGHT / 2} THEN ${NEUTRAL_GRADIENT}
                  ELSE least(1, greatest(0, swv / sw)) END AS expected_gradient
      FROM c
      WHERE vote_count <> n OR ${differs("weighted_sum", "swv")} OR ${differs("weight_total", "sw")}
         OR ${differs("gradient", `CASE WHEN n = 0 OR sw < ${MIN_VOTE_WEIGHT / 2} THEN ${NEUTRAL_GRADIENT} ELSE least(1, greatest(0, swv / sw)) END`)}`,
    describe: (r) =>
      `claim ${r.id}: stored vote_count=${r.vote_count} weighted_sum=${r.weighted_sum} weight_total=${r.weight_total} gradient=${r.gradient}; ` +
      `from its votes: ${r.n} votes, Σw·v=${r.swv}, Σw=${r.sw}, gradient=${r.expected_gradient}`,
  },
  {
    // The newest gradient-history point is the claim's current state (every change appends one).
    sql: `
      SELECT c.id::text AS id, c.gradient, c.vote_count, h.gradient AS h_gradient, h.vote_count AS h_vote_count
      FROM claims c
      JOIN LATERAL (SELECT gradient, vote_count FROM gradient_history WHERE claim_id = c.id ORDER BY id DESC LIMIT 1) h ON true
      WHERE h.vote_count <> c.vote_count OR ${differs("h.gradient", "c.gradient")}`,
    describe: (r) =>
      `claim ${r.id}: gradient=${r.gradient} vote_count=${r.vote_count} but its last history point says ${r.h_gradient}, ${r.h_vote_count}`,
  },
  {
    sql: `
      WITH e AS (SELECT claim_id, count(*) AS n FROM evidence GROUP BY claim_id),
           m AS (SELECT claim_id, count(*) AS n FROM comments GROUP BY claim_id)
      SELECT c.id::text AS id, c.evidence_count, coalesce(e.n, 0) AS evidence_rows, c.comment_count, coalesce(m.n, 0) AS comment_rows
      FROM claims c LEFT JOIN e ON e.claim_id = c.id LEFT JOIN m ON m.claim_id = c.id
      WHERE c.evidence_count <> coalesce(e.n, 0) OR c.comment_count <> coalesce(m.n, 0)`,
    describe: (r) =>
      `claim ${r.id}: evidence_count=${r.evidence_count} for ${r.evidence_rows} evidence rows, comment_count=${r.comment_count} for ${r.comment_rows} comment rows`,
  },
  {
    sql: `
      WITH v AS (
        SELECT evidence_id, count(*) FILTER (WHERE direction = 'up') AS up, count(*) FILTER (WHERE direction = 'down') AS down
        FROM evidence_votes GROUP BY evidence_id
      )
      SELECT e.id::text AS id, e.upvotes, e.downvotes, e.vote_score, coalesce(v.up, 0) AS up, coalesce(v.down, 0) AS down
      FROM evidence e LEFT JOIN v ON v.evidence_id = e.id
      WHERE e.upvotes <> coalesce(v.up, 0) OR e.downvotes <> coalesce(v.down, 0) OR e.vote_score <> coalesce(v.up, 0) - coalesce(v.down, 0)`,
    describe: (r) =>
      `evidence ${r.id}: upvotes=${r.upvotes} downvotes=${r.downvotes} vote_score=${r.vote_score} but ${r.up} up and ${r.down} down vote rows`,
  },
  {
    sql: `
      SELECT (SELECT value FROM platform_counters WHERE name = 'claims') AS counter, (SELECT count(*) FROM claims) AS n
      WHERE (SELECT value FROM platform_counters WHERE name = 'claims') IS DISTINCT FROM (SELECT count(*) FROM claims)`,
    describe: (r) => `platform counter 'claims' is ${r.counter ?? "missing"} but there are ${r.n} claims`,
  },
  {
    // Reputation is the sum of its events (each records the change actually applied), never
    // negative, its tier follows it, and the resolved-vote counts match the resolution events.
    sql: `
      WITH ev AS (
        SELECT agent_id, sum(delta) AS total,
               count(*) FILTER (WHERE reason IN ('vote_aligned', 'vote_opposed')) AS resolved,
               count(*) FILTER (WHERE reason = 'vote_aligned') AS correct
        FROM reputation_events GROUP BY agent_id
      ), a AS (
        SELECT a.id, a.reputation, a.tier::text AS tier, a.resolved_votes, a.correct_resolved_votes,
               coalesce(ev.total, 0) AS events_total, coalesce(ev.resolved, 0) AS resolved, coalesce(ev.correct, 0) AS correct,
               CASE WHEN a.reputation >= ${TRUSTED_MIN} THEN 'trusted' WHEN a.reputation >= ${ESTABLISHED_MIN} THEN 'established' ELSE 'new' END AS expected_tier
        FROM agents a LEFT JOIN ev ON ev.agent_id = a.id
      )
      SELECT id::text AS id, reputation, events_total, tier, expected_tier, resolved_votes, resolved, correct_resolved_votes, correct
      FROM a
      WHERE reputation < 0 OR ${differs("reputation", "events_total")} OR tier <> expected_tier
         OR resolved_votes <> resolved OR correct_resolved_votes <> correct`,
    describe: (r) =>
      `agent ${r.id}: reputation=${r.reputation} (events sum to ${r.events_total}), tier=${r.tier} (expected ${r.expected_tier}), ` +
      `resolved_votes=${r.resolved_votes}/${r.resolved}, correct_resolved_votes=${r.correct_resolved_votes}/${r.correct}`,
  },
];

/** Every violation found, one line each; empty when the database is consistent. */
export async function checkInvariants(): Promise<string[]> {
  const violations: string[] = [];
  for (const check of CHECKS) {
    const rows = await db().$queryRawUnsafe<Row[]>(`${check.sql}\nLIMIT ${MAX_REPORTED}`);
    violations.push(...rows.map(check.describe));
  }
  return violations;
}
