// Seeds a large, realistic and fully consistent data set straight into PostgreSQL.
//
// Everything is generated inside PostgreSQL (generate_series + random(), no rows cross the wire):
// first into UNLOGGED staging tables in a `bench_seed` schema, where every derived field is computed
// from the raw rows the way the service computes it, then copied once into the real tables in
// foreign-key order (no UPDATE pass over the real tables). The schema's triggers keep their counters
// on the way in (tag_stats, tag_daily_counts, the 'claims' counter, the 'claim_votes:<n>' stripes).
//
// What "consistent" means here, field by field:
// - a vote's weight is voteWeight(reputation) — max(0.1, ln(1 + r)) — with r the voter's reputation
//   from evidence votes (a snapshot: the service fixes a weight when the vote is cast, and the sums
//   below are computed from the stored weights, so they agree whatever the weights are);
// - claims: weighted_sum, weight_total, vote_count and gradient are the running sums after the
//   claim's last vote (same float additions in the same order as services/votes.ts), one
//   gradient_history point per vote, ids in time order;
// - resolution: the first vote after which the claim has >= 10 votes and a gradient beyond 0.8/0.2
//   resolves it (resolved_at = that vote's time); the votes cast up to then get their outcome record
//   (vote_outcomes; the crowd is the gradient before the vote), the aligned and opposed voters a
//   reputation event and a resolved vote;
// - reputation: evidence-vote (+5/−3) and resolution (+1/−0.5) events per agent in time order,
//   clamped at 0 (a clamped running sum: score_k = P_k − min(0, min_{j<=k} P_j)), each event records
//   the change it applied and the score after it; evidence_votes.applied_delta is its event's change;
//   the agent's reputation is its last score and its tier follows;
// - evidence up/down/vote_score, evidence_count and comment_count are counts of the rows inserted.
// `checkInvariants()` (services/invariants.ts) passes on the result.
//
// Standalone: `tsx bench/seed.ts <postgres-url> [--agents N ...]` seeds an already migrated database.
// BENCH_SEED_DEBUG=1 prints each statement's duration.
import { pathToFileURL } from "node:url";
import cliProgress from "cli-progress";
import pg from "pg";
import { hashPassword } from "../server/auth/passwords.ts";
import { CONSENSUS_HIGH, CONSENSUS_LOW, MIN_RESOLUTION_VOTES, MIN_VOTE_WEIGHT, NEUTRAL_GRADIENT } from "../server/domain/gradient.ts";
import { HISTOGRAM_BINS, histogramBinSql, MIN_CONSENSUS_VOTERS } from "../server/domain/consensus.ts";
import { ESTABLISHED_MIN, EVIDENCE_VOTE_EFFECT, RESOLUTION_EFFECT, TRUSTED_MIN } from "../server/domain/reputation.ts";
import { configuredRule } from "../server/services/standing.ts";
import { NOUNS, QUALIFIERS, TAGS, VERBS } from "./vocabulary.ts";

export interface SeedSizes {
  agents: number;
  claims: number;
  claimVotes: number;
  evidence: number;
  evidenceVotes: number;
  comments: number;
  /** Content is spread over this many days before now. */
  days: number;
}

export const DEFAULT_SIZES: SeedSizes = {
  agents: 20_000,
  claims: 100_000,
  claimVotes: 1_000_000,
  evidence: 200_000,
  evidenceVotes: 200_000,
  comments: 50_000,
  days: 90,
};

/** The password of every seeded agent (they can log in: bench_<n>@example.test). */
export const SEED_PASSWORD = "Password123";

export interface SeedReport {
  seconds: number;
  stagingSeconds: number;
  loadSeconds: number;
  vacuumSeconds: number;
  rows: Record<string, number>;
}

const S = "bench_seed";

/** Primes above any sensible agent count: k·p mod N visits N distinct agents for k < N. */
const STRIDES = [1_000_003, 1_000_033, 1_000_037, 1_000_039, 1_000_081, 1_000_099, 1_000_117, 1_000_121];

function sqlArray(words: readonly string[]): string {
  for (const w of words) if (!/^[a-z0-9 _-]+$/.test(w)) throw new Error(`vocabulary word not safe to inline: ${w}`);
  return `ARRAY[${words.map((w) => `'${w}'`).join(",")}]::text[]`;
}

/** `n` random picks from an inlined word list. */
const pick = (arr: string, len: number, skew = "random()") => `(${arr})[1 + floor(${len} * ${skew})::int]`;

interface Step {
  label: string;
  /** Rough share of the work, in rows. */
  weight: number;
  sql: string | string[];
}

function stagingSteps(sizes: SeedSizes, now: string): Step[] {
  // The standing rule the bench's servers run with (docs/features/consensus.md#standing).
  const rule = configuredRule();
  const { agents: A, claims: C, claimVotes: V, evidence: E, evidenceVotes: EV, comments: M, days: D } = sizes;
  const nouns = sqlArray(NOUNS);
  const verbs = sqlArray(VERBS);
  const quals = sqlArray(QUALIFIERS);
  const tags = sqlArray(TAGS);
  const NOW = `'${now}'::timestamptz`;
  const ms = (expr: string) => `date_trunc('milliseconds', ${expr})`;
  const powerAgent = `1 + floor(${A} * power(random(), 2))::int`; // a few agents write a lot
  const sentence = (n: string) => `(SELECT string_agg(${pick(nouns, NOUNS.length)}, ' ') FROM generate_series(1, ${n}))`;
  const topLevelComments = Math.round(M * 0.6);
  const repliesAt = [0, Math.round(M * 0.25), Math.round(M * 0.1), M - topLevelComments - Math.round(M * 0.25) - Math.round(M * 0.1)];

  return [
    {
      label: "staging agents",
      weight: A,
      sql: [
        `CREATE UNLOGGED TABLE ${S}.agents AS
         SELECT i, gen_random_uuid() AS id, ${ms(`${NOW} - interval '1 day' * (${D} + 1 + random() * 30)`)} AS created_at
         FROM generate_series(1, ${A}) i`,
        `ALTER TABLE ${S}.agents ADD PRIMARY KEY (i)`,
      ],
    },
    {
      label: "staging claims",
      weight: C * 3,
      sql: [
        // popularity x ~ U^-0.6 (heavy tail, mean 2.5): votes, evidence and comments follow it.
        `CREATE UNLOGGED TABLE ${S}.claims AS
         WITH r AS (
           SELECT i, random() AS r_tier, random() AS r_kind, random() AS r_bias, power(random(), -0.6) AS x,
                  floor(random() * 5)::int AS ntags, 4 + floor(random() * 12)::int AS nwords,
                  CASE WHEN i > 1 AND random() < 0.3 THEN 1 + floor(random() * 3)::int ELSE 0 END AS nparents
           FROM generate_series(1, ${C}) i
         ), b AS (
           SELECT r.*, gen_random_uuid() AS id, ${powerAgent} AS author,
             ${ms(`${NOW} - interval '1 day' * ${D} * (1 - (i - random()) / ${C})`)} AS created_at,
             CASE WHEN r_tier < 0.5 THEN 'simple' WHEN r_tier < 0.8 THEN 'moderate' WHEN r_tier < 0.95 THEN 'complex' ELSE 'contested' END AS complexity,
             CASE WHEN r_kind < 0.25 THEN 0.8 + 0.15 * r_bias WHEN r_kind < 0.5 THEN 0.05 + 0.15 * r_bias ELSE 0.3 + 0.4 * r_bias END AS bias,
             0.3 + 0.4 * random() AS spread,
             floor(random() * ${A})::bigint AS voff,
             (ARRAY[${STRIDES.join(",")}]::bigint[])[1 + i % ${STRIDES.length}] AS vstride
           FROM r
         )
         SELECT b.*,
           initcap(${pick(nouns, NOUNS.length)}) || ' ' || ${pick(verbs, VERBS.length)} || ' ' || w.words || ' ' || ${pick(quals, QUALIFIERS.length)} || '.' AS statement,
           t.tags,
           least(${A - 1}, floor(${V} * x / sum(x) OVER () + random()))::int AS nvotes,
           floor(${E} * sqrt(x) / sum(sqrt(x)) OVER () + random())::int AS nevidence,
           floor(${topLevelComments} * sqrt(x) / sum(sqrt(x)) OVER () + random())::int AS ncomments
         FROM b
         CROSS JOIN LATERAL ${sentence("b.nwords")} AS w(words)
         CROSS JOIN LATERAL (
           SELECT coalesce(array_agg(DISTINCT ${pick(tags, TAGS.length, "power(random(), 2.5)")}), '{}') FROM generate_series(1, b.ntags)
         ) AS t(tags)`,
        `ALTER TABLE ${S}.claims ADD PRIMARY KEY (i)`,
        `CREATE UNLOGGED TABLE ${S}.parents AS
         SELECT claim, parent, (row_number() OVER (PARTITION BY claim ORDER BY parent) - 1)::int AS position
         FROM (
           SELECT DISTINCT c.i AS claim, greatest(1, c.i - 1 - floor(random() * least(c.i - 1, 2000))::int) AS parent
           FROM ${S}.claims c CROSS JOIN LATERAL generate_series(1, c.nparents)
         ) p`,
      ],
    },
    {
      label: "staging evidence",
      weight: E,
      sql: `CREATE UNLOGGED TABLE ${S}.evidence AS
        SELECT e.*, least(${A - 1}, floor(${EV} * y / sum(y) OVER () + random()))::int AS nvotes,
          CASE WHEN content_type = 'link' THEN 'https://example.org/evidence/' || substr(md5(random()::text), 1, 16)
               ELSE 'Observations of ' || ${sentence("3 + (e.voff % 20)::int")} || ' support this reading.' END AS content
        FROM (
          SELECT gen_random_uuid() AS id, c.i AS claim, ${powerAgent} AS author,
            CASE WHEN r1 < 0.5 THEN 'supports' WHEN r1 < 0.85 THEN 'opposes' ELSE 'neutral' END AS position,
            CASE WHEN r2 < 0.6 THEN 'text' WHEN r2 < 0.9 THEN 'link' WHEN r2 < 0.95 THEN 'data' ELSE 'code' END AS content_type,
            ${ms(`c.created_at + power(random(), 1.5) * (${NOW} - c.created_at)`)} AS created_at,
            power(random(), -0.5) AS y, floor(random() * ${A})::bigint AS voff, 0.5 + 0.45 * random() AS up_share
          FROM ${S}.claims c
          CROSS JOIN LATERAL (SELECT k, random() AS r1, random() AS r2 FROM generate_series(1, c.nevidence) k) g
        ) e`,
    },
    {
      label: "staging evidence votes",
      weight: EV,
      sql: `CREATE UNLOGGED TABLE ${S}.evidence_votes AS
        SELECT gen_random_uuid() AS id, e.id AS evidence, e.claim, e.author AS evidence_author, x.agent,
          CASE WHEN random() < e.up_share THEN 'up' ELSE 'down' END AS direction,
          ${ms(`e.created_at + power(random(), 2) * (${NOW} - e.created_at)`)} AS created_at
        FROM ${S}.evidence e
        CROSS JOIN LATERAL (SELECT (e.voff + k * ${STRIDES[0]}) % ${A} + 1 AS agent FROM generate_series(0::bigint, e.nvotes - 1) k) x
        WHERE x.agent <> e.author`,
    },
    {
      label: "staging claim votes",
      weight: V * 3,
      sql: [
        // Reputation before any claim resolves, from the evidence votes: fixes each voter's weight.
        `CREATE UNLOGGED TABLE ${S}.weights AS
         SELECT a.i AS agent, greatest(${MIN_VOTE_WEIGHT}, ln(1 + greatest(0, coalesce(b.nominal, 0)))) AS weight
         FROM ${S}.agents a LEFT JOIN (
           SELECT evidence_author AS agent, sum(CASE WHEN direction = 'up' THEN ${EVIDENCE_VOTE_EFFECT.up} ELSE ${EVIDENCE_VOTE_EFFECT.down} END) AS nominal
           FROM ${S}.evidence_votes GROUP BY 1
         ) b ON b.agent = a.i`,
        `ALTER TABLE ${S}.weights ADD PRIMARY KEY (agent)`,
        // Each claim's voters: k·stride mod A is a permutation, so no agent votes twice on a claim.
        `CREATE UNLOGGED TABLE ${S}.votes AS
         SELECT gen_random_uuid() AS id, c.i AS claim, x.agent,
           round(least(1, greatest(0, c.bias + (random() - 0.5) * c.spread))::numeric, 2)::float8 AS value,
           ${ms(`c.created_at + power(random(), 2) * (${NOW} - c.created_at)`)} AS created_at
         FROM ${S}.claims c
         CROSS JOIN LATERAL (SELECT (c.voff + k * c.vstride) % ${A} + 1 AS agent FROM generate_series(0::bigint, c.nvotes - 1) k) x
         WHERE x.agent <> c.author`,
        // The running sums after each vote, in the order the votes were cast: what the service's
        // vote transactions would have left, and one gradient-history point per vote.
        `CREATE UNLOGGED TABLE ${S}.vote_runs AS
         SELECT r.*,
           CASE WHEN sw > 1e-9 THEN round(least(1, greatest(0, swv / sw))::numeric, 9)::float8 ELSE ${NEUTRAL_GRADIENT} END AS gradient,
           -- the crowd the vote was cast against: the gradient after the claim's previous vote
           coalesce(lag(CASE WHEN sw > 1e-9 THEN round(least(1, greatest(0, swv / sw))::numeric, 9)::float8 ELSE ${NEUTRAL_GRADIENT} END)
             OVER (PARTITION BY claim ORDER BY cnt), ${NEUTRAL_GRADIENT}) AS crowd,
           row_number() OVER (ORDER BY created_at, id) AS history_id
         FROM (
           SELECT v.*, w.weight,
             sum(w.weight * v.value) OVER run AS swv, sum(w.weight) OVER run AS sw, row_number() OVER run AS cnt
           FROM ${S}.votes v JOIN ${S}.weights w ON w.agent = v.agent
           WINDOW run AS (PARTITION BY v.claim ORDER BY v.created_at, v.id ROWS UNBOUNDED PRECEDING)
         ) r`,
        `DROP TABLE ${S}.votes`,
        `CREATE UNLOGGED TABLE ${S}.claim_final AS
         SELECT DISTINCT ON (claim) claim, swv AS weighted_sum, sw AS weight_total, cnt AS vote_count, gradient, created_at AS last_vote_at
         FROM ${S}.vote_runs ORDER BY claim, cnt DESC`,
        `CREATE UNLOGGED TABLE ${S}.resolutions AS
         SELECT DISTINCT ON (claim) claim, cnt AS resolved_count, gradient AS resolved_gradient, created_at AS resolved_at
         FROM ${S}.vote_runs
         WHERE cnt >= ${MIN_RESOLUTION_VOTES} AND (gradient > ${CONSENSUS_HIGH} OR gradient < ${CONSENSUS_LOW})
         ORDER BY claim, cnt`,
        `ALTER TABLE ${S}.claim_final ADD PRIMARY KEY (claim)`,
        `ALTER TABLE ${S}.resolutions ADD PRIMARY KEY (claim)`,
        `CREATE INDEX ON ${S}.vote_runs (claim)`,
      ],
    },
    {
      label: "staging reputation",
      weight: V,
      sql: [
        `CREATE UNLOGGED TABLE ${S}.outcomes AS
         SELECT v.id AS vote, v.agent, v.claim, r.resolved_at, v.value, v.crowd, r.resolved_gradient,
           CASE WHEN v.value = 0.5 THEN 'neutral'
                WHEN (v.value > 0.5) = (r.resolved_gradient > ${CONSENSUS_HIGH}) THEN 'aligned' ELSE 'opposed' END AS outcome
         FROM ${S}.vote_runs v JOIN ${S}.resolutions r ON r.claim = v.claim AND v.cnt <= r.resolved_count`,
        `CREATE UNLOGGED TABLE ${S}.rep_events AS
         WITH ev AS (
           SELECT v.evidence_author AS agent, v.created_at AS at, 0 AS kind, v.id AS ref,
             CASE WHEN v.direction = 'up' THEN ${EVIDENCE_VOTE_EFFECT.up} ELSE ${EVIDENCE_VOTE_EFFECT.down} END::float8 AS nominal,
             CASE WHEN v.direction = 'up' THEN 'evidence_upvoted' ELSE 'evidence_downvoted' END AS reason,
             v.claim, v.evidence
           FROM ${S}.evidence_votes v
           UNION ALL
           SELECT o.agent, o.resolved_at, 1, o.vote,
             CASE WHEN o.outcome = 'aligned' THEN ${RESOLUTION_EFFECT.aligned} ELSE ${RESOLUTION_EFFECT.opposed} END::float8,
             CASE WHEN o.outcome = 'aligned' THEN 'vote_aligned' ELSE 'vote_opposed' END,
             o.claim, NULL::uuid
           FROM ${S}.outcomes o WHERE o.outcome <> 'neutral'
         ), prefix AS (
           SELECT ev.*, sum(nominal) OVER w AS p FROM ev
           WINDOW w AS (PARTITION BY agent ORDER BY at, kind, ref ROWS UNBOUNDED PRECEDING)
         ), clamped AS (
           SELECT prefix.*, p - least(0, min(p) OVER w) AS score FROM prefix
           WINDOW w AS (PARTITION BY agent ORDER BY at, kind, ref ROWS UNBOUNDED PRECEDING)
         )
         SELECT clamped.*,
           score - coalesce(lag(score) OVER (PARTITION BY agent ORDER BY at, kind, ref), 0) AS applied,
           row_number() OVER (ORDER BY at, agent, kind, ref) AS event_id
         FROM clamped`,
        `CREATE UNLOGGED TABLE ${S}.agent_final AS
         SELECT a.i, a.id, a.created_at, coalesce(l.score, 0) AS reputation,
           coalesce(n.resolved, 0)::int AS resolved_votes, coalesce(n.correct, 0)::int AS correct_resolved_votes
         FROM ${S}.agents a
         LEFT JOIN (SELECT DISTINCT ON (agent) agent, score FROM ${S}.rep_events ORDER BY agent, at DESC, kind DESC, ref DESC) l ON l.agent = a.i
         LEFT JOIN (
           SELECT agent, count(*) FILTER (WHERE kind = 1) AS resolved, count(*) FILTER (WHERE reason = 'vote_aligned') AS correct
           FROM ${S}.rep_events GROUP BY agent
         ) n ON n.agent = a.i`,
        `ALTER TABLE ${S}.agent_final ADD PRIMARY KEY (i)`,
        // Standing under the configured rule (docs/features/consensus.md#standing; every seeded address
        // is verified): old enough and enough votes. When time alone gives it: standing_gains_at.
        `CREATE UNLOGGED TABLE ${S}.agent_standing AS
         SELECT a.i, coalesce(n.votes, 0) >= ${rule.minVotes} AND a.created_at <= now() - make_interval(secs => ${rule.minAgeSeconds}) AS standing,
           CASE WHEN coalesce(n.votes, 0) >= ${rule.minVotes} AND a.created_at > now() - make_interval(secs => ${rule.minAgeSeconds})
                THEN a.created_at + make_interval(secs => ${rule.minAgeSeconds}) END AS gains_at
         FROM ${S}.agents a LEFT JOIN (SELECT agent, count(*) AS votes FROM ${S}.vote_runs GROUP BY agent) n ON n.agent = a.i`,
        `ALTER TABLE ${S}.agent_standing ADD PRIMARY KEY (i)`,
        // Each claim's counted votes (their accounts have standing): sums and histogram.
        `CREATE UNLOGGED TABLE ${S}.claim_counted AS
         SELECT claim, sum(weight * value) AS weighted_sum, sum(weight) AS weight_total, count(*)::int AS vote_count,
           ARRAY[${Array.from({ length: HISTOGRAM_BINS }, (_, b) => `(count(*) FILTER (WHERE bin = ${b}))::int`).join(", ")}] AS histogram
         FROM (SELECT v.claim, v.weight, v.value, ${histogramBinSql("v.value")} AS bin
               FROM ${S}.vote_runs v JOIN ${S}.agent_standing s ON s.i = v.agent WHERE s.standing) v
         GROUP BY claim`,
        `ALTER TABLE ${S}.claim_counted ADD PRIMARY KEY (claim)`,
      ],
    },
    {
      label: "staging comments",
      weight: M,
      sql: [
        `CREATE UNLOGGED TABLE ${S}.comments AS
         SELECT gen_random_uuid() AS id, c.i AS claim, NULL::uuid AS parent, 0 AS depth, ${powerAgent} AS author,
           ${ms(`c.created_at + power(random(), 1.5) * (${NOW} - c.created_at)`)} AS created_at
         FROM ${S}.claims c CROSS JOIN LATERAL generate_series(1, c.ncomments)`,
        // Replies: each level picks its parents at random (with repetition) among the level above.
        ...[1, 2, 3].map(
          (depth) => `INSERT INTO ${S}.comments
           WITH p AS (SELECT *, row_number() OVER () AS rn FROM ${S}.comments WHERE depth = ${depth - 1}),
           picks AS (SELECT j, 1 + floor(random() * (SELECT count(*) FROM p))::int AS rn FROM generate_series(1, ${repliesAt[depth]}) j)
           SELECT gen_random_uuid(), p.claim, p.id, ${depth}, ${powerAgent},
             ${ms(`p.created_at + power(random(), 2) * (${NOW} - p.created_at)`)}
           FROM picks JOIN p USING (rn)`,
        ),
        `ALTER TABLE ${S}.comments ADD COLUMN content text, ADD COLUMN is_deleted boolean, ADD COLUMN is_edited boolean`,
        `UPDATE ${S}.comments SET is_deleted = random() < 0.02, is_edited = random() < 0.05,
           content = 'I think the ' || ${sentence("2 + depth * 3")} || ' part needs a source.'`,
        `UPDATE ${S}.comments SET content = '[deleted]' WHERE is_deleted`,
      ],
    },
  ];
}

/**
 * The real tables' inserts. They run while the foreign keys are dropped, so they are independent of
 * each other and run two at a time; concurrent claim inserts are safe for the tag counters (their
 * trigger upserts in tag order).
 */
function loadSteps(sizes: SeedSizes, passwordHash: string, chunks: number): Step[] {
  const { claims: C, claimVotes: V, evidence: E, evidenceVotes: EV, comments: M, agents: A } = sizes;
  const tier = (rep: string) =>
    `(CASE WHEN ${rep} >= ${TRUSTED_MIN} THEN 'trusted' WHEN ${rep} >= ${ESTABLISHED_MIN} THEN 'established' ELSE 'new' END)::"Tier"`;
  const ranges = (n: number, parts: number) => {
    const size = Math.ceil(n / parts);
    return Array.from({ length: parts }, (_, k) => [k * size + 1, Math.min(n, (k + 1) * size)] as const).filter(([lo, hi]) => lo <= hi);
  };
  const claimChunks = ranges(C, chunks);
  const perChunk = (label: string, weight: number, sql: (lo: number, hi: number) => string): Step[] =>
    claimChunks.map(([lo, hi]) => ({ label, weight: weight / claimChunks.length, sql: sql(lo, hi) }));

  return [
    {
      label: "agents",
      weight: A,
      sql: `INSERT INTO agents (id, email, username, username_key, display_name, password_hash, reputation, tier,
              resolved_votes, correct_resolved_votes, email_verified, created_at, updated_at)
            SELECT id, 'bench_' || i || '@example.test', 'bench_' || i, 'bench_' || i, 'Bench agent ' || i, '${passwordHash}',
              reputation, ${tier("reputation")}, resolved_votes, correct_resolved_votes, created_at, created_at, created_at
            FROM ${S}.agent_final ORDER BY i`,
    },
    ...perChunk(
      "claims",
      C * 4,
      // The consensus status by the counted votes alone (no bridging fit has run on seeded data); its
      // start is taken as the claim's last vote.
      (lo, hi) => `INSERT INTO claims (id, statement, complexity_tier, tags, author_id, weighted_sum, weight_total, gradient,
          vote_count, evidence_count, comment_count, resolved_at, created_at, updated_at,
          counted_weighted_sum, counted_weight_total, counted_vote_count, counted_histogram,
          consensus_status, consensus_since, people_weighted_sum, people_weight_total, people_vote_count)
        SELECT c.id, c.statement, c.complexity::"ComplexityTier", c.tags, a.id, coalesce(f.weighted_sum, 0), coalesce(f.weight_total, 0),
          coalesce(f.gradient, ${NEUTRAL_GRADIENT}), coalesce(f.vote_count, 0), coalesce(e.n, 0), coalesce(m.n, 0), r.resolved_at,
          c.created_at, greatest(c.created_at, f.last_vote_at, e.last_at),
          coalesce(k.weighted_sum, 0), coalesce(k.weight_total, 0), coalesce(k.vote_count, 0),
          coalesce(k.histogram, array_fill(0, ARRAY[${HISTOGRAM_BINS}])),
          (CASE WHEN coalesce(k.vote_count, 0) = 0 THEN 'no_votes'
                WHEN k.vote_count < ${MIN_CONSENSUS_VOTERS} THEN 'too_few_votes'
                WHEN round((k.weighted_sum / k.weight_total)::numeric, 9) > ${CONSENSUS_HIGH} THEN 'consensus_true'
                WHEN round((k.weighted_sum / k.weight_total)::numeric, 9) < ${CONSENSUS_LOW} THEN 'consensus_false'
                ELSE 'open' END)::"ConsensusStatus",
          CASE WHEN coalesce(k.vote_count, 0) = 0 THEN NULL ELSE f.last_vote_at END,
          -- No seeded account is automated: the people's sums are the sums (gradient_people).
          coalesce(f.weighted_sum, 0), coalesce(f.weight_total, 0), coalesce(f.vote_count, 0)
        FROM ${S}.claims c
        JOIN ${S}.agents a ON a.i = c.author
        LEFT JOIN ${S}.claim_final f ON f.claim = c.i
        LEFT JOIN ${S}.claim_counted k ON k.claim = c.i
        LEFT JOIN ${S}.resolutions r ON r.claim = c.i
        LEFT JOIN (SELECT claim, count(*) AS n, max(created_at) AS last_at FROM ${S}.evidence WHERE claim BETWEEN ${lo} AND ${hi} GROUP BY claim) e ON e.claim = c.i
        LEFT JOIN (SELECT claim, count(*) AS n FROM ${S}.comments WHERE claim BETWEEN ${lo} AND ${hi} GROUP BY claim) m ON m.claim = c.i
        WHERE c.i BETWEEN ${lo} AND ${hi}
        ORDER BY c.i`,
    ),
    {
      label: "claim parents",
      weight: C * 0.6,
      sql: `INSERT INTO claim_parents (claim_id, parent_id, position)
            SELECT c.id, p.id, x.position FROM ${S}.parents x JOIN ${S}.claims c ON c.i = x.claim JOIN ${S}.claims p ON p.i = x.parent`,
    },
    {
      // Generated statements may repeat: like the migration 'arguments', the oldest copy keeps the
      // folded-statement key and later copies a null one, so that its unique index builds.
      label: "duplicate statements",
      weight: C * 0.5,
      sql: `UPDATE claims k SET statement_key = NULL
            FROM (SELECT id, row_number() OVER (PARTITION BY statement_key ORDER BY created_at, id) AS n FROM claims) d
            WHERE d.id = k.id AND d.n > 1`,
    },
    {
      // Arguments with depth (docs/features/arguments.md): four claims in ten stand under claim i/8, so
      // trees are up to log8(claims) levels deep (6 at 100k, within the limit of 8) and never cyclic.
      // Four in five carry one relevance vote, their author's.
      label: "arguments",
      weight: C * 0.7,
      sql: [
        `INSERT INTO arguments (id, parent_claim_id, child_claim_id, stance, author_id, relevance_sum, relevance_votes, created_at)
            SELECT gen_random_uuid(), x.parent, x.child, (CASE WHEN x.supports THEN 'supports' ELSE 'opposes' END)::"ArgumentStance",
              x.author, CASE WHEN x.voted THEN x.value ELSE 0 END, CASE WHEN x.voted THEN 1 ELSE 0 END, x.created_at
            FROM (
              SELECT p.id AS parent, c.id AS child, a.id AS author, greatest(c.created_at, p.created_at) AS created_at,
                random() < 0.6 AS supports, random() < 0.8 AS voted, round(random()::numeric, 2)::float8 AS value
              FROM ${S}.claims c
              JOIN ${S}.claims p ON p.i = c.i / 8
              JOIN ${S}.agents a ON a.i = c.author
              WHERE c.i >= 8 AND random() < 0.4
            ) x`,
        // The relevance votes read the arguments just inserted: the same step, in order.
        `INSERT INTO relevance_votes (argument_id, agent_id, value, created_at, updated_at)
            SELECT id, author_id, relevance_sum, created_at, created_at FROM arguments WHERE relevance_votes = 1`,
      ],
    },
    {
      label: "evidence",
      weight: E * 2,
      sql: `INSERT INTO evidence (id, claim_id, author_id, position, content_type, content, upvotes, downvotes, vote_score, created_at, updated_at)
            SELECT e.id, c.id, a.id, e.position::"EvidencePosition", e.content_type::"EvidenceContentType", e.content,
              coalesce(v.up, 0), coalesce(v.down, 0), coalesce(v.up, 0) - coalesce(v.down, 0), e.created_at, greatest(e.created_at, v.last_at)
            FROM ${S}.evidence e
            JOIN ${S}.claims c ON c.i = e.claim
            JOIN ${S}.agents a ON a.i = e.author
            LEFT JOIN (
              SELECT evidence, count(*) FILTER (WHERE direction = 'up') AS up, count(*) FILTER (WHERE direction = 'down') AS down,
                max(created_at) AS last_at
              FROM ${S}.evidence_votes GROUP BY evidence
            ) v ON v.evidence = e.id`,
    },
    {
      label: "evidence votes",
      weight: EV * 2,
      sql: `INSERT INTO evidence_votes (id, evidence_id, agent_id, direction, applied_delta, created_at, updated_at)
            SELECT v.id, v.evidence, a.id, v.direction::"VoteDirection", r.applied, v.created_at, v.created_at
            FROM ${S}.evidence_votes v
            JOIN ${S}.agents a ON a.i = v.agent
            JOIN ${S}.rep_events r ON r.kind = 0 AND r.ref = v.id`,
    },
    ...perChunk(
      "claim votes",
      V * 3,
      (lo, hi) => `INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, counted, created_at, updated_at)
        SELECT v.id, c.id, a.id, v.value, v.weight, v.crowd, s.standing, v.created_at, v.created_at
        FROM ${S}.vote_runs v
        JOIN ${S}.claims c ON c.i = v.claim
        JOIN ${S}.agents a ON a.i = v.agent
        JOIN ${S}.agent_standing s ON s.i = v.agent
        WHERE v.claim BETWEEN ${lo} AND ${hi}`,
    ),
    {
      label: "vote outcomes",
      weight: V * 0.5,
      sql: `INSERT INTO vote_outcomes (claim_id, agent_id, value, crowd_gradient, crowd_basis, resolution_gradient, consensus_true,
              outcome, tags, resolved_at)
            SELECT c.id, a.id, o.value, o.crowd, 'cast', o.resolved_gradient, o.resolved_gradient > ${NEUTRAL_GRADIENT},
              o.outcome::"VoteOutcome", c.tags, o.resolved_at
            FROM ${S}.outcomes o JOIN ${S}.claims c ON c.i = o.claim JOIN ${S}.agents a ON a.i = o.agent`,
    },
    ...perChunk(
      "gradient history",
      V * 2,
      (lo, hi) => `INSERT INTO gradient_history (id, claim_id, gradient, vote_count, recorded_at)
        SELECT v.history_id, c.id, v.gradient, v.cnt, v.created_at
        FROM ${S}.vote_runs v JOIN ${S}.claims c ON c.i = v.claim
        WHERE v.claim BETWEEN ${lo} AND ${hi}`,
    ),
    {
      label: "comments",
      weight: M * 2,
      sql: [0, 1, 2, 3].map(
        (depth) => `INSERT INTO comments (id, claim_id, parent_id, author_id, content, depth, is_edited, is_deleted, created_at, updated_at)
          SELECT m.id, c.id, m.parent, a.id, m.content, m.depth, m.is_edited, m.is_deleted, m.created_at,
            CASE WHEN m.is_edited OR m.is_deleted THEN m.created_at + interval '5 minutes' ELSE m.created_at END
          FROM ${S}.comments m JOIN ${S}.claims c ON c.i = m.claim JOIN ${S}.agents a ON a.i = m.author
          WHERE m.depth = ${depth}`,
      ),
    },
    {
      label: "reputation events",
      weight: V * 0.5,
      sql: `INSERT INTO reputation_events (id, agent_id, delta, reputation_score, reason, claim_id, evidence_id, created_at)
            SELECT r.event_id, a.id, r.applied, r.score, r.reason::"ReputationReason", c.id, r.evidence, r.at
            FROM ${S}.rep_events r JOIN ${S}.agents a ON a.i = r.agent JOIN ${S}.claims c ON c.i = r.claim`,
    },
  ];
}

/**
 * The accounts' standing as staged (agent_standing) and the rule it was decided under, stored after the
 * load: the servers then find nothing to restate (a rule that differed would mark every account).
 */
function standingStatements(): string[] {
  const rule = configuredRule();
  return [
    `INSERT INTO standing_rule (id, min_age_seconds, min_votes, require_verified, applied_at)
     VALUES (1, ${rule.minAgeSeconds}, ${rule.minVotes}, ${rule.requireVerified}, now())
     ON CONFLICT (id) DO UPDATE SET min_age_seconds = EXCLUDED.min_age_seconds, min_votes = EXCLUDED.min_votes,
       require_verified = EXCLUDED.require_verified, applied_at = now()`,
    `UPDATE agents a SET standing = s.standing, standing_gains_at = s.gains_at
     FROM ${S}.agent_final f JOIN ${S}.agent_standing s ON s.i = f.i
     WHERE a.id = f.id AND (a.standing, a.standing_gains_at) IS DISTINCT FROM (s.standing, s.gains_at)`,
  ];
}

/** Explicit ids were inserted: the sequences continue after them. */
const SEQUENCES = ["gradient_history", "reputation_events"].map(
  (t) => `SELECT setval(pg_get_serial_sequence('${t}', 'id'), greatest(1, (SELECT coalesce(max(id), 0) FROM ${t})))`,
);

/** The tables the seed fills. */
const LOADED_TABLES = ["agents", "claims", "claim_parents", "arguments", "relevance_votes", "evidence", "evidence_votes", "claim_votes", "vote_outcomes", "gradient_history", "comments", "reputation_events"];

/**
 * Drops the loaded tables' foreign keys and secondary indexes (primary keys stay) and returns the
 * statements that put them back, as pg_restore does: a bulk load followed by one index build and one
 * validation per constraint is several times faster than maintaining them row by row. The rows are
 * consistent by construction and the foreign keys are validated again when they are re-added.
 */
async function dropSecondaryStructures(client: pg.Client): Promise<{ indexes: string[]; foreignKeys: string[] }> {
  const { rows: fks } = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY($1::regclass[]) ORDER BY conrelid, conname`,
    [LOADED_TABLES],
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
     FROM pg_index i
     WHERE i.indrelid = ANY($1::regclass[]) AND NOT i.indisprimary
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
     ORDER BY i.indrelid, i.indexrelid`,
    [LOADED_TABLES],
  );
  for (const fk of fks) await client.query(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${fk.name}`);
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
  return {
    indexes: indexes.map((i) => i.def),
    foreignKeys: fks.map((fk) => `ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${fk.name} ${fk.def}`),
  };
}

export interface SeedOptions {
  /** Show a progress bar (default: true). */
  progress?: boolean;
  /** The instant the content ends at (default: now). */
  now?: Date;
}

/** Seeds `connectionString` (a migrated database, expected empty) and reports what it took. */
export async function seed(connectionString: string, sizes: SeedSizes, options: SeedOptions = {}): Promise<SeedReport> {
  const started = performance.now();
  const now = (options.now ?? new Date()).toISOString();
  // Two sessions: the load's independent statements run two at a time (a 2-core machine's worth).
  const clients = [new pg.Client({ connectionString }), new pg.Client({ connectionString })];
  await Promise.all(clients.map((c) => c.connect()));
  const [client] = clients;
  const bar =
    options.progress === false
      ? null
      : new cliProgress.SingleBar(
          {
            format: "  seeding [{bar}] {percentage}% | {duration_formatted} | {step}",
            hideCursor: true,
            noTTYOutput: true,
            notTTYSchedule: 5000,
          },
          cliProgress.Presets.shades_classic,
        );
  const execute = async (c: pg.Client, sql: string) => {
    const t = performance.now();
    await c.query(sql);
    if (process.env.BENCH_SEED_DEBUG) console.error(`\n${((performance.now() - t) / 1000).toFixed(2)}s ${sql.trim().slice(0, 90).replace(/\s+/g, " ")}`);
  };
  /** Runs the steps in order, each step's statements in order, on `lanes` sessions at once. */
  const run = async (steps: Step[], lanes = 1) => {
    const queue = [...steps];
    await Promise.all(
      clients.slice(0, lanes).map(async (c) => {
        for (let step = queue.shift(); step; step = queue.shift()) {
          bar?.update({ step: step.label });
          for (const sql of Array.isArray(step.sql) ? step.sql : [step.sql]) await execute(c, sql);
          bar?.increment(step.weight);
        }
      }),
    );
  };
  try {
    for (const c of clients) await c.query(`SET work_mem = '256MB'; SET maintenance_work_mem = '512MB'; SET synchronous_commit = off; SET jit = off`);
    await client.query(`DROP SCHEMA IF EXISTS ${S} CASCADE; CREATE SCHEMA ${S}`);
    const passwordHash = await hashPassword(SEED_PASSWORD);
    const staging = stagingSteps(sizes, now);
    const load = loadSteps(sizes, passwordHash, Math.max(1, Math.min(20, Math.ceil(sizes.claims / 5000))));
    const total = [...staging, ...load].reduce((n, s) => n + s.weight, 0) + sizes.claimVotes + sizes.claims;
    bar?.start(Math.round(total), 0, { step: "" });
    await run(staging);
    // Fresh tables have no statistics: without them the load's joins get nested-loop plans.
    await client.query(`ANALYZE ${["agents", "claims", "parents", "evidence", "evidence_votes", "weights", "vote_runs", "claim_final", "resolutions", "outcomes", "rep_events", "agent_final", "agent_standing", "claim_counted", "comments"].map((t) => `${S}.${t}`).join(", ")}`);
    const stagingSeconds = (performance.now() - started) / 1000;
    const restore = await dropSecondaryStructures(client);
    // The claims first: later steps read the loaded claims table (duplicate statements, arguments),
    // and a second lane must not take one of them while the claims are still being inserted.
    const first = load.filter((s) => s.label === "agents" || s.label === "claims");
    await run(first, 2);
    await run(load.filter((s) => !first.includes(s)), 2);
    await run(restore.indexes.map((sql) => ({ label: "indexes", weight: sizes.claimVotes / restore.indexes.length, sql })), 2);
    await run([{ label: "foreign keys", weight: 0, sql: [...restore.foreignKeys, ...SEQUENCES, ...standingStatements()] }]);
    const loaded = performance.now();
    bar?.update({ step: "vacuum analyze" });
    await client.query(`DROP SCHEMA ${S} CASCADE`);
    // A steady-state database has been vacuumed: visibility maps make index-only scans possible.
    await client.query("VACUUM (ANALYZE)");
    bar?.update(Math.round(total), { step: "done" });
    bar?.stop();
    const rows: Record<string, number> = {};
    for (const table of LOADED_TABLES) {
      const { rows: r } = await client.query(`SELECT count(*)::int AS n FROM ${table}`);
      rows[table] = r[0].n;
    }
    const end = performance.now();
    return {
      seconds: (end - started) / 1000,
      stagingSeconds,
      loadSeconds: (loaded - started) / 1000 - stagingSeconds,
      vacuumSeconds: (end - loaded) / 1000,
      rows,
    };
  } catch (err) {
    bar?.stop();
    throw err;
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** `--agents 2000 --claims 10000 ...` → sizes (the rest default). */
export function parseSizes(args: Record<string, string | undefined>, base: SeedSizes = DEFAULT_SIZES): SeedSizes {
  const num = (name: string, fallback: number) => {
    const raw = args[name];
    if (raw === undefined) return fallback;
    const n = Number(raw.replace(/_/g, ""));
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name}: must be a non-negative integer`);
    return n;
  };
  const sizes: SeedSizes = {
    agents: num("agents", base.agents),
    claims: num("claims", base.claims),
    claimVotes: num("claim-votes", base.claimVotes),
    evidence: num("evidence", base.evidence),
    evidenceVotes: num("evidence-votes", base.evidenceVotes),
    comments: num("comments", base.comments),
    days: num("days", base.days),
  };
  if (sizes.agents < 2 || sizes.claims < 1 || sizes.days < 1) throw new Error("at least 2 agents, 1 claim and 1 day");
  if (sizes.agents >= STRIDES[0]) throw new Error(`--agents: at most ${STRIDES[0] - 1}`);
  return sizes;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [url, ...rest] = process.argv.slice(2);
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error("usage: tsx bench/seed.ts <postgresql://… of a migrated, empty database> [--agents N] [--claims N] …");
    process.exit(2);
  }
  const args: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) args[rest[i].replace(/^--/, "")] = rest[i + 1];
  const report = await seed(url, parseSizes(args));
  console.log(JSON.stringify(report, null, 2));
}
