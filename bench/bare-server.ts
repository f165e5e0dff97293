// The yardstick: a minimal node:http + pg server that answers the benchmarked endpoints with the
// queries the service runs (server/services/*.ts) and the same JSON, and nothing else: no tRPC, no
// zod, no Prisma, no rate limiter, no adapter. Raw SQL of the services is copied as it is; where a
// service goes through Prisma's query API, the equivalent hand-written statement is used (one JOIN
// where Prisma may issue a second query for a relation). Pure rules come from server/domain, so both
// servers compute the same answers; the ratio ours/bare is the cost of the framework layers.
//
// Env: PORT, DATABASE_URL, DATABASE_POOL_SIZE (default 10, as the service), JWT_SECRET.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";
import { verifyAccessToken } from "../server/auth/tokens.ts";
import {
  applyVote,
  crowdGradient,
  gradientFromSums,
  voteWeight,
  type WeightedVote,
} from "../server/domain/gradient.ts";
import { applyEvents, resolutionChange, tierFor } from "../server/domain/reputation.ts";
import { applyToTally, decidedBy, resolutionDue, statusSince, tallyVerdict, type SortedVote } from "../server/domain/consensus.ts";
import { learningScore, resolvedVotesFrom } from "../server/domain/learning.ts";
import { outcomeEngagement, rankExpertise } from "../server/domain/expertise.ts";
import { outcomeRecord, type RecordedOutcome } from "../server/domain/outcomes.ts";
import { TRENDING_WEIGHTS, trendingScore, trendingWindowStart } from "../server/domain/trending.ts";
import { matchingTags, recommendationScore, relatedRelevance } from "../server/domain/relevance.ts";
import { TOMBSTONE_AGENT_ID } from "../server/domain/accounts.ts";
import { visibleClaimText, visibleOnClaimText } from "../server/services/visibility-rule.ts";
import { CHECK_JSON_SQL, toCheck } from "../server/services/check-json.ts";
import { reasonsOf, REASONS_EXAMINED, STANDING_FACT_SQL, type ReasonRow } from "../server/services/standing-facts.ts";
import { fillTimeline, timelineDays, timelineStart, TIMELINE_PERIODS, type TimelinePeriod } from "../server/domain/timeline.ts";

// The services' visibility rule, as text (server/services/visibility-rule.ts): hidden content is left
// out of the same reads, with the same predicates.
const VISIBLE_CLAIM = visibleClaimText("c");
const VISIBLE_EVIDENCE = visibleOnClaimText("e");
const VISIBLE_COMMENT = visibleOnClaimText("c");

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
pool.on("error", (err) => console.error("[bare] idle client error:", err.message));

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEADERS = { "Content-Type": "application/json" };

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

type Row = Record<string, any>;
type Queryable = { query: pg.Pool["query"] };

async function rows(q: Queryable, sql: string, params: unknown[] = []): Promise<Row[]> {
  return (await q.query(sql, params)).rows;
}

// ---- caller ----

async function viewerOf(req: IncomingMessage): Promise<string | null> {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const claims = match ? await verifyAccessToken(match[1]) : null;
  if (!claims) throw new HttpError(401, "Invalid or expired token");
  const [row] = await rows(
    pool,
    `SELECT a.id, a.username, a.tier, a.reputation
     FROM agents a JOIN refresh_token_families f ON f.agent_id = a.id
     WHERE a.id = $1::uuid AND f.id = $2::uuid AND f.revoked_at IS NULL`,
    [claims.agentId, claims.familyId],
  );
  if (!row) throw new HttpError(401, "Invalid or expired token");
  return row.id;
}

// ---- claims as the API shows them (services/claim-views.ts) ----

const toAgent = (r: Row, p = "author_") => ({
  id: r[`${p}id`],
  username: r[`${p}username`],
  display_name: r[`${p}display_name`],
  avatar_url: r[`${p}avatar_url`],
  bio: r[`${p}bio`],
  reputation_score: Number(r[`${p}reputation`]),
  tier: r[`${p}tier`],
  role: r[`${p}role`],
  automated: Boolean(r[`${p}automated`]),
  standing: Boolean(r[`${p}standing`]),
  created_at: (r[`${p}created_at`] as Date).toISOString(),
});

/** The author columns of `agents a` (services/author-columns.ts). */
const AUTHOR_COLUMNS = `a.id::text AS author_id, a.username AS author_username, a.display_name AS author_display_name,
   a.avatar_url AS author_avatar_url, a.bio AS author_bio, a.reputation AS author_reputation,
   a.tier::text AS author_tier, a.role::text AS author_role, a.automated AS author_automated, a.standing AS author_standing, a.created_at AS author_created_at`;

/** The claim view over the rows `from` names `c`; the vote's statement uses it over the row it wrote (as services/claim-views.ts). */
const claimViewSql = (from: string, viewer: string, userVote: string, where: string) => `
  SELECT c.id::text AS id, c.statement, c.complexity_tier::text AS complexity_tier, c.tags,
         ARRAY(SELECT p.parent_id::text FROM claim_parents p JOIN claims pc ON pc.id = p.parent_id
               WHERE p.claim_id = c.id AND ${visibleClaimText("pc")} ORDER BY p.position, p.parent_id) AS parent_ids,
         c.gradient, c.weighted_sum, c.weight_total, c.people_weighted_sum, c.people_weight_total, c.people_vote_count,
         c.counted_weighted_sum, c.counted_weight_total, c.counted_vote_count,
         c.vote_count, c.evidence_count, c.created_at, c.updated_at,
         cb.score AS bridging_score, cb.polarity AS bridging_polarity,
         coalesce(cb.status::text, 'insufficient_data') AS bridging_status, cb.computed_at AS bridging_computed_at,
         c.consensus_status::text AS consensus_status, c.consensus_since, c.counted_histogram, c.agents_histogram,
         ${AUTHOR_COLUMNS},
         ${userVote} AS user_vote, (b.agent_id IS NOT NULL) AS is_bookmarked, (f.agent_id IS NOT NULL) AS is_following,
         c.hidden_at, c.hidden_reason, ${CHECK_JSON_SQL} AS check_json
  FROM ${from}
  JOIN agents a ON a.id = c.author_id
  LEFT JOIN claim_bridging cb ON cb.claim_id = c.id
  LEFT JOIN claim_votes v ON v.claim_id = c.id AND v.agent_id = ${viewer}
  LEFT JOIN bookmarks b ON b.claim_id = c.id AND b.agent_id = ${viewer}
  LEFT JOIN follows f ON f.claim_id = c.id AND f.agent_id = ${viewer}
  WHERE ${where}`;
const CLAIM_VIEW_SQL = claimViewSql("claims c", "$1::uuid", "v.value", `c.id = ANY($2::uuid[]) AND ${VISIBLE_CLAIM}`);

/** The gradient of some of the claim's votes, null without any (services/claim-views.ts). */
const gradientOrNull = (weightedSum: number, weightTotal: number, voteCount: number) =>
  voteCount <= 0 ? null : gradientFromSums({ weightedSum, weightTotal, voteCount });

function toClaim(r: Row, viewer: string | null) {
  const agents = Number(r.vote_count) - Number(r.people_vote_count);
  return {
    id: r.id,
    statement: r.statement,
    complexity_tier: r.complexity_tier,
    tags: r.tags,
    parent_ids: r.parent_ids,
    gradient: Number(r.gradient),
    gradient_people:
      Number(r.people_vote_count) === 0
        ? null
        : gradientFromSums({ weightedSum: Number(r.people_weighted_sum), weightTotal: Number(r.people_weight_total), voteCount: Number(r.people_vote_count) }),
    vote_count: Number(r.vote_count),
    evidence_count: Number(r.evidence_count),
    author: toAgent(r),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    user_vote: viewer && r.user_vote !== null ? Number(r.user_vote) : null,
    is_bookmarked: viewer ? r.is_bookmarked : null,
    is_following: viewer ? r.is_following : null,
    bridging: {
      score: r.bridging_score === null ? null : Number(r.bridging_score),
      polarity: r.bridging_polarity === null ? null : Number(r.bridging_polarity),
      status: r.bridging_status,
      computed_at: r.bridging_computed_at ? r.bridging_computed_at.toISOString() : null,
    },
    consensus: {
      status: r.consensus_status,
      voters: Number(r.counted_vote_count),
      decided_by: decidedBy(r.consensus_status, r.bridging_status),
      histogram: r.counted_histogram.map(Number),
      gradient: gradientOrNull(Number(r.counted_weighted_sum), Number(r.counted_weight_total), Number(r.counted_vote_count)),
      not_counted: { people: Number(r.people_vote_count) - Number(r.counted_vote_count), automated: agents },
      since: r.consensus_since ? r.consensus_since.toISOString() : null,
    },
    agents: {
      voters: agents,
      gradient: gradientOrNull(Number(r.weighted_sum) - Number(r.people_weighted_sum), Number(r.weight_total) - Number(r.people_weight_total), agents),
      histogram: r.agents_histogram.map(Number),
    },
    check: toCheck(r.check_json),
  };
}

async function claimViews(ids: string[], viewer: string | null, q: Queryable = pool) {
  const unique = [...new Set(ids)].filter((id) => UUID_RE.test(id));
  if (unique.length === 0) return [];
  const byId = new Map((await rows(q, CLAIM_VIEW_SQL, [viewer, unique])).map((r) => [r.id, toClaim(r, viewer)]));
  return ids.map((id) => byId.get(id.toLowerCase())).filter((c) => c !== undefined);
}

// ---- GET /claims (services/claims.ts listClaims) ----

const SORT_COLUMNS: Record<string, string> = { created_at: "created_at", gradient: "gradient", vote_count: "vote_count", relevance: "rank" };

async function listClaims(query: URLSearchParams, viewer: string | null) {
  const limit = Number(query.get("limit") ?? 20);
  const offset = Number(query.get("offset") ?? 0);
  const q = query.get("q") ?? undefined;
  const tags = [...new Set(query.getAll("tags").flatMap((v) => v.split(",")).map((t) => t.trim().toLowerCase()).filter(Boolean))];
  const params: unknown[] = [];
  const filters: string[] = [];
  if (tags.length) filters.push(`c.tags && $${params.push(tags)}::text[]`);
  const complexity = query.get("complexity");
  if (complexity) filters.push(`c.complexity_tier = $${params.push(complexity)}::"ComplexityTier"`);
  if (query.has("min_gradient")) filters.push(`c.gradient >= $${params.push(Number(query.get("min_gradient")))}`);
  if (query.has("max_gradient")) filters.push(`c.gradient <= $${params.push(Number(query.get("max_gradient")))}`);
  const sortBy = query.get("sort_by") ?? (q ? "relevance" : "created_at");
  const direction = sortBy === "relevance" || (query.get("sort_order") ?? "desc") === "desc" ? "DESC" : "ASC";
  const column = SORT_COLUMNS[sortBy];

  let ids: string[];
  let total: number;
  if (q) {
    const qParam = params.push(q);
    const where = [`c.search_vector @@ query.q`, ...filters].join(" AND ");
    // services/claims.ts searchMatches: at most 5,000 matches read, the newest 1,000 ranked.
    const columns = `c.id, c.created_at, c.gradient, c.vote_count, NULL::float8 AS bridging_score, ts_rank(c.search_vector, query.q) AS rank`;
    const [row] = await rows(
      pool,
      `WITH query AS (SELECT websearch_to_tsquery('english', $${qParam}) AS q),
       found AS MATERIALIZED (SELECT ${columns} FROM claims c, query WHERE ${where} AND ${VISIBLE_CLAIM} LIMIT 5001),
       broad AS MATERIALIZED (SELECT count(*) > 5000 AS yes FROM found),
       matches AS MATERIALIZED (
         (SELECT * FROM found WHERE NOT (SELECT yes FROM broad) ORDER BY created_at DESC, id DESC LIMIT 1000)
         UNION ALL
         (SELECT ${columns} FROM claims c, query WHERE ${where} AND ${VISIBLE_CLAIM} AND (SELECT yes FROM broad)
          ORDER BY c.created_at DESC, c.id DESC LIMIT 1000)
       )
       SELECT (SELECT count(*)::int FROM matches) AS total,
              ARRAY(SELECT m.id::text FROM matches m ORDER BY m.${column} ${direction}, m.id ${direction} LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}) AS ids`,
      params,
    );
    ids = row.ids;
    total = Number(row.total);
  } else {
    const where = `WHERE ${[VISIBLE_CLAIM, ...filters].join(" AND ")}`;
    const countParams = [...params];
    const [page, count] = await Promise.all([
      rows(
        pool,
        `SELECT c.id::text AS id FROM claims c ${where} ORDER BY c.${column} ${direction}, c.id ${direction} LIMIT $${params.push(limit)} OFFSET $${params.push(offset)}`,
        params,
      ),
      filters.length
        ? rows(pool, `SELECT count(*) AS n FROM claims c ${where}`, countParams)
        : rows(pool, `SELECT value AS n FROM platform_counters WHERE name = $1`, ["claims"]),
    ]);
    ids = page.map((r) => r.id);
    total = Number(count[0]?.n ?? 0);
  }
  return { claims: await claimViews(ids, viewer), total, limit, offset };
}

// ---- GET /claims/{id} ----

async function claimDetail(claimId: string, viewer: string | null) {
  const [claim] = UUID_RE.test(claimId) ? await claimViews([claimId], viewer) : [];
  if (!claim) throw new HttpError(404, "Claim not found");
  const [recent, parents, reasons] = await Promise.all([
    rows(pool, `SELECT gradient, vote_count, recorded_at FROM gradient_history WHERE claim_id = $1::uuid ORDER BY id DESC LIMIT 1000`, [claim.id]),
    claimViews(claim.parent_ids, viewer),
    // services/standing.ts notCountedReasons: no query when every person's vote counts.
    claim.consensus.not_counted.people <= 0
      ? []
      : rows(
          pool,
          `SELECT ${STANDING_FACT_SQL},
                  (SELECT count(*)::int FROM (SELECT 1 FROM claim_votes o WHERE o.agent_id = a.id
                                              LIMIT (SELECT min_votes FROM standing_rule WHERE id = 1)) n) AS votes,
                  now() AS db_now
           FROM claim_votes v JOIN agents a ON a.id = v.agent_id LEFT JOIN standing_rule r ON r.id = 1
           WHERE v.claim_id = $1::uuid AND NOT v.counted AND NOT v.automated
           LIMIT ${REASONS_EXAMINED}`,
          [claim.id],
        ),
  ]);
  const gradient_history = recent.reverse().map((p) => ({ gradient: p.gradient, vote_count: p.vote_count, recorded_at: p.recorded_at.toISOString() }));
  return { ...claim, gradient_history, parent_claims: parents, not_counted_reasons: reasonsOf(reasons as ReasonRow[]) };
}

// ---- POST /claims/{id}/vote (services/votes.ts castVote) ----

async function castVote(agentId: string, claimId: string, value: number) {
  if (!(typeof value === "number" && value >= 0 && value <= 1)) throw new HttpError(400, "value: must be between 0 and 1");
  if (!UUID_RE.test(claimId)) throw new HttpError(404, "Claim not found");
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const [claim] = await rows(
      client,
      `SELECT id::text AS id, author_id::text AS author_id, weighted_sum, weight_total, vote_count,
              people_weighted_sum, people_weight_total, people_vote_count, (resolved_at IS NOT NULL) AS resolved,
              counted_weighted_sum, counted_weight_total, counted_vote_count, counted_histogram, agents_histogram,
              consensus_status::text AS consensus_status, consensus_since, GREATEST(now(), consensus_since) AS db_now
       FROM claims WHERE id = $1::uuid FOR NO KEY UPDATE`,
      [claimId],
    );
    if (!claim) throw new HttpError(404, "Claim not found");
    if (claim.author_id === agentId) throw new HttpError(403, "Insufficient permissions");
    const [voter] = await rows(
      client,
      `SELECT a.reputation, a.automated, a.standing, v.value, v.weight, v.automated AS vote_automated, v.counted AS vote_counted,
              (SELECT b.status::text FROM claim_bridging b WHERE b.claim_id = $1::uuid) AS bridging_status
       FROM agents a LEFT JOIN claim_votes v ON v.claim_id = $1::uuid AND v.agent_id = a.id WHERE a.id = $2::uuid`,
      [claim.id, agentId],
    );
    // The yardstick sorts a vote by its account's stored standing (the service decides it afresh:
    // the same on the seeded accounts, whose standing does not change during a run).
    const previous: SortedVote | null =
      voter && voter.value !== null
        ? { value: Number(voter.value), weight: Number(voter.weight), automated: Boolean(voter.vote_automated), counted: Boolean(voter.vote_counted) }
        : null;
    const automated = Boolean(voter?.automated);
    const next: SortedVote = { value, weight: voteWeight(Number(voter?.reputation ?? 0)), automated, counted: Boolean(voter?.standing) && !automated };
    const before = { weightedSum: Number(claim.weighted_sum), weightTotal: Number(claim.weight_total), voteCount: Number(claim.vote_count) };
    if (previous && previous.value === next.value && previous.weight === next.weight && previous.automated === next.automated && previous.counted === next.counted) {
      await client.query("COMMIT");
      const [view] = await claimViews([claimId], agentId);
      return view;
    }
    const crowd = crowdGradient(before, previous);
    const setCrowd = previous?.value === next.value ? "" : ", crowd_gradient = $9::float8";
    const writeVote = previous
      ? `UPDATE claim_votes SET value = $3::float8, weight = $4::float8, automated = $13::boolean, counted = $17::boolean, updated_at = now() ${setCrowd} WHERE claim_id = $1::uuid AND agent_id = $2::uuid`
      : `INSERT INTO claim_votes (id, claim_id, agent_id, value, weight, crowd_gradient, automated, counted, updated_at) VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::float8, $4::float8, $9::float8, $13::boolean, $17::boolean, now())`;
    const tally = applyToTally(
      {
        all: before,
        people: { weightedSum: Number(claim.people_weighted_sum), weightTotal: Number(claim.people_weight_total), voteCount: Number(claim.people_vote_count) },
        counted: { weightedSum: Number(claim.counted_weighted_sum), weightTotal: Number(claim.counted_weight_total), voteCount: Number(claim.counted_vote_count) },
        countedHistogram: claim.counted_histogram.map(Number),
        agentsHistogram: claim.agents_histogram.map(Number),
      },
      previous,
      next,
    );
    const sums = tally.all;
    const people = tally.people;
    const gradient = gradientFromSums(sums);
    const { status } = tallyVerdict(tally, voter?.bridging_status ?? "insufficient_data");
    const since = statusSince({ status: claim.consensus_status, since: claim.consensus_since }, status, claim.db_now);
    const resolves = resolutionDue(
      { status, since, voters: tally.counted.voteCount, resolved: claim.resolved },
      claim.db_now,
      Number(process.env.RESOLUTION_STABLE_SECONDS ?? 1800),
    );
    const written = await rows(
      client,
      `WITH vote AS (${writeVote}),
       claim AS (
         UPDATE claims SET weighted_sum = $5::float8, weight_total = $6::float8, vote_count = $7::int, gradient = $8::float8, updated_at = now(),
           people_weighted_sum = $14::float8, people_weight_total = $15::float8, people_vote_count = $16::int,
           counted_weighted_sum = $18::float8, counted_weight_total = $19::float8, counted_vote_count = $20::int,
           counted_histogram = $10::int[], agents_histogram = $21::int[],
           consensus_status = $11::"ConsensusStatus", consensus_since = $12::timestamptz,
           resolved_at = ${resolves ? "now()" : "resolved_at"} WHERE id = $1::uuid
         RETURNING *
       ),
       history AS (INSERT INTO gradient_history (claim_id, gradient, vote_count) VALUES ($1::uuid, $8::float8, $7::int))
       ${claimViewSql("claim c", "$2::uuid", "$3::float8", "true")}`,
      [claim.id, agentId, next.value, next.weight, sums.weightedSum, sums.weightTotal, sums.voteCount, gradient, crowd, tally.countedHistogram, status, since,
       next.automated, people.weightedSum, people.weightTotal, people.voteCount, next.counted,
       tally.counted.weightedSum, tally.counted.weightTotal, tally.counted.voteCount, tally.agentsHistogram],
    );
    if (resolves) await resolveClaim(client, { claimId: claim.id, gradient, consensusTrue: status === "consensus_true" });
    await client.query("COMMIT");
    if (!resolves && written[0]) return toClaim(written[0], agentId);
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  const [view] = await claimViews([claimId], agentId);
  return view;
}

async function resolveClaim(client: pg.PoolClient, { claimId, gradient, consensusTrue }: { claimId: string; gradient: number; consensusTrue: boolean }) {
  const votes = await rows(client, `SELECT agent_id::text AS agent_id, value, crowd_gradient FROM claim_votes WHERE claim_id = $1::uuid`, [claimId]);
  const records = votes.map((v) => ({
    agentId: v.agent_id as string,
    ...outcomeRecord({
      value: Number(v.value),
      crowdAtCast: v.crowd_gradient === null ? null : Number(v.crowd_gradient),
      resolutionGradient: gradient,
      consensusTrue,
    }),
  }));
  const outcomeOf = new Map(records.map((r) => [r.agentId, r.outcome]));
  await client.query(
    `INSERT INTO vote_outcomes (claim_id, agent_id, value, crowd_gradient, crowd_basis, resolution_gradient, consensus_true, outcome, tags, resolved_at)
     SELECT c.id, r.agent, r.value, r.crowd, r.basis::"CrowdBasis", $2::float8, $3::boolean, r.outcome::"VoteOutcome", c.tags, c.resolved_at
     FROM claims c, unnest($4::uuid[], $5::float8[], $6::float8[], $7::text[], $8::text[]) AS r(agent, value, crowd, basis, outcome)
     WHERE c.id = $1::uuid`,
    [
      claimId,
      gradient,
      records[0]?.consensusTrue ?? gradient > 0.5,
      records.map((r) => r.agentId),
      records.map((r) => r.value),
      records.map((r) => r.crowdGradient),
      records.map((r) => r.crowdBasis),
      records.map((r) => r.outcome),
    ],
  );
  const voterIds = votes.filter((v) => resolutionChange(outcomeOf.get(v.agent_id)!) !== null).map((v) => v.agent_id);
  if (voterIds.length === 0) return;
  const voters = await rows(client, `SELECT id::text AS id, reputation FROM agents WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [voterIds]);
  const u = { id: [] as string[], rep: [] as number[], tier: [] as string[], correct: [] as number[] };
  const e = { agent: [] as string[], delta: [] as number[], score: [] as number[], reason: [] as string[] };
  for (const voter of voters) {
    const outcome = outcomeOf.get(voter.id)!;
    const applied = applyEvents(Number(voter.reputation), [resolutionChange(outcome)!]);
    u.id.push(voter.id);
    u.rep.push(applied.score);
    u.tier.push(tierFor(applied.score));
    u.correct.push(outcome === "aligned" ? 1 : 0);
    for (const ev of applied.events) {
      e.agent.push(voter.id);
      e.delta.push(ev.delta);
      e.score.push(ev.reputation_score);
      e.reason.push(ev.reason);
    }
  }
  await client.query(
    `UPDATE agents a SET reputation = u.reputation, tier = u.tier::"Tier", resolved_votes = a.resolved_votes + 1,
       correct_resolved_votes = a.correct_resolved_votes + u.correct, updated_at = now()
     FROM unnest($1::uuid[], $2::float8[], $3::text[], $4::int[]) AS u(id, reputation, tier, correct) WHERE a.id = u.id`,
    [u.id, u.rep, u.tier, u.correct],
  );
  await client.query(
    `INSERT INTO reputation_events (agent_id, delta, reputation_score, reason, claim_id)
     SELECT agent, delta, score, reason::"ReputationReason", $5::uuid FROM unnest($1::uuid[], $2::float8[], $3::float8[], $4::text[]) AS e(agent, delta, score, reason)`,
    [e.agent, e.delta, e.score, e.reason, claimId],
  );
}

// ---- GET /claims/{id}/evidence (services/evidence.ts listEvidence) ----

async function listEvidence(claimId: string, query: URLSearchParams, viewer: string | null) {
  if (!UUID_RE.test(claimId)) throw new HttpError(404, "Claim not found");
  const limit = Number(query.get("limit") ?? 50);
  const offset = Number(query.get("offset") ?? 0);
  const order = query.get("sort_order") === "asc" ? "ASC" : "DESC";
  const column = query.get("sort_by") === "created_at" ? "created_at" : "vote_score";
  const [page, count] = await Promise.all([
    rows(
      pool,
      `SELECT e.id, e.claim_id, e.position, e.content_type, e.content, e.title, e.excerpt, e.upvotes, e.downvotes, e.vote_score,
              e.created_at, e.updated_at, ${AUTHOR_COLUMNS}, v.direction AS user_vote
       FROM evidence e JOIN agents a ON a.id = e.author_id
       LEFT JOIN evidence_votes v ON v.evidence_id = e.id AND v.agent_id = $2::uuid
       WHERE e.claim_id = $1::uuid AND ${VISIBLE_EVIDENCE} ORDER BY e.${column} ${order}, e.id ${order} LIMIT $3 OFFSET $4`,
      [claimId, viewer, limit, offset],
    ),
    rows(pool, `SELECT (SELECT count(*)::int FROM evidence e WHERE e.claim_id = $1::uuid AND ${VISIBLE_EVIDENCE}) AS n FROM claims c
      WHERE c.id = $1::uuid AND ${VISIBLE_CLAIM}`, [claimId]),
  ]);
  if (!count[0]) throw new HttpError(404, "Claim not found");
  const evidence = page.map((r) => ({
    id: r.id,
    claim_id: r.claim_id,
    author: toAgent(r),
    position: r.position,
    content_type: r.content_type,
    content: r.content,
    title: r.title,
    excerpt: r.excerpt,
    upvotes: r.upvotes,
    downvotes: r.downvotes,
    vote_score: r.vote_score,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    user_vote: r.user_vote ?? null,
  }));
  return { evidence, total: Number(count[0].n), limit, offset };
}

// ---- profiles (services/profiles.ts) ----

const AGENT_COLUMNS = `id, username, display_name AS author_display_name, username AS author_username, id AS author_id,
  avatar_url AS author_avatar_url, bio AS author_bio, reputation AS author_reputation, tier AS author_tier, role AS author_role,
  automated AS author_automated, standing AS author_standing, created_at AS author_created_at, reputation`;

async function findAgent(idOrUsername: string): Promise<Row> {
  const [agent] = UUID_RE.test(idOrUsername)
    ? await rows(pool, `SELECT ${AGENT_COLUMNS} FROM agents WHERE id = $1::uuid`, [idOrUsername])
    : await rows(pool, `SELECT ${AGENT_COLUMNS} FROM agents WHERE username_key = $1`, [idOrUsername.toLowerCase()]);
  if (!agent) throw new HttpError(404, "Agent not found");
  return agent;
}

async function outcomeRecords(agentId: string): Promise<RecordedOutcome[]> {
  const records = await rows(pool, `SELECT outcome::text AS outcome, resolved_at, tags FROM vote_outcomes WHERE agent_id = $1::uuid`, [agentId]);
  return records.map((r) => ({ outcome: r.outcome, resolvedAt: r.resolved_at, tags: r.tags ?? [] }));
}

async function expertiseOf(agentId: string, records: Promise<RecordedOutcome[]> = outcomeRecords(agentId)) {
  const [engagement, outcomes] = await Promise.all([
    rows(
      pool,
      `SELECT tag, count(*)::int AS engagement_count
       FROM (
         SELECT unnest(c.tags) AS tag FROM claims c WHERE c.author_id = $1::uuid AND ${VISIBLE_CLAIM}
         UNION ALL
         SELECT unnest(c.tags) FROM evidence e JOIN claims c ON c.id = e.claim_id WHERE e.author_id = $1::uuid AND ${VISIBLE_EVIDENCE}
         UNION ALL
         SELECT unnest(c.tags) FROM claim_votes v JOIN claims c ON c.id = v.claim_id
         WHERE v.agent_id = $1::uuid AND ${VISIBLE_CLAIM}
           AND NOT EXISTS (SELECT 1 FROM vote_outcomes o WHERE o.claim_id = v.claim_id AND o.agent_id = v.agent_id)
       ) engagement GROUP BY tag`,
      [agentId],
    ),
    records,
  ]);
  return rankExpertise([
    ...engagement.map((r) => ({ tag: r.tag, engagement_count: r.engagement_count, resolved: 0, correct: 0 })),
    ...outcomeEngagement(outcomes),
  ]);
}

async function profile(idOrUsername: string) {
  const agent = await findAgent(idOrUsername);
  const id = agent.id;
  const records = outcomeRecords(id);
  const [[counts], resolved, expertise] = await Promise.all([
    rows(
      pool,
      `SELECT (SELECT count(*)::int FROM claims c WHERE c.author_id = $1::uuid AND ${VISIBLE_CLAIM}) AS claims_authored,
              (SELECT count(*)::int FROM evidence e WHERE e.author_id = $1::uuid AND ${VISIBLE_EVIDENCE}) AS evidence_submitted,
              (SELECT count(*)::int FROM claim_votes v JOIN claims c ON c.id = v.claim_id WHERE v.agent_id = $1::uuid AND ${VISIBLE_CLAIM}) AS votes_cast,
              (SELECT count(*)::int FROM agents WHERE reputation > $2::float8 AND id <> '${TOMBSTONE_AGENT_ID}'::uuid) AS higher,
              (SELECT count(*)::int FROM agents WHERE id <> '${TOMBSTONE_AGENT_ID}'::uuid) AS total_agents,
              LEAST(
                (SELECT min(c.created_at) FROM claims c WHERE c.author_id = $1::uuid AND ${VISIBLE_CLAIM}),
                (SELECT min(e.created_at) FROM evidence e WHERE e.author_id = $1::uuid AND ${VISIBLE_EVIDENCE}),
                (SELECT min(v.created_at) FROM claim_votes v JOIN claims c ON c.id = v.claim_id WHERE v.agent_id = $1::uuid AND ${VISIBLE_CLAIM}),
                (SELECT min(c.created_at) FROM comments c WHERE c.author_id = $1::uuid AND ${VISIBLE_COMMENT})) AS first`,
      [id, agent.reputation],
    ),
    records,
    expertiseOf(id, records),
  ]);
  const { higher, total_agents } = counts;
  return {
    ...toAgent(agent),
    first_activity_at: counts.first ? counts.first.toISOString() : null,
    stats: {
      claims_authored: counts.claims_authored,
      evidence_submitted: counts.evidence_submitted,
      votes_cast: counts.votes_cast,
      reputation_rank: higher + 1,
      total_agents,
      percentile: total_agents > 0 ? Math.round((1000 * (total_agents - higher)) / total_agents) / 10 : 0,
    },
    learning_score: learningScore(resolvedVotesFrom(resolved), new Date()),
    expertise,
  };
}

const UTC_DAY = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

async function timeline(idOrUsername: string, query: URLSearchParams) {
  const period = (query.get("period") ?? "30d") as TimelinePeriod;
  if (!TIMELINE_PERIODS.includes(period)) throw new HttpError(400, "period: must be one of 7d, 30d, 90d");
  const agent = await findAgent(idOrUsername);
  const now = new Date();
  const since = timelineStart(period, now);
  const params = [agent.id, since];
  // services/profiles.ts getTimeline: each count leaves out what is hidden.
  const parts = await Promise.all([
    rows(pool, `SELECT ${UTC_DAY} AS date, count(*)::int AS claims FROM claims c
      WHERE author_id = $1::uuid AND created_at >= $2 AND ${VISIBLE_CLAIM} GROUP BY 1`, params),
    rows(pool, `SELECT ${UTC_DAY} AS date, count(*)::int AS evidence FROM evidence e
      WHERE author_id = $1::uuid AND created_at >= $2 AND ${VISIBLE_EVIDENCE} GROUP BY 1`, params),
    rows(pool, `SELECT to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS votes
      FROM claim_votes v JOIN claims c ON c.id = v.claim_id
      WHERE v.agent_id = $1::uuid AND v.created_at >= $2 AND ${VISIBLE_CLAIM} GROUP BY 1`, params),
    rows(pool, `SELECT ${UTC_DAY} AS date, count(*)::int AS comments FROM comments c
      WHERE author_id = $1::uuid AND created_at >= $2 AND ${VISIBLE_COMMENT} GROUP BY 1`, params),
  ]);
  return { period, data: fillTimeline(timelineDays(period, now), parts.flat() as never[]) };
}

// ---- GET /stats/platform (services/stats.ts, cached 5 minutes like the service) ----

let statsCache: { at: number; value: unknown } | null = null;

async function platformStats() {
  if (statsCache && Date.now() - statsCache.at < 5 * 60_000) return statsCache.value;
  const now = new Date();
  const since = new Date(now.getTime() - 7 * 24 * 3600_000);
  const [claims, agents, votes, consensus, active] = await Promise.all([
    rows(pool, `SELECT value AS n FROM platform_counters WHERE name = $1`, ["claims"]),
    rows(pool, `SELECT count(*)::int AS n FROM agents WHERE id <> $1::uuid`, [TOMBSTONE_AGENT_ID]),
    rows(pool, `SELECT sum(value) AS n FROM platform_counters WHERE name LIKE 'claim_votes:%'`),
    rows(pool, `SELECT count(*)::int AS n FROM claims c WHERE c.consensus_status IN ('consensus_true', 'consensus_false') AND ${VISIBLE_CLAIM}`),
    rows(
      pool,
      `SELECT count(*)::int AS n FROM (
         SELECT agent_id FROM claim_votes WHERE created_at >= $1
         UNION SELECT author_id FROM evidence WHERE created_at >= $1
         UNION SELECT author_id FROM comments WHERE created_at >= $1
         UNION SELECT author_id FROM claims WHERE created_at >= $1) active`,
      [since],
    ),
  ]);
  const value = {
    total_claims: Number(claims[0]?.n ?? 0),
    total_agents: Number(agents[0].n),
    total_votes: Number(votes[0]?.n ?? 0),
    claims_at_consensus: Number(consensus[0].n),
    active_agents_7d: Number(active[0].n),
    updated_at: now.toISOString(),
  };
  statsCache = { at: Date.now(), value };
  return value;
}

// ---- discovery (services/discovery.ts) ----

// The ranking per page is shared for 30 s, like the service's default TRENDING_CACHE_SECONDS.
const trendingCache = new Map<string, Promise<{ activity: Row[]; updated_at: string }>>();

async function trending(query: URLSearchParams, viewer: string | null) {
  const limit = Number(query.get("limit") ?? 10);
  const offset = Number(query.get("offset") ?? 0);
  const key = `${limit}:${offset}`;
  let ranking = trendingCache.get(key);
  if (!ranking) {
    ranking = rankTrending(limit, offset);
    trendingCache.set(key, ranking);
    setTimeout(() => trendingCache.delete(key), 30_000).unref();
    ranking.catch(() => trendingCache.delete(key));
  }
  const { activity, updated_at } = await ranking;
  const byId = new Map(activity.map((r) => [r.id, { votes24h: r.votes, evidence24h: r.evidence, comments24h: r.comments }]));
  const views = await claimViews(activity.map((r) => r.id), viewer);
  return {
    claims: views.map((claim) => {
      const a = byId.get(claim.id)!;
      return { ...claim, trending_score: trendingScore(a), votes_24h: a.votes24h, evidence_24h: a.evidence24h, comments_24h: a.comments24h };
    }),
    updated_at,
  };
}

async function rankTrending(limit: number, offset: number) {
  const now = new Date();
  const { votes: wv, evidence: we, comments: wc } = TRENDING_WEIGHTS;
  const activity = await rows(
    pool,
    `SELECT claim_id::text AS id,
            count(*) FILTER (WHERE kind = 'vote')::int AS votes,
            count(*) FILTER (WHERE kind = 'evidence')::int AS evidence,
            count(*) FILTER (WHERE kind = 'comment')::int AS comments
     FROM (
       SELECT claim_id, 'vote' AS kind FROM claim_votes WHERE created_at >= $1
       UNION ALL
       SELECT claim_id, 'evidence' FROM evidence WHERE created_at >= $1
       UNION ALL
       SELECT claim_id, 'comment' FROM comments WHERE created_at >= $1 AND NOT is_deleted
     ) activity
     GROUP BY claim_id
     ORDER BY sum(CASE kind WHEN 'vote' THEN $2::int WHEN 'evidence' THEN $3::int ELSE $4::int END) DESC, claim_id
     LIMIT $5 OFFSET $6`,
    [trendingWindowStart(now), wv, we, wc, limit, offset],
  );
  return { activity, updated_at: now.toISOString() };
}

type Candidate = { id: string; created_at: Date };
const byScore =
  <T extends Candidate>(score: (c: T) => number) =>
  (a: T, b: T) =>
    score(b) - score(a) || b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

async function related(claimId: string, query: URLSearchParams, viewer: string | null) {
  const limit = Number(query.get("limit") ?? 5);
  const [source] = UUID_RE.test(claimId) ? await rows(pool, `SELECT id, tags FROM claims WHERE id = $1::uuid`, [claimId]) : [];
  if (!source) throw new HttpError(404, "Claim not found");
  const candidates = (await rows(
    pool,
    `WITH voters AS (
       SELECT agent_id FROM claim_votes WHERE claim_id = $1::uuid ORDER BY agent_id LIMIT 100
     ), co_voted AS (
       SELECT recent.claim_id, count(*)::int AS shared_voters
       FROM voters, LATERAL (
         SELECT v.claim_id FROM claim_votes v
         WHERE v.agent_id = voters.agent_id AND v.claim_id <> $1::uuid
         ORDER BY v.created_at DESC LIMIT 100
       ) recent
       GROUP BY recent.claim_id
     ), tagged AS (
       SELECT c.id FROM claims c WHERE c.tags && $2::text[] AND c.id <> $1::uuid ORDER BY c.created_at DESC LIMIT 500
     ), candidates AS (
       SELECT id FROM tagged UNION SELECT claim_id FROM co_voted
     )
     SELECT c.id::text AS id, c.created_at,
            ARRAY(SELECT t FROM unnest(c.tags) AS t WHERE t = ANY($2::text[])) AS shared_tags,
            COALESCE(cv.shared_voters, 0) AS shared_voters
     FROM candidates k JOIN claims c ON c.id = k.id LEFT JOIN co_voted cv ON cv.claim_id = c.id`,
    [source.id, source.tags],
  )) as (Candidate & { shared_tags: string[]; shared_voters: number })[];
  const relevance = (r: (typeof candidates)[number]) => relatedRelevance({ sharedTags: r.shared_tags.length, sharedVoters: Number(r.shared_voters) });
  const top = candidates.filter((r) => relevance(r) > 0).sort(byScore(relevance)).slice(0, limit);
  const byId = new Map(top.map((r) => [r.id, r]));
  const views = await claimViews(top.map((r) => r.id), viewer);
  return {
    source_claim_id: source.id,
    related: views.map((claim) => {
      const r = byId.get(claim.id)!;
      return { ...claim, relevance_score: relevance(r), shared_tags: r.shared_tags };
    }),
  };
}

async function recommended(agentId: string, query: URLSearchParams) {
  const now = new Date();
  const limit = Number(query.get("limit") ?? 10);
  const basedOnTags = (await expertiseOf(agentId)).map((e) => e.tag);
  const unvoted = (tagFilter: string) => `
    SELECT c.id::text AS id, c.tags, c.created_at, c.evidence_count FROM claims c
    WHERE c.author_id <> $1::uuid ${tagFilter}
      AND NOT EXISTS (SELECT 1 FROM claim_votes v WHERE v.claim_id = c.id AND v.agent_id = $1::uuid)
    ORDER BY c.created_at DESC LIMIT 300`;
  const sql = basedOnTags.length ? `(${unvoted("AND c.tags && $2::text[]")}) UNION (${unvoted("")})` : `(${unvoted("")})`;
  const candidates = (await rows(pool, sql, basedOnTags.length ? [agentId, basedOnTags] : [agentId])) as (Candidate & {
    tags: string[];
    evidence_count: number;
  })[];
  const scored = candidates.map((r) => {
    const matching = matchingTags(r.tags, basedOnTags);
    return { ...r, matching, score: recommendationScore({ matchingTagCount: matching.length, createdAt: r.created_at, evidenceCount: Number(r.evidence_count), now }) };
  });
  const top = scored.sort(byScore((r) => r.score)).slice(0, limit);
  const byId = new Map(top.map((r) => [r.id, r]));
  const views = await claimViews(top.map((r) => r.id), agentId);
  return {
    claims: views.map((claim) => {
      const r = byId.get(claim.id)!;
      return { ...claim, recommendation_score: r.score, matching_tags: r.matching };
    }),
    based_on_tags: basedOnTags,
  };
}

// ---- routing ----

function readJson(req: IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    // The client may have gone while the token was checked: its stream will not emit anything more.
    if (req.destroyed) return reject(new HttpError(400, "body: the client closed the connection"));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {});
      } catch {
        reject(new HttpError(400, "body: malformed JSON"));
      }
    });
    req.on("error", reject);
  });
}

type Handler = (m: RegExpExecArray, query: URLSearchParams, req: IncomingMessage) => Promise<unknown>;
const routes: { method: string; pattern: RegExp; handler: Handler }[] = [
  { method: "GET", pattern: /^\/claims$/, handler: async (_m, q, req) => listClaims(q, await viewerOf(req)) },
  { method: "GET", pattern: /^\/claims\/([^/]+)$/, handler: async (m, _q, req) => claimDetail(m[1], await viewerOf(req)) },
  {
    method: "POST",
    pattern: /^\/claims\/([^/]+)\/vote$/,
    handler: async (m, _q, req) => {
      const viewer = await viewerOf(req);
      if (!viewer) throw new HttpError(401, "Invalid or expired token");
      const body = await readJson(req);
      return castVote(viewer, m[1], body.value);
    },
  },
  { method: "GET", pattern: /^\/claims\/([^/]+)\/evidence$/, handler: async (m, q, req) => listEvidence(m[1], q, await viewerOf(req)) },
  { method: "GET", pattern: /^\/profiles\/([^/]+)\/timeline$/, handler: async (m, q, req) => (await viewerOf(req), timeline(decodeURIComponent(m[1]), q)) },
  { method: "GET", pattern: /^\/profiles\/([^/]+)$/, handler: async (m, _q, req) => (await viewerOf(req), profile(decodeURIComponent(m[1]))) },
  { method: "GET", pattern: /^\/discover\/trending$/, handler: async (_m, q, req) => trending(q, await viewerOf(req)) },
  { method: "GET", pattern: /^\/discover\/related\/([^/]+)$/, handler: async (m, q, req) => related(m[1], q, await viewerOf(req)) },
  {
    method: "GET",
    pattern: /^\/discover\/recommended$/,
    handler: async (_m, q, req) => {
      const viewer = await viewerOf(req);
      if (!viewer) throw new HttpError(401, "Invalid or expired token");
      return recommended(viewer, q);
    },
  },
  { method: "GET", pattern: /^\/stats\/platform$/, handler: async (_m, _q, req) => (await viewerOf(req), platformStats()) },
  { method: "GET", pattern: /^\/health$/, handler: async () => (await pool.query("SELECT 1"), { status: "ok", database: "postgres" }) },
];

const PREFIX = "/api/v1";

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = (q === -1 ? url : url.slice(0, q)).slice(PREFIX.length);
  const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
  for (const route of routes) {
    if (route.method !== req.method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    const body = await route.handler(m, query, req);
    res.writeHead(200, HEADERS);
    res.end(JSON.stringify(body));
    return;
  }
  throw new HttpError(404, "Not found");
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => {
    const status = err instanceof HttpError ? err.status : 500;
    if (status === 500) console.error("[bare]", err);
    res.writeHead(status, HEADERS);
    res.end(JSON.stringify({ detail: err instanceof HttpError ? err.detail : "Internal server error" }));
  });
});
server.keepAliveTimeout = 65_000;
const port = Number(process.env.PORT ?? 3100);
server.listen(port, () => console.log(`> Bare server ready on http://localhost:${port}`));
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close();
    void pool.end().finally(() => process.exit(0));
  });
}
