// Every derived field recomputed from the raw rows and compared with what is stored: the running
// sums, vote counts and gradients of claims, the evidence and comment counters, the platform counters
// (claims, the claim-vote stripes), the tag counters (tag_stats, tag_daily_counts), each agent's
// reputation and tier against their reputation events, and the outcome records against the
// resolution events and the agents' resolved-vote counts, every claim's bridging row, and each claim's
// counted sums, histograms and consensus status, each vote's sorting and each account's standing
// (docs/features/consensus.md), each argument's relevance sums (docs/features/arguments.md), each
// check's bonds, and what its world scores are computed from (docs/features/checks.md#scores): the
// votes kept at close_at and the check's stage and outcome.
// Used after concurrency tests and by `npm run check:invariants` against any database.
import { readSql } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { ESTABLISHED_MIN, TRUSTED_MIN } from "../domain/reputation.ts";
import { MIN_VOTE_WEIGHT, NEUTRAL_GRADIENT } from "../domain/gradient.ts";
import { visibleClaimText } from "./visibility.ts";
import { HISTOGRAM_BINS, histogramBinSql, MIN_CONSENSUS_VOTERS } from "../domain/consensus.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW } from "../domain/gradient.ts";
import { sameVerdict, standingOf } from "../domain/standing.ts";
import { factsFromRow, ruleFromRow, STANDING_FACT_COLUMNS, type StandingFactRow } from "./standing.ts";
import { UNDISPUTED_REWARD } from "../domain/checks.ts";
import { TOMBSTONE_AGENT_ID } from "../domain/accounts.ts";

// Counters count visible content only (docs/features/moderation.md; server/services/visibility.ts): the claims total,
// the vote total, the tag counters over visible claims; evidence_count and comment_count over the
// claim's evidence and comments that are not hidden themselves.
const VISIBLE_CLAIM = visibleClaimText("c");

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
    // Every claim has its bridging row (inserted with it by a trigger), with the claim's created_at.
    sql: `
      SELECT c.id::text AS id, c.created_at, b.created_at AS b_created_at
      FROM claims c LEFT JOIN claim_bridging b ON b.claim_id = c.id
      WHERE b.claim_id IS NULL OR b.created_at <> c.created_at`,
    describe: (r) =>
      r.b_created_at === null
        ? `claim ${r.id}: no claim_bridging row`
        : `claim ${r.id}: claim_bridging.created_at ${String(r.b_created_at)} differs from the claim's ${String(r.created_at)}`,
  },
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
    // gradient_people's sums against the votes of people (accounts not automated when they voted), and
    // the counted sums (consensus.voters, the gradient the rule reads) against the votes with standing.
    sql: `
      WITH v AS (
        SELECT claim_id,
               count(*) FILTER (WHERE NOT automated) AS pn, sum(weight * value) FILTER (WHERE NOT automated) AS pswv,
               sum(weight) FILTER (WHERE NOT automated) AS psw,
               count(*) FILTER (WHERE counted) AS cn, sum(weight * value) FILTER (WHERE counted) AS cswv,
               sum(weight) FILTER (WHERE counted) AS csw
        FROM claim_votes GROUP BY claim_id
      )
      SELECT c.id::text AS id, c.people_vote_count, c.people_weighted_sum, c.people_weight_total,
             coalesce(v.pn, 0) AS pn, coalesce(v.pswv, 0) AS pswv, coalesce(v.psw, 0) AS psw,
             c.counted_vote_count, c.counted_weighted_sum, c.counted_weight_total,
             coalesce(v.cn, 0) AS cn, coalesce(v.cswv, 0) AS cswv, coalesce(v.csw, 0) AS csw
      FROM claims c LEFT JOIN v ON v.claim_id = c.id
      WHERE c.people_vote_count <> coalesce(v.pn, 0) OR ${differs("c.people_weighted_sum", "coalesce(v.pswv, 0)")}
         OR ${differs("c.people_weight_total", "coalesce(v.psw, 0)")}
         OR c.counted_vote_count <> coalesce(v.cn, 0) OR ${differs("c.counted_weighted_sum", "coalesce(v.cswv, 0)")}
         OR ${differs("c.counted_weight_total", "coalesce(v.csw, 0)")}`,
    describe: (r) =>
      `claim ${r.id}: stored people_vote_count=${r.people_vote_count} people_weighted_sum=${r.people_weighted_sum} ` +
      `people_weight_total=${r.people_weight_total}, counted_vote_count=${r.counted_vote_count} counted_weighted_sum=${r.counted_weighted_sum} ` +
      `counted_weight_total=${r.counted_weight_total}; from the votes of people: ${r.pn} votes, Σw·v=${r.pswv}, Σw=${r.psw}; ` +
      `from the counted votes: ${r.cn} votes, Σw·v=${r.cswv}, Σw=${r.csw}`,
  },
  {
    // Every vote is sorted as its account is (automated or not; counted when it has standing, never
    // when automated), unless the account is marked for the standing job, which is about to re-sort it.
    sql: `
      SELECT v.claim_id::text AS claim_id, v.agent_id::text AS agent_id, v.automated, v.counted,
             a.automated AS agent_automated, a.standing AS agent_standing
      FROM claim_votes v JOIN agents a ON a.id = v.agent_id
      WHERE (v.counted AND v.automated)
         OR ((v.automated <> a.automated OR v.counted <> (a.standing AND NOT a.automated))
             AND NOT EXISTS (SELECT 1 FROM standing_pending p WHERE p.agent_id = v.agent_id))`,
    describe: (r) =>
      `vote of agent ${r.agent_id} on claim ${r.claim_id}: automated=${r.automated} counted=${r.counted} but the account says ` +
      `automated=${r.agent_automated} standing=${r.agent_standing} and is not marked for restating`,
  },
  {
    // The histograms against the claim's vote rows: the counted votes and the automated accounts' votes
    // per value bin, counted in one pass over the votes (a look-up per claim and bin took 24 s on 20k
    // claims once the planner knew that few of them have votes).
    sql: `
      WITH v AS (
        SELECT claim_id,
               ARRAY[${Array.from({ length: HISTOGRAM_BINS }, (_, b) => `count(*) FILTER (WHERE bin = ${b} AND counted)`).join(", ")}]::int[] AS counted,
               ARRAY[${Array.from({ length: HISTOGRAM_BINS }, (_, b) => `count(*) FILTER (WHERE bin = ${b} AND automated)`).join(", ")}]::int[] AS agents
        FROM (SELECT claim_id, counted, automated, ${histogramBinSql("value")} AS bin FROM claim_votes) x GROUP BY claim_id
      ), h AS (
        SELECT c.id, c.counted_histogram, c.agents_histogram,
               coalesce(v.counted, ARRAY[${new Array(HISTOGRAM_BINS).fill(0).join(", ")}]::int[]) AS counted,
               coalesce(v.agents, ARRAY[${new Array(HISTOGRAM_BINS).fill(0).join(", ")}]::int[]) AS agents
        FROM claims c LEFT JOIN v ON v.claim_id = c.id
      )
      SELECT id::text AS id, array_to_string(counted_histogram, ',') AS stored, array_to_string(counted, ',') AS expected,
             array_to_string(agents_histogram, ',') AS stored_agents, array_to_string(agents, ',') AS expected_agents
      FROM h WHERE counted_histogram IS DISTINCT FROM counted OR agents_histogram IS DISTINCT FROM agents`,
    describe: (r) =>
      r.stored !== r.expected
        ? `claim ${r.id}: counted_histogram=[${r.stored}] but its counted votes give [${r.expected}]`
        : `claim ${r.id}: agents_histogram=[${r.stored_agents}] but its automated accounts' votes give [${r.expected_agents}]`,
  },
  {
    // The stored consensus status is the rule's, from the claim's counted votes (their number and
    // gradient) and bridging status (server/domain/consensus.ts consensusVerdict); it has a start
    // unless there are no counted votes.
    sql: `
      WITH c AS (
        SELECT c.id, c.consensus_status::text AS status, c.consensus_since, c.counted_vote_count, b.status::text AS bridging,
               g.gradient,
               CASE WHEN c.counted_vote_count = 0 THEN 'no_votes'
                    WHEN c.counted_vote_count < ${MIN_CONSENSUS_VOTERS} THEN 'too_few_votes'
                    WHEN b.status = 'bridged_true' THEN 'consensus_true'
                    WHEN b.status = 'bridged_false' THEN 'consensus_false'
                    WHEN b.status = 'divided' THEN 'divided'
                    WHEN b.status = 'undecided' THEN 'open'
                    WHEN g.gradient > ${CONSENSUS_HIGH} THEN 'consensus_true'
                    WHEN g.gradient < ${CONSENSUS_LOW} THEN 'consensus_false'
                    ELSE 'open' END AS expected
        FROM claims c LEFT JOIN claim_bridging b ON b.claim_id = c.id,
             LATERAL (SELECT round((c.counted_weighted_sum / nullif(c.counted_weight_total, 0))::numeric, 9) AS gradient) g
      )
      SELECT id::text AS id, status, expected, consensus_since, counted_vote_count, gradient, bridging FROM c
      WHERE status <> expected OR (consensus_since IS NULL) <> (status = 'no_votes')`,
    describe: (r) =>
      r.status !== r.expected
        ? `claim ${r.id}: consensus_status=${r.status} but ${r.counted_vote_count} counted votes, bridging ${r.bridging ?? "missing"} and their gradient ${r.gradient === null ? "none" : Number(r.gradient)} give ${r.expected}`
        : `claim ${r.id}: consensus_status=${r.status} with consensus_since=${r.consensus_since === null ? "null" : String(r.consensus_since)}`,
  },
  {
    // The newest gradient-history point is the claim's current state (every change appends one). One
    // pass in (claim_id, id) order: a look-up per claim could walk the whole table backwards for each
    // claim without points when few claims have any (9 s on 20k claims).
    sql: `
      SELECT c.id::text AS id, c.gradient, c.vote_count, h.gradient AS h_gradient, h.vote_count AS h_vote_count
      FROM (SELECT DISTINCT ON (claim_id) claim_id, gradient, vote_count FROM gradient_history ORDER BY claim_id, id DESC) h
      JOIN claims c ON c.id = h.claim_id
      WHERE h.vote_count <> c.vote_count OR ${differs("h.gradient", "c.gradient")}`,
    describe: (r) =>
      `claim ${r.id}: gradient=${r.gradient} vote_count=${r.vote_count} but its last history point says ${r.h_gradient}, ${r.h_vote_count}`,
  },
  {
    sql: `
      WITH e AS (SELECT claim_id, count(*) AS n FROM evidence WHERE hidden_at IS NULL GROUP BY claim_id),
           m AS (SELECT claim_id, count(*) AS n FROM comments WHERE hidden_at IS NULL GROUP BY claim_id)
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
      SELECT (SELECT value FROM platform_counters WHERE name = 'claims') AS counter, (SELECT count(*) FROM claims c WHERE ${VISIBLE_CLAIM}) AS n
      WHERE (SELECT value FROM platform_counters WHERE name = 'claims') IS DISTINCT FROM (SELECT count(*) FROM claims c WHERE ${VISIBLE_CLAIM})`,
    describe: (r) => `platform counter 'claims' is ${r.counter ?? "missing"} but there are ${r.n} visible claims`,
  },
  {
    // The claim-vote total is striped over 'claim_votes:<n>' rows (trigger on claim_votes).
    sql: `
      SELECT (SELECT coalesce(sum(value), 0) FROM platform_counters WHERE name LIKE 'claim_votes:%') AS counter,
             (SELECT count(*) FROM claim_votes v JOIN claims c ON c.id = v.claim_id WHERE ${VISIBLE_CLAIM}) AS n
      WHERE (SELECT coalesce(sum(value), 0) FROM platform_counters WHERE name LIKE 'claim_votes:%')
         <> (SELECT count(*) FROM claim_votes v JOIN claims c ON c.id = v.claim_id WHERE ${VISIBLE_CLAIM})`,
    describe: (r) => `platform counters 'claim_votes:*' sum to ${r.counter} but there are ${r.n} votes on visible claims`,
  },
  {
    // Claims per tag (triggers on claims). A row at 0 is as good as no row.
    sql: `
      WITH t AS (SELECT tag, count(*) AS n FROM (SELECT DISTINCT id, unnest(tags) AS tag FROM claims c WHERE ${VISIBLE_CLAIM}) x GROUP BY tag)
      SELECT coalesce(s.tag, t.tag) AS tag, s.claim_count, coalesce(t.n, 0) AS n
      FROM tag_stats s FULL JOIN t ON t.tag = s.tag
      WHERE coalesce(s.claim_count, 0) <> coalesce(t.n, 0)`,
    describe: (r) => `tag_stats '${r.tag}': claim_count=${r.claim_count ?? "missing"} but ${r.n} claims have the tag`,
  },
  {
    // Claims per tag and UTC creation day (same triggers).
    sql: `
      WITH t AS (
        SELECT tag, day, count(*) AS n
        FROM (SELECT DISTINCT id, unnest(tags) AS tag, (created_at AT TIME ZONE 'UTC')::date AS day FROM claims c WHERE ${VISIBLE_CLAIM}) x
        GROUP BY tag, day
      )
      SELECT coalesce(d.tag, t.tag) AS tag, to_char(coalesce(d.day, t.day), 'YYYY-MM-DD') AS day, d.claim_count, coalesce(t.n, 0) AS n
      FROM tag_daily_counts d FULL JOIN t ON t.tag = d.tag AND t.day = d.day
      WHERE coalesce(d.claim_count, 0) <> coalesce(t.n, 0)`,
    describe: (r) => `tag_daily_counts '${r.tag}' ${r.day}: claim_count=${r.claim_count ?? "missing"} but ${r.n} claims have the tag that day`,
  },
  {
    // Every resolution event has its outcome record and every non-neutral record its event, with the
    // same verdict (the records are what the learning score and expertise read).
    sql: `
      WITH e AS (
        SELECT agent_id, claim_id, reason::text AS reason FROM reputation_events WHERE reason IN ('vote_aligned', 'vote_opposed')
      ), o AS (
        -- A deleted account's records stay, anonymous (agent_id null), with no reputation events left.
        SELECT agent_id, claim_id, outcome::text AS outcome FROM vote_outcomes WHERE outcome <> 'neutral' AND agent_id IS NOT NULL
      )
      SELECT coalesce(e.claim_id, o.claim_id)::text AS claim_id, coalesce(e.agent_id, o.agent_id)::text AS agent_id, e.reason, o.outcome
      FROM e FULL JOIN o ON o.agent_id = e.agent_id AND o.claim_id = e.claim_id
      WHERE e.reason IS NULL OR o.outcome IS NULL OR (e.reason = 'vote_aligned') <> (o.outcome = 'aligned')`,
    describe: (r) =>
      `claim ${r.claim_id}, agent ${r.agent_id}: resolution event ${r.reason ?? "missing"} but outcome record ${r.outcome ?? "missing"}`,
  },
  {
    // An outcome record belongs to a resolved claim and carries its resolution time.
    sql: `
      SELECT o.claim_id::text AS claim_id, o.agent_id::text AS agent_id, o.resolved_at, c.resolved_at AS claim_resolved_at
      FROM vote_outcomes o JOIN claims c ON c.id = o.claim_id
      WHERE o.resolved_at IS DISTINCT FROM c.resolved_at`,
    describe: (r) =>
      `claim ${r.claim_id}, agent ${r.agent_id}: outcome record resolved at ${r.resolved_at} but the claim ${r.claim_resolved_at ? `at ${r.claim_resolved_at}` : "is unresolved"}`,
  },
  {
    // Reputation is the sum of its events (each records the change actually applied), never
    // negative unless a bond was staked (docs/features/checks.md#bonds), its tier follows it, and the
    // resolved-vote counts match the resolution events.
    sql: `
      WITH ev AS (
        SELECT agent_id, sum(delta) AS total,
               bool_or(reason IN ('outcome_bond_staked', 'outcome_bond_returned', 'outcome_bond_won')) AS bonds,
               count(*) FILTER (WHERE reason IN ('vote_aligned', 'vote_opposed')) AS resolved,
               count(*) FILTER (WHERE reason = 'vote_aligned') AS correct
        FROM reputation_events GROUP BY agent_id
      ), rec AS (
        SELECT agent_id, count(*) FILTER (WHERE outcome <> 'neutral') AS resolved, count(*) FILTER (WHERE outcome = 'aligned') AS correct
        FROM vote_outcomes GROUP BY agent_id
      ), a AS (
        SELECT a.id, a.reputation, a.tier::text AS tier, a.resolved_votes, a.correct_resolved_votes,
               coalesce(ev.total, 0) AS events_total, coalesce(ev.bonds, false) AS bonds, coalesce(ev.resolved, 0) AS resolved, coalesce(ev.correct, 0) AS correct,
               coalesce(rec.resolved, 0) AS rec_resolved, coalesce(rec.correct, 0) AS rec_correct,
               CASE WHEN a.reputation >= ${TRUSTED_MIN} THEN 'trusted' WHEN a.reputation >= ${ESTABLISHED_MIN} THEN 'established' ELSE 'new' END AS expected_tier
        FROM agents a LEFT JOIN ev ON ev.agent_id = a.id LEFT JOIN rec ON rec.agent_id = a.id
      )
      SELECT id::text AS id, reputation, events_total, tier, expected_tier, resolved_votes, resolved, rec_resolved,
             correct_resolved_votes, correct, rec_correct
      FROM a
      WHERE (reputation < 0 AND NOT bonds) OR ${differs("reputation", "events_total")} OR tier <> expected_tier
         OR resolved_votes <> resolved OR correct_resolved_votes <> correct
         OR resolved_votes <> rec_resolved OR correct_resolved_votes <> rec_correct`,
    describe: (r) =>
      `agent ${r.id}: reputation=${r.reputation} (events sum to ${r.events_total}), tier=${r.tier} (expected ${r.expected_tier}), ` +
      `resolved_votes=${r.resolved_votes} (events ${r.resolved}, outcome records ${r.rec_resolved}), ` +
      `correct_resolved_votes=${r.correct_resolved_votes} (events ${r.correct}, outcome records ${r.rec_correct})`,
  },
  {
    // Each check's bonds (docs/features/checks.md#bonds): the outcome events of each account on the
    // claim sum to what the check's stage says — staked while open to dispute or disputed; undisputed
    // and final, the reward; settled, the bond won or lost — and no one else has any.
    sql: `
      WITH ev AS (
        SELECT e.claim_id, e.agent_id, sum(e.delta) AS net FROM reputation_events e
        WHERE e.reason IN ('outcome_bond_staked', 'outcome_bond_returned', 'outcome_bond_won')
          AND e.claim_id IN (SELECT claim_id FROM claim_checks)
        GROUP BY e.claim_id, e.agent_id
      ), want AS (
        SELECT claim_id, proposer_id AS agent_id,
               CASE WHEN stage IN ('proposed', 'disputed') THEN -bond WHEN disputer_id IS NULL THEN ${UNDISPUTED_REWARD}
                    WHEN proposed_outcome = outcome THEN bond ELSE -bond END AS net
        FROM claim_checks WHERE proposer_id IS NOT NULL
        UNION ALL
        SELECT claim_id, disputer_id, CASE WHEN stage = 'disputed' OR proposed_outcome = outcome THEN -bond ELSE bond END
        FROM claim_checks WHERE disputer_id IS NOT NULL
      )
      SELECT coalesce(e.claim_id, w.claim_id)::text AS claim_id, coalesce(e.agent_id, w.agent_id)::text AS agent_id,
             e.net AS stored, w.net AS expected
      FROM ev e FULL JOIN want w ON w.claim_id = e.claim_id AND w.agent_id = e.agent_id
      WHERE coalesce(e.agent_id, w.agent_id) <> '${TOMBSTONE_AGENT_ID}'::uuid
        AND (e.net IS NULL OR w.net IS NULL OR ${differs("e.net", "w.net")})`,
    describe: (r) =>
      `claim ${r.claim_id}, agent ${r.agent_id}: outcome bond events sum to ${r.stored ?? "nothing"}, the check's stage says ${r.expected ?? "none"}`,
  },
  {
    // The world scores are not stored: every read computes them from the scored votes
    // (services/world-scores.ts) — a vote's value kept at close_at (check_votes_at_close, written by a
    // trigger when the vote is changed or removed after close_at), else the vote as it stands when
    // written before close_at. What is stored must then agree: a kept value belongs to a check whose
    // close_at has passed and is a vote's value (0–1); and a vote not written since before close_at
    // still holds the value it had then, so a kept value beside it is that same value (a re-sort of the
    // vote by the standing job writes the row without a new value) — any other would score the vote at
    // a value it never had at close_at.
    sql: `
      SELECT k.claim_id::text AS claim_id, k.agent_id::text AS agent_id, k.value, ck.close_at, ck.claim_id IS NULL AS no_check,
             ck.close_at > now() AS not_closed, NOT (k.value BETWEEN 0 AND 1) AS no_value, v.value AS vote_value
      FROM check_votes_at_close k
      LEFT JOIN claim_checks ck ON ck.claim_id = k.claim_id
      LEFT JOIN claim_votes v ON v.claim_id = k.claim_id AND v.agent_id = k.agent_id
      WHERE ck.claim_id IS NULL OR ck.close_at > now() OR NOT (k.value BETWEEN 0 AND 1)
         OR (v.updated_at < ck.close_at AND ${differs("k.value", "v.value")})`,
    describe: (r) => {
      const kept = `claim ${r.claim_id}, agent ${r.agent_id}: a vote kept at close as ${r.value}`;
      if (r.no_check) return `${kept}, but the claim has no check`;
      if (r.not_closed) return `${kept}, but its close_at ${String(r.close_at)} has not yet passed`;
      if (r.no_value) return `${kept}, which is no vote's value (0–1)`;
      return `${kept}, but the vote, untouched since before close_at ${String(r.close_at)}, is ${r.vote_value}`;
    },
  },
  {
    // Who is scored comes from the check's stage and outcome (final true/false only; ambiguous and
    // annulled score nothing): an outcome is stored exactly on a final check, with its time, and is one
    // of the four; a check past pending was proposed (its proposed outcome, window and bond); a dispute
    // is on a disputed check or a settled one; close_at is not after check_at.
    sql: `
      SELECT claim_id::text AS claim_id, stage::text AS stage, outcome, final_at, proposed_outcome, dispute_deadline, bond,
             disputed_at, settle_reason, close_at, check_at
      FROM claim_checks
      WHERE (stage = 'final') <> (outcome IS NOT NULL) OR (stage = 'final') <> (final_at IS NOT NULL)
         OR outcome NOT IN ('true', 'false', 'ambiguous', 'annulled')
         OR (stage <> 'pending' AND (proposed_outcome IS NULL OR dispute_deadline IS NULL OR bond IS NULL))
         OR (stage = 'pending' AND (proposed_outcome IS NOT NULL OR disputed_at IS NOT NULL))
         OR (stage = 'disputed' AND disputed_at IS NULL)
         OR (stage = 'final' AND disputed_at IS NOT NULL AND settle_reason IS NULL)
         OR close_at > check_at`,
    describe: (r) =>
      `claim ${r.claim_id}: check stage=${r.stage} outcome=${r.outcome ?? "null"} final_at=${r.final_at === null ? "null" : String(r.final_at)} ` +
      `proposed_outcome=${r.proposed_outcome ?? "null"} dispute_deadline=${r.dispute_deadline === null ? "null" : String(r.dispute_deadline)} ` +
      `bond=${r.bond ?? "null"} disputed_at=${r.disputed_at === null ? "null" : String(r.disputed_at)} settle_reason=${r.settle_reason === null ? "null" : "set"} ` +
      `close_at=${String(r.close_at)} check_at=${String(r.check_at)}: not a step of a check's life`,
  },
  {
    // Each argument's relevance sums (docs/features/arguments.md): Σ value and the count of its votes.
    sql: `
      SELECT g.id::text AS id, g.relevance_sum AS stored_sum, g.relevance_votes AS stored_votes,
             coalesce(v.sum, 0) AS sum, coalesce(v.votes, 0) AS votes
      FROM arguments g
      LEFT JOIN (SELECT argument_id, sum(value) AS sum, count(*)::int AS votes FROM relevance_votes GROUP BY argument_id) v
        ON v.argument_id = g.id
      WHERE g.relevance_votes <> coalesce(v.votes, 0) OR ${differs("g.relevance_sum", "coalesce(v.sum, 0)")}`,
    describe: (r) =>
      `argument ${r.id}: relevance_sum ${r.stored_sum} / votes ${r.stored_votes}, expected ${r.sum} / ${r.votes}`,
  },
];

/**
 * Each account's stored standing is what the rule (domain/standing.ts, under the stored rule) gives
 * for its facts now — unless it is marked for the standing job, or its time has come and the job has
 * not run yet (standing_gains_at passed).
 */
async function standingViolations(): Promise<string[]> {
  const rows = await readSql<StandingFactRow & { id: string; votes: number; db_now: Date }>(Prisma.sql`
    SELECT a.id::text AS id, ${STANDING_FACT_COLUMNS}, coalesce(n.votes, 0)::int AS votes, now() AS db_now
    FROM agents a LEFT JOIN standing_rule r ON r.id = 1
    LEFT JOIN (SELECT agent_id, count(*) AS votes FROM claim_votes GROUP BY agent_id) n ON n.agent_id = a.id
    WHERE NOT EXISTS (SELECT 1 FROM standing_pending p WHERE p.agent_id = a.id)
      AND (a.standing_gains_at IS NULL OR a.standing_gains_at > now())`);
  const violations: string[] = [];
  for (const row of rows) {
    const verdict = standingOf({ ...factsFromRow(row), votes: Number(row.votes) }, ruleFromRow(row), row.db_now);
    if (sameVerdict({ standing: Boolean(row.standing), gainsAt: row.standing_gains_at }, verdict)) continue;
    violations.push(
      `agent ${row.id}: standing=${row.standing} standing_gains_at=${row.standing_gains_at?.toISOString() ?? "null"} but the rule gives ` +
        `standing=${verdict.standing} gains_at=${verdict.gainsAt?.toISOString() ?? "null"} (${verdict.shortfalls.join(", ") || "nothing missing"}), and it is not marked for restating`,
    );
    if (violations.length >= MAX_REPORTED) break;
  }
  return violations;
}

/** Every violation found, one line each; empty when the database is consistent. */
export async function checkInvariants(): Promise<string[]> {
  const violations: string[] = [];
  for (const check of CHECKS) {
    const rows = await readSql<Row>(Prisma.raw(`${check.sql}\nLIMIT ${MAX_REPORTED}`));
    violations.push(...rows.map(check.describe));
  }
  violations.push(...(await standingViolations()));
  return violations;
}
