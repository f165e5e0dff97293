// Discovery (CONTRACT §7): trending, related, recommended, topics. None of these reads every claim or
// every vote; each works on a bounded candidate set:
//   - trending:    activity of the last 24 h, through the created_at indexes of votes/evidence/comments,
//                  the ranking shared for TRENDING_CACHE_SECONDS (an aggregate of ~50k rows costs ~140 ms);
//   - related:     claims sharing a tag (GIN tag index, newest RELATED_TAG_CANDIDATES) and claims
//                  recently voted on by up to RELATED_VOTER_SAMPLE of the source claim's voters;
//   - recommended: the newest RECOMMENDATION_CANDIDATES unvoted claims of others in the caller's
//                  expertise tags, and as many of the newest unvoted claims of others overall;
//   - topics:      the tag_stats / tag_daily_counts tables kept by triggers on claims;
//   - topic claims: the GIN tag index, its total from tag_stats.
// The scoring rules live in server/domain (trending, relevance); claims are serialised by claimViews.
import { readSql } from "../db/client.ts";
import { cache, type Cache } from "../cache/index.ts";
import { config } from "../config.ts";
import { Prisma } from "../db/generated/client.ts";
import { notFound } from "../api/errors.ts";
import { isUuid } from "../api/schemas/common.ts";
import type { RecommendedClaims, RelatedClaims, TopicClaims, Topics, TopicSort, Trending } from "../api/schemas/discovery.ts";
import { TRENDING_WEIGHTS, trendingScore, trendingWindowStart } from "../domain/trending.ts";
import { matchingTags, recommendationScore, relatedRelevance } from "../domain/relevance.ts";
import { claimViews } from "./claim-views.ts";
import { expertiseOf } from "./profiles.ts";

export const RELATED_TAG_CANDIDATES = 500;
export const RELATED_VOTER_SAMPLE = 100;
export const RELATED_VOTES_PER_VOTER = 100;
export const RECOMMENDATION_CANDIDATES = 300;
export const TOPIC_RECENT_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

// ---- trending ----

interface TrendingRanking {
  rows: { id: string; votes: number; evidence: number; comments: number }[];
  updated_at: string;
}

/** One pass over the window's rows (each source through its created_at index), one aggregate. */
async function rankTrending(input: { limit: number; offset: number }, now: Date): Promise<TrendingRanking> {
  const since = trendingWindowStart(now);
  const { votes: wv, evidence: we, comments: wc } = TRENDING_WEIGHTS;
  const rows = await readSql<TrendingRanking["rows"][number]>`
    SELECT claim_id::text AS id,
           count(*) FILTER (WHERE kind = 'vote')::int AS votes,
           count(*) FILTER (WHERE kind = 'evidence')::int AS evidence,
           count(*) FILTER (WHERE kind = 'comment')::int AS comments
    FROM (
      SELECT claim_id, 'vote' AS kind FROM claim_votes WHERE created_at >= ${since}
      UNION ALL
      SELECT claim_id, 'evidence' FROM evidence WHERE created_at >= ${since}
      UNION ALL
      SELECT claim_id, 'comment' FROM comments WHERE created_at >= ${since} AND NOT is_deleted
    ) activity
    GROUP BY claim_id
    ORDER BY sum(CASE kind WHEN 'vote' THEN ${wv}::int WHEN 'evidence' THEN ${we}::int ELSE ${wc}::int END) DESC, claim_id
    LIMIT ${input.limit} OFFSET ${input.offset}`;
  return { rows, updated_at: now.toISOString() };
}

/**
 * The ranking is computed at most once per TRENDING_CACHE_SECONDS per page (shared by every instance
 * through the cache, like platform statistics; `updated_at` says when); the claims and the caller's
 * fields are read fresh on every call.
 */
export async function trending(
  input: { limit: number; offset: number },
  viewerId: string | null,
  now = new Date(),
  store: Cache = cache(),
): Promise<Trending> {
  const ttl = config().TRENDING_CACHE_SECONDS;
  const { rows, updated_at } =
    ttl > 0
      ? await store.getOrCompute(`trending:v1:${input.limit}:${input.offset}`, ttl, () => rankTrending(input, now))
      : await rankTrending(input, now);
  const views = await claimViews(rows.map((r) => r.id), viewerId);
  const activity = new Map(rows.map((r) => [r.id, { votes24h: r.votes, evidence24h: r.evidence, comments24h: r.comments }]));
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

export async function related(input: { claim_id: string; limit: number }, viewerId: string | null): Promise<RelatedClaims> {
  const [source] = isUuid(input.claim_id)
    ? await readSql<{ id: string; tags: string[] }>`SELECT id::text AS id, tags FROM claims WHERE id = ${input.claim_id}::uuid`
    : [];
  if (!source) throw notFound("Claim not found");
  const rows = await readSql<Candidate & { shared_tags: string[]; shared_voters: number }>`
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
      WHERE c.tags && ${source.tags}::text[] AND c.id <> ${source.id}::uuid
      ORDER BY c.created_at DESC LIMIT ${RELATED_TAG_CANDIDATES}
    ), candidates AS (
      SELECT id FROM tagged UNION SELECT claim_id FROM co_voted
    )
    SELECT c.id::text AS id, c.created_at,
           ARRAY(SELECT t FROM unnest(c.tags) AS t WHERE t = ANY(${source.tags}::text[])) AS shared_tags,
           COALESCE(cv.shared_voters, 0) AS shared_voters
    FROM candidates k
    JOIN claims c ON c.id = k.id
    LEFT JOIN co_voted cv ON cv.claim_id = c.id`;
  const relevance = (r: (typeof rows)[number]) =>
    relatedRelevance({ sharedTags: r.shared_tags.length, sharedVoters: Number(r.shared_voters) });
  const top = rows.filter((r) => relevance(r) > 0).sort(byScore(relevance)).slice(0, input.limit);
  const views = await claimViews(top.map((r) => r.id), viewerId);
  const byId = new Map(top.map((r) => [r.id, r]));
  return {
    source_claim_id: source.id,
    related: views.map((claim) => {
      const r = byId.get(claim.id)!;
      return { ...claim, relevance_score: relevance(r), shared_tags: r.shared_tags };
    }),
  };
}

// ---- recommended ----

export async function recommended(agentId: string, input: { limit: number }, now = new Date()): Promise<RecommendedClaims> {
  const basedOnTags = (await expertiseOf(agentId)).map((e) => e.tag);
  // Newest first among claims the caller neither wrote nor voted on; the anti-join probes the
  // (claim_id, agent_id) unique index, so each candidate costs one index look-up.
  const unvoted = (tagFilter: Prisma.Sql) => Prisma.sql`
    SELECT c.id::text AS id, c.tags, c.created_at, c.evidence_count FROM claims c
    WHERE c.author_id <> ${agentId}::uuid ${tagFilter}
      AND NOT EXISTS (SELECT 1 FROM claim_votes v WHERE v.claim_id = c.id AND v.agent_id = ${agentId}::uuid)
    ORDER BY c.created_at DESC LIMIT ${RECOMMENDATION_CANDIDATES}`;
  const inTags = basedOnTags.length
    ? Prisma.sql`(${unvoted(Prisma.sql`AND c.tags && ${basedOnTags}::text[]`)}) UNION `
    : Prisma.empty;
  const rows = await readSql<Candidate & { tags: string[]; evidence_count: number }>`
    ${inTags}(${unvoted(Prisma.empty)})`;
  const scored = rows.map((r) => {
    const matching = matchingTags(r.tags, basedOnTags);
    const score = recommendationScore({
      matchingTagCount: matching.length,
      createdAt: r.created_at,
      evidenceCount: Number(r.evidence_count),
      now,
    });
    return { ...r, matching, score };
  });
  const top = scored.sort(byScore((r) => r.score)).slice(0, input.limit);
  const views = await claimViews(top.map((r) => r.id), agentId);
  const byId = new Map(top.map((r) => [r.id, r]));
  return {
    claims: views.map((claim) => {
      const r = byId.get(claim.id)!;
      return { ...claim, recommendation_score: r.score, matching_tags: r.matching };
    }),
    based_on_tags: basedOnTags,
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
      WHERE c.created_at >= ${since} AND c.created_at < ${firstWholeDay} AND t.tag = ANY(${tags}::text[])
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
      SELECT c.id::text AS id FROM claims c WHERE c.tags @> ARRAY[${tag}]::text[]
      ORDER BY ${TOPIC_ORDER[input.sort]} LIMIT ${input.limit} OFFSET ${input.offset}`,
    readSql<{ claim_count: number }>`SELECT claim_count FROM tag_stats WHERE tag = ${tag}`,
  ]);
  return { tag, claims: await claimViews(rows.map((r) => r.id), viewerId), total: stat?.claim_count ?? 0 };
}
