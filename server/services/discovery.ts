// Discovery (docs/api.md#discovery): trending, related, recommended, topics. None of these reads every claim or
// every vote; each works on a bounded candidate set:
//   - trending:    activity of the last 24 h, through the created_at indexes of votes/evidence/comments,
//                  the ranking shared for TRENDING_CACHE_SECONDS (an aggregate of ~50k rows costs ~140 ms);
//   - related:     a read of the claim's maintained set (related_claims, computed on first read from
//                  claims sharing a tag — GIN tag index, newest RELATED_TAG_CANDIDATES — and claims
//                  recently voted on by up to RELATED_VOTER_SAMPLE of its voters; kept exact by a
//                  trigger, recomputed in the background when stale);
//   - recommended: the newest RECOMMENDATION_CANDIDATES unvoted claims of others in the caller's
//                  expertise tags, and as many of the newest unvoted claims of others overall;
//   - topics:      the tag_stats / tag_daily_counts tables kept by triggers on claims;
//   - topic claims: the GIN tag index, its total from tag_stats.
// The scoring rules live in server/domain (trending, relevance); claims are serialised by claimViews.
import { readSql, sqlTransaction } from "../db/client.ts";
import { cache, type Cache } from "../cache/index.ts";
import { config } from "../config.ts";
import { Prisma } from "../db/generated/client.ts";
import { notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import type { RecommendedClaims, RelatedClaims, TopicClaims, Topics, TopicSort, Trending } from "../contract/discovery.ts";
import { rankTrending, TRENDING_WEIGHTS, trendingScore, trendingWindowStart } from "../domain/trending.ts";
import { matchingTags, recommendationScore, relatedRelevance } from "../domain/relevance.ts";
import { claimViews } from "./claim-views.ts";
import { expertiseOf } from "./profiles.ts";
import { visibleClaim, visibleComment, visibleEvidence } from "./visibility.ts";

export const RELATED_TAG_CANDIDATES = 500;
export const RELATED_VOTER_SAMPLE = 100;
export const RELATED_VOTES_PER_VOTER = 100;
/** Members kept in a related set: the largest page (20) twice over, so hidden members leave a full page. */
export const RELATED_SET_SIZE = 40;
export const RECOMMENDATION_CANDIDATES = 300;
export const TOPIC_RECENT_DAYS = 7;
/**
 * How many claims one trending ranking holds. Every page is a slice of it (limit ≤ 50, so 10 full
 * pages); an offset past it is an empty page. Ranking the whole window costs the same aggregate
 * whatever N is (a top-N sort on top), so N only bounds what is stored and shipped per computation
 * (≈40 bytes a row, ≈20 KB in the cache).
 */
export const TRENDING_RANKING_SIZE = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

// ---- trending ----

interface TrendingRanking {
  rows: { id: string; votes24h: number; evidence24h: number; comments24h: number }[];
  updated_at: string;
}

/**
 * One pass over the window's rows (each source through its created_at index), one aggregate. The SQL
 * picks the top TRENDING_RANKING_SIZE by the domain's weights (so that only those leave the database);
 * the order is domain/trending's `rankTrending`.
 */
async function computeTrending(now: Date): Promise<TrendingRanking> {
  const since = trendingWindowStart(now);
  const { votes: wv, evidence: we, comments: wc } = TRENDING_WEIGHTS;
  const rows = await readSql<TrendingRanking["rows"][number]>`
    SELECT claim_id::text AS id,
           count(*) FILTER (WHERE kind = 'vote')::int AS "votes24h",
           count(*) FILTER (WHERE kind = 'evidence')::int AS "evidence24h",
           count(*) FILTER (WHERE kind = 'comment')::int AS "comments24h"
    FROM (
      SELECT claim_id, 'vote' AS kind FROM claim_votes WHERE created_at >= ${since}
      UNION ALL
      SELECT claim_id, 'evidence' FROM evidence e WHERE created_at >= ${since} AND ${visibleEvidence("e")}
      UNION ALL
      SELECT claim_id, 'comment' FROM comments c WHERE created_at >= ${since} AND NOT is_deleted AND ${visibleComment("c")}
    ) activity
    WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = activity.claim_id AND NOT ${visibleClaim("c")})
    GROUP BY claim_id
    ORDER BY sum(CASE kind WHEN 'vote' THEN ${wv}::int WHEN 'evidence' THEN ${we}::int ELSE ${wc}::int END) DESC, claim_id
    LIMIT ${TRENDING_RANKING_SIZE}`;
  return { rows: rankTrending(rows), updated_at: now.toISOString() };
}

/** When a ranking is computed (now) and where it is kept between calls (the shared cache). */
interface RankingOptions {
  now?: Date;
  store?: Cache;
}

/**
 * One ranking (the top TRENDING_RANKING_SIZE) is computed at most once per TRENDING_CACHE_SECONDS and
 * every page is cut from it, so pages of one period never overlap or skip (shared by every instance
 * through the cache, like platform statistics; `updated_at` says when). The claims and the caller's
 * fields are read fresh on every call.
 */
export async function trending(
  input: { limit: number; offset: number },
  viewerId: string | null,
  { now = new Date(), store = cache() }: RankingOptions = {},
): Promise<Trending> {
  const ttl = config().TRENDING_CACHE_SECONDS;
  const ranking =
    ttl > 0 ? await store.getOrCompute(`trending:v3`, ttl, () => computeTrending(now)) : await computeTrending(now);
  const rows = ranking.rows.slice(input.offset, input.offset + input.limit);
  const { updated_at } = ranking;
  const views = await claimViews(rows.map((r) => r.id), viewerId);
  const activity = new Map(rows.map((r) => [r.id, r]));
  return {
    claims: views.map((claim) => {
      const a = activity.get(claim.id)!;
      return {
        ...claim,
        trending_score: trendingScore(a),
        votes_24h: a.votes24h,
        evidence_24h: a.evidence24h,
        comments_24h: a.comments24h,
      };
    }),
    updated_at,
  };
}

// ---- related ----

interface Candidate {
  id: string;
  created_at: Date;
}

/** Highest score first, then the newer claim, then by id: a stable order. */
function byScore<T extends Candidate>(score: (c: T) => number) {
  return (a: T, b: T) =>
    score(b) - score(a) || b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface RelatedMember extends Candidate {
  shared_tags: string[];
  shared_voters: number;
}

const relevanceOf = (r: RelatedMember) => relatedRelevance({ sharedTags: r.shared_tags.length, sharedVoters: Number(r.shared_voters) });

/**
 * Computes and stores a claim's related set (related_sets / related_claims): the candidates (claims
 * sharing a tag: the newest RELATED_TAG_CANDIDATES; claims recently voted on by up to
 * RELATED_VOTER_SAMPLE of its voters), ranked, the best RELATED_SET_SIZE kept with their voters in
 * common counted exactly. It holds share locks on the claim and the members while it counts: a vote
 * (which locks its claim) waits, so the trigger that keeps the counts afterwards misses none.
 * Returns the members, visible ones only.
 */
export async function computeRelatedSet(source: { id: string; tags: string[] }): Promise<RelatedMember[]> {
  const rows = await readSql<RelatedMember>`
    WITH voters AS (
      SELECT agent_id FROM claim_votes WHERE claim_id = ${source.id}::uuid
      ORDER BY agent_id LIMIT ${RELATED_VOTER_SAMPLE}
    ), co_voted AS (
      SELECT recent.claim_id, count(*)::int AS shared_voters
      FROM voters, LATERAL (
        SELECT v.claim_id FROM claim_votes v
        WHERE v.agent_id = voters.agent_id AND v.claim_id <> ${source.id}::uuid
        ORDER BY v.created_at DESC LIMIT ${RELATED_VOTES_PER_VOTER}
      ) recent
      GROUP BY recent.claim_id
    ), tagged AS (
      SELECT c.id FROM claims c
      WHERE c.tags && ${source.tags}::text[] AND c.id <> ${source.id}::uuid AND ${visibleClaim("c")}
      ORDER BY c.created_at DESC LIMIT ${RELATED_TAG_CANDIDATES}
    ), candidates AS (
      SELECT id FROM tagged UNION SELECT claim_id FROM co_voted
    )
    SELECT c.id::text AS id, c.created_at,
           ARRAY(SELECT t FROM unnest(c.tags) AS t WHERE t = ANY(${source.tags}::text[])) AS shared_tags,
           COALESCE(cv.shared_voters, 0) AS shared_voters
    FROM candidates k
    JOIN claims c ON c.id = k.id AND ${visibleClaim("c")}
    LEFT JOIN co_voted cv ON cv.claim_id = c.id`;
  // Ranked on the sampled counts; the stored counts are exact.
  const chosen = rows.filter((r) => relevanceOf(r) > 0).sort(byScore(relevanceOf)).slice(0, RELATED_SET_SIZE);
  const ids = chosen.map((r) => r.id);
  return sqlTransaction(async (tx) => {
    // Claims in id order (one lock order for every set); the source first would do as well, but not both orders.
    await tx.query(Prisma.sql`
      SELECT c.id FROM claims c WHERE c.id = ANY(${[source.id, ...ids]}::uuid[]) AND ${visibleClaim("c")} ORDER BY c.id FOR SHARE`);
    // The set's row next: two computations of one set take turns here.
    await tx.execute(Prisma.sql`
      INSERT INTO related_sets (claim_id, computed_at, stale) VALUES (${source.id}::uuid, now(), false)
      ON CONFLICT (claim_id) DO UPDATE SET computed_at = now(), stale = false`);
    const counts = await tx.query<{ id: string; n: number }>(Prisma.sql`
      SELECT b.claim_id::text AS id, count(*)::int AS n
      FROM claim_votes a JOIN claim_votes b ON b.agent_id = a.agent_id
      WHERE a.claim_id = ${source.id}::uuid AND b.claim_id = ANY(${ids}::uuid[])
      GROUP BY b.claim_id`);
    const exact = new Map(counts.map((c) => [c.id, Number(c.n)]));
    await tx.execute(Prisma.sql`DELETE FROM related_claims WHERE claim_id = ${source.id}::uuid`);
    const members = chosen.map((r) => ({ ...r, shared_voters: exact.get(r.id) ?? 0 }));
    if (members.length > 0) {
      await tx.execute(Prisma.sql`
        INSERT INTO related_claims (claim_id, related_id, shared_voters)
        SELECT ${source.id}::uuid, m.id, m.n FROM unnest(${ids}::uuid[], ${members.map((m) => m.shared_voters)}::int[]) AS m(id, n)`);
    }
    return members;
  });
}

function markRelatedSet(claimId: string, stale: boolean): Promise<number> {
  return sqlTransaction((tx) => tx.execute(Prisma.sql`UPDATE related_sets SET stale = ${stale} WHERE claim_id = ${claimId}::uuid AND stale <> ${stale}`));
}

/** The stale sets, oldest first, recomputed (the background refresher; tests call it directly). */
export async function refreshStaleRelatedSets(limit: number): Promise<number> {
  const stale = await readSql<{ id: string; tags: string[] | null }>`
    SELECT s.claim_id::text AS id, c.tags FROM related_sets s LEFT JOIN claims c ON c.id = s.claim_id AND ${visibleClaim("c")}
    WHERE s.stale ORDER BY s.computed_at LIMIT ${limit}`;
  for (const s of stale) {
    // A hidden claim's set is not read (its page is a 404 to the public): recomputed when read again.
    if (s.tags === null) await markRelatedSet(s.id, false);
    else await computeRelatedSet({ id: s.id, tags: s.tags });
  }
  return stale.length;
}

/**
 * Computes the sets of claims that have none, newest first, starting below `before` (a position
 * returned by the previous call; null: from the newest). Returns the next position, or null once the
 * oldest claim is passed. The refresher does this when idle, and `npm run related:backfill` at once.
 */
export async function backfillRelatedSets(
  limit: number,
  before: { created_at: Date; id: string } | null,
): Promise<{ computed: number; next: { created_at: Date; id: string } | null }> {
  const after = before ? Prisma.sql`AND (c.created_at, c.id) < (${before.created_at}, ${before.id}::uuid)` : Prisma.empty;
  const rows = await readSql<{ id: string; tags: string[]; created_at: Date; has_set: boolean }>`
    SELECT c.id::text AS id, c.tags, c.created_at, EXISTS (SELECT 1 FROM related_sets s WHERE s.claim_id = c.id) AS has_set
    FROM claims c WHERE ${visibleClaim("c")} ${after}
    ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit}`;
  let computed = 0;
  for (const r of rows) {
    if (r.has_set) continue;
    await computeRelatedSet(r);
    computed += 1;
  }
  const last = rows.at(-1);
  return { computed, next: rows.length === limit && last ? { created_at: last.created_at, id: last.id } : null };
}

/**
 * GET /discover/related/{id}: a read of the claim's related set, computed on its first read. Its
 * scores are exact at every read (voters in common kept by a trigger, tags in common read now); its
 * members are those of the last computation, which a vote on the claim or a change of its tags, or a
 * read of a set older than RELATED_REFRESH_SECONDS, schedules again (the background refresher).
 */
export async function related(input: { claim_id: string; limit: number }, viewerId: string | null): Promise<RelatedClaims> {
  const [source] = isUuid(input.claim_id)
    ? await readSql<{ id: string; tags: string[]; computed_at: Date | null; stale: boolean | null }>`
        SELECT c.id::text AS id, c.tags, s.computed_at, s.stale
        FROM claims c LEFT JOIN related_sets s ON s.claim_id = c.id
        WHERE c.id = ${input.claim_id}::uuid AND ${visibleClaim("c")}`
    : [];
  if (!source) throw notFound("Claim not found");
  let rows: RelatedMember[];
  if (source.computed_at === null) {
    rows = await computeRelatedSet(source);
  } else {
    if (!source.stale && Date.now() - new Date(source.computed_at).getTime() > config().RELATED_REFRESH_SECONDS * 1000) {
      await markRelatedSet(source.id, true);
    }
    rows = await readSql<RelatedMember>`
      SELECT c.id::text AS id, c.created_at, r.shared_voters,
             ARRAY(SELECT t FROM unnest(c.tags) AS t WHERE t = ANY(${source.tags}::text[])) AS shared_tags
      FROM related_claims r JOIN claims c ON c.id = r.related_id AND ${visibleClaim("c")}
      WHERE r.claim_id = ${source.id}::uuid`;
  }
  const top = rows.filter((r) => relevanceOf(r) > 0).sort(byScore(relevanceOf)).slice(0, input.limit);
  const views = await claimViews(top.map((r) => r.id), viewerId);
  const byId = new Map(top.map((r) => [r.id, r]));
  return {
    source_claim_id: source.id,
    related: views.map((claim) => {
      const r = byId.get(claim.id)!;
      return { ...claim, relevance_score: relevanceOf(r), shared_tags: r.shared_tags };
    }),
  };
}

// ---- recommended ----

/** The most claims a call may ask for (docs/api.md#discovery: limit 1–50). */
const RECOMMENDATION_MAX_LIMIT = 50;
/** Candidates kept per caller beyond the largest page, for claims the caller votes on meanwhile. */
const RECOMMENDATION_SLACK = 10;

/** A caller's best candidates when they were ranked, with the expertise tags each one matches. */
interface Shortlist {
  based_on_tags: string[];
  candidates: { id: string; matching: string[] }[];
}

/** Ranks the caller's candidates: the two newest-first lists over unvoted claims, scored, best first. */
async function computeShortlist(agentId: string, now: Date): Promise<Shortlist> {
  const basedOnTags = (await expertiseOf(agentId)).map((e) => e.tag);
  // Newest first among claims the caller neither wrote nor voted on; the anti-join probes the
  // (claim_id, agent_id) unique index, so each candidate costs one index look-up.
  // Each row carries only the caller's tags among the claim's (a claim's own tags can be many) and its
  // creation time as epoch milliseconds: parsing 600 rows of full tag arrays and timestamps was most
  // of a call's CPU.
  const unvoted = (tagFilter: Prisma.Sql) => Prisma.sql`
    SELECT c.id::text AS id, ARRAY(SELECT t FROM unnest(c.tags) AS t WHERE t = ANY(${basedOnTags}::text[])) AS tags,
           (extract(epoch FROM c.created_at) * 1000)::float8 AS created_ms, c.evidence_count FROM claims c
    WHERE c.author_id <> ${agentId}::uuid AND ${visibleClaim("c")} ${tagFilter}
      AND NOT EXISTS (SELECT 1 FROM claim_votes v WHERE v.claim_id = c.id AND v.agent_id = ${agentId}::uuid)
    ORDER BY c.created_at DESC LIMIT ${RECOMMENDATION_CANDIDATES}`;
  const inTags = basedOnTags.length
    ? Prisma.sql`(${unvoted(Prisma.sql`AND c.tags && ${basedOnTags}::text[]`)}) UNION `
    : Prisma.empty;
  const rows = await readSql<{ id: string; tags: string[]; created_ms: number; evidence_count: number }>`
    ${inTags}(${unvoted(Prisma.empty)})`;
  const scored = rows.map((r) => {
    const matching = matchingTags(r.tags, basedOnTags);
    const created_at = new Date(r.created_ms);
    const score = recommendationScore({ matchingTagCount: matching.length, createdAt: created_at, evidenceCount: Number(r.evidence_count), now });
    return { id: r.id, created_at, matching, score };
  });
  const best = scored.sort(byScore((r) => r.score)).slice(0, RECOMMENDATION_MAX_LIMIT + RECOMMENDATION_SLACK);
  return { based_on_tags: basedOnTags, candidates: best.map((r) => ({ id: r.id, matching: r.matching })) };
}

/**
 * GET /discover/recommended. Ranking the candidates (the caller's expertise, two lists of 300 claims)
 * was 12–17 ms of CPU per call; the ranked shortlist is kept per caller for RECOMMENDED_CACHE_SECONDS
 * (shared by every instance through the cache, like trending). Every call reads the shortlisted claims
 * fresh and scores them at that moment with the same rule, so every returned score is exact: a claim
 * the caller has voted on since, or one hidden since, is left out at once; a claim newer than the
 * shortlist can take up to RECOMMENDED_CACHE_SECONDS to appear (docs/api.md#discovery lets the candidate set
 * be bounded).
 */
export async function recommended(
  agentId: string,
  input: { limit: number },
  { now = new Date(), store = cache() }: RankingOptions = {},
): Promise<RecommendedClaims> {
  const ttl = config().RECOMMENDED_CACHE_SECONDS;
  const shortlist =
    ttl > 0 ? await store.getOrCompute(`recommended:v1:${agentId}`, ttl, () => computeShortlist(agentId, now)) : await computeShortlist(agentId, now);
  const matchingOf = new Map(shortlist.candidates.map((c) => [c.id, c.matching]));
  const fresh = async (ids: string[]) => (await claimViews(ids, agentId)).filter((claim) => claim.user_vote === null);
  const ids = shortlist.candidates.map((c) => c.id);
  const window = input.limit + RECOMMENDATION_SLACK;
  let views = await fresh(ids.slice(0, window));
  // The caller voted on more of them than the slack covers: the rest of the shortlist too.
  if (views.length < input.limit && window < ids.length) views = [...views, ...(await fresh(ids.slice(window)))];
  const scored = views.map((claim) => {
    const matching = matchingOf.get(claim.id)!;
    const created_at = new Date(claim.created_at);
    const score = recommendationScore({ matchingTagCount: matching.length, createdAt: created_at, evidenceCount: claim.evidence_count, now });
    return { id: claim.id, created_at, claim, matching, score };
  });
  return {
    claims: scored
      .sort(byScore((r) => r.score))
      .slice(0, input.limit)
      .map((r) => ({ ...r.claim, recommendation_score: r.score, matching_tags: r.matching })),
    based_on_tags: shortlist.based_on_tags,
  };
}

// ---- topics ----

/** Midnight UTC at the start of the day containing `d`. */
function utcMidnight(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/**
 * Claims per tag created in the last 7 days, exactly: whole UTC days from tag_daily_counts, plus the
 * part of the oldest day that falls inside the window, counted from that day's claims only.
 */
async function recentActivity(tags: string[], now: Date): Promise<Map<string, number>> {
  const since = new Date(now.getTime() - TOPIC_RECENT_DAYS * DAY_MS);
  const firstWholeDay = new Date(utcMidnight(since).getTime() + DAY_MS);
  const rows = await readSql<{ tag: string; n: number }>`
    SELECT tag, sum(n)::int AS n FROM (
      SELECT tag, claim_count AS n FROM tag_daily_counts
      WHERE tag = ANY(${tags}::text[]) AND day >= ${firstWholeDay.toISOString().slice(0, 10)}::date
      UNION ALL
      SELECT t.tag, count(*) FROM claims c, unnest(c.tags) AS t(tag)
      WHERE c.created_at >= ${since} AND c.created_at < ${firstWholeDay} AND t.tag = ANY(${tags}::text[]) AND ${visibleClaim("c")}
      GROUP BY t.tag
    ) recent
    GROUP BY tag`;
  return new Map(rows.map((r) => [r.tag, Number(r.n)]));
}

export async function topics(input: { limit: number; offset: number }, now = new Date()): Promise<Topics> {
  const [page, [{ total }]] = await Promise.all([
    readSql<{ tag: string; claim_count: number }>`
      SELECT tag, claim_count FROM tag_stats WHERE claim_count > 0
      ORDER BY claim_count DESC, tag ASC LIMIT ${input.limit} OFFSET ${input.offset}`,
    readSql<{ total: number }>`SELECT count(*)::int AS total FROM tag_stats WHERE claim_count > 0`,
  ]);
  const recent = page.length ? await recentActivity(page.map((t) => t.tag), now) : new Map<string, number>();
  return {
    topics: page.map((t) => ({ tag: t.tag, claim_count: t.claim_count, recent_activity: recent.get(t.tag) ?? 0 })),
    total,
  };
}

const TOPIC_ORDER: Record<TopicSort, Prisma.Sql> = {
  recent: Prisma.sql`c.created_at DESC, c.id DESC`,
  gradient: Prisma.sql`c.gradient DESC, c.id DESC`,
  votes: Prisma.sql`c.vote_count DESC, c.id DESC`,
};

export async function topicClaims(
  input: { tag: string; sort: TopicSort; limit: number; offset: number },
  viewerId: string | null,
): Promise<TopicClaims> {
  // Tags are stored trimmed and lower-cased; a tag no claim has simply lists nothing.
  const tag = input.tag.trim().toLowerCase();
  const [rows, [stat]] = await Promise.all([
    readSql<{ id: string }>`
      SELECT c.id::text AS id FROM claims c WHERE c.tags @> ARRAY[${tag}]::text[] AND ${visibleClaim("c")}
      ORDER BY ${TOPIC_ORDER[input.sort]} LIMIT ${input.limit} OFFSET ${input.offset}`,
    readSql<{ claim_count: number }>`SELECT claim_count FROM tag_stats WHERE tag = ${tag}`,
  ]);
  return { tag, claims: await claimViews(rows.map((r) => r.id), viewerId), total: stat?.claim_count ?? 0 };
}
