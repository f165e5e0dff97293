// Claims: creation, the searchable list, the detail view, and the caller's bookmark/follow lists.
import { db, readSql, readSqlWithin, type SqlRead, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { badRequest, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { consensusFilter, type ClaimDetail, type ClaimList, type CreateClaimInput, type ListClaimsInput } from "../contract/claims.ts";
import { parseTagQuery } from "../domain/tags.ts";
import { claimAfterWrite, claimView, claimViews, type Claim } from "./claim-views.ts";
import { mayReveal, visibleClaim, VISIBLE_CLAIM_WHERE } from "./visibility.ts";
import { notifyNewClaim } from "./social-follows.ts";
import { claimWithStatement, duplicateStatement, isDuplicateStatement, TEXT_SEARCH_TIMEOUT_MS, TRIGRAM_MATCH, TRIGRAM_RANK } from "./similar-claims.ts";
import { searchPrefix } from "../domain/near-words.ts";
import { notCountedReasons } from "./standing.ts";
import { checkStateFilter, setCheckWithin } from "./check-views.ts";


type Tx = Prisma.TransactionClient;

/** Raw SQL inside a Prisma transaction, as the services written over SqlTx take it. */
const sqlOf = (tx: Tx): SqlTx => ({
  query: <T>(query: Prisma.Sql) => tx.$queryRaw<T[]>(query),
  execute: (query: Prisma.Sql) => tx.$executeRaw(query),
});

export const CLAIM_NOT_FOUND = "Claim not found";
/** The most recent points of a claim's gradient history that the detail view returns. */
export const GRADIENT_HISTORY_LIMIT = 1000;
/** Kept by triggers on claims (migration 'vote_outcomes'), whatever path inserts or deletes one. */
const CLAIMS_COUNTER = "claims";
export { MAX_SEARCH_TERMS } from "../contract/claims.ts";
/**
 * A search counts and ranks at most this many matches. One that matches more (a common word, many OR
 * terms) reports `total` = SEARCH_MATCH_CAP and ranks its SEARCH_MATCH_CAP newest matches; pages past
 * it are empty. Below the cap, total and ranking are exact.
 */
export const SEARCH_MATCH_CAP = 1000;
/**
 * The typo fallback counts and ranks at most this many matches, the first the trigram index gives (not
 * the newest): each costs a trigram comparison with its whole statement (docs/features/arguments.md#what-a-search-reads).
 */
export const TYPO_MATCH_CAP = 200;

/** 404 unless the claim exists and is visible (a malformed id is an unknown one). */
export async function assertClaimExists(claimId: string, tx: Tx = db()): Promise<void> {
  const found = isUuid(claimId) ? await tx.claim.findUnique({ where: { id: claimId, ...VISIBLE_CLAIM_WHERE }, select: { id: true } }) : null;
  if (!found) throw notFound(CLAIM_NOT_FOUND);
}

export async function createClaim(authorId: string, input: CreateClaimInput): Promise<Claim> {
  // Ids are case-insensitive: the same parent named twice is linked once.
  const parentIds = [...new Set(input.parent_ids.map((id) => id.toLowerCase()))];
  const id = await refusingDuplicates(input.statement, () =>
    db().$transaction(async (tx) => {
      await assertParentsExist(tx, parentIds);
      const claimId = await insertClaim(tx, { authorId, input, parentIds });
      // A check given with the claim is set in the same transaction: refused, no claim is written.
      if (input.check) await setCheckWithin(sqlOf(tx), { claimId, viewerId: authorId, terms: input.check });
      return claimId;
    }),
  );
  const created = await claimAfterWrite({ claimId: id, writerId: authorId });
  if (!created) throw notFound(CLAIM_NOT_FOUND); // deleted by its author since
  return created;
}

/** Inserts a claim row (and its parent links) in the caller's transaction; returns its id. */
export async function insertClaim(
  tx: Tx,
  {
    authorId,
    input,
    parentIds = [],
  }: {
    authorId: string;
    input: Pick<CreateClaimInput, "statement" | "complexity_tier" | "tags">;
    parentIds?: string[];
  },
): Promise<string> {
  const claim = await tx.claim.create({
    data: {
      statement: input.statement,
      complexityTier: input.complexity_tier,
      tags: input.tags,
      authorId,
      parents: { create: parentIds.map((parentId, position) => ({ parentId, position })) },
      // Authors follow their own claims from the start, so they hear when others vote or argue
      // (they can unfollow like any follower).
      follows: { create: { agentId: authorId } },
    },
    select: { id: true },
  });
  await notifyNewClaim(tx, { claimId: claim.id, authorId, tags: input.tags });
  return claim.id;
}

/**
 * Runs a write that inserts a claim with `statement`; when the unique key of folded statements refuses
 * it, answers 409 naming the claim that has the statement (docs/features/arguments.md#similar-claims).
 */
export async function refusingDuplicates<T>(statement: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateStatement(err)) throw err;
    const existing = await claimWithStatement(statement);
    if (existing) throw duplicateStatement(existing);
    throw err;
  }
}

async function assertParentsExist(tx: Tx, parentIds: string[]): Promise<void> {
  if (parentIds.length === 0) return;
  const wellFormed = parentIds.filter(isUuid);
  const found = wellFormed.length
    ? await tx.claim.findMany({ where: { id: { in: wellFormed }, ...VISIBLE_CLAIM_WHERE }, select: { id: true } })
    : [];
  const known = new Set(found.map((c) => c.id));
  const unknown = parentIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw badRequest(`parent_ids: claim ${unknown} does not exist`);
}

// ---- the list ----

const SORT_COLUMNS = {
  created_at: Prisma.raw("created_at"),
  gradient: Prisma.raw("gradient"),
  vote_count: Prisma.raw("vote_count"),
  relevance: Prisma.raw("rank"),
  bridging_score: Prisma.raw("bridging_score"),
} as const;

/** Claims, joined with their bridging row when a filter or the sort needs it (one row per claim). */
const CLAIMS = Prisma.sql`claims c`;
const CLAIMS_WITH_BRIDGING = Prisma.sql`claims c JOIN claim_bridging cb ON cb.claim_id = c.id`;

/**
 * GET /claims. Two query shapes, both served by indexes (EXPLAIN ANALYZE on 100k claims, PostgreSQL 15):
 * - without `q`: the page walks the index of the sort column — (created_at, id), (gradient, id),
 *   (vote_count, id), or (complexity_tier, created_at, id) when filtering by complexity — forwards or
 *   backwards, as an index-only scan (≈0.1 ms); a gradient range becomes the index condition of
 *   (gradient, id); tags are filtered on the way when they are common, or read through the GIN index
 *   and sorted when the planner's element statistics say they are rare. `total` is the maintained
 *   counter when nothing filters, else a count over the same conditions (bitmap scan on the GIN index
 *   for tags, index-only scans for complexity and gradient ranges).
 * - with `q`: the full-text matches are found once through the GIN index on search_vector, then
 *   counted and sorted from that set in the same statement. Matching first keeps a rare word from
 *   turning into a walk over the whole created_at index (≈90 ms when the planner guessed wrong, 0.3 ms
 *   this way). The cost is proportional to the number of matches, so it is bounded: at most
 *   SEARCH_READ_ALL_LIMIT are read, a broader search finds its SEARCH_MATCH_CAP newest matches on the
 *   created_at index instead, and only those are ranked (`searchMatches`; `q` holds at most
 *   MAX_SEARCH_TERMS terms; the statement timeout is the last resort).
 * Ties are broken by id in the sort direction, so pages never overlap or skip.
 */
export async function listClaims(input: ListClaimsInput, viewerId: string | null): Promise<ClaimList> {
  const tags = parseTagQuery(input.tags);

  const filters: Prisma.Sql[] = [];
  if (tags.length) filters.push(Prisma.sql`c.tags && ${tags}::text[]`);
  if (input.complexity) filters.push(Prisma.sql`c.complexity_tier = ${input.complexity}::"ComplexityTier"`);
  if (input.min_gradient !== undefined) filters.push(Prisma.sql`c.gradient >= ${input.min_gradient}`);
  if (input.max_gradient !== undefined) filters.push(Prisma.sql`c.gradient <= ${input.max_gradient}`);
  if (input.bridging_status) filters.push(Prisma.sql`cb.status = ${input.bridging_status}::"BridgingStatus"`);
  const consensus = consensusFilter(input.consensus);
  // (consensus_status, created_at, id) serves this filter in the default order (migration 'consensus').
  if (consensus.length) filters.push(Prisma.sql`c.consensus_status = ANY(${consensus}::text[]::"ConsensusStatus"[])`);
  if (input.check) filters.push(checkStateFilter(input.check));

  const sortBy = input.sort_by ?? (input.q ? "relevance" : "created_at");
  // Relevance is always most relevant first; sort_order applies to the sort_by columns.
  const direction = Prisma.raw(sortBy === "relevance" || input.sort_order === "desc" ? "DESC" : "ASC");
  const column = SORT_COLUMNS[sortBy];
  // Unscored claims (score NULL) come last in both directions (two indexes, migration 'claim_bridging').
  const nulls = sortBy === "bridging_score" ? Prisma.raw(" NULLS LAST") : Prisma.empty;
  const page = Prisma.sql`LIMIT ${input.limit} OFFSET ${input.offset}`;
  const from = input.bridging_status || sortBy === "bridging_score" ? CLAIMS_WITH_BRIDGING : CLAIMS;
  // The bridging row's own copies of the sort keys, so that its indexes give the order: (score, id)
  // for the bridging sort, (status, created_at, id) for the status filter in the default order.
  const order =
    sortBy === "bridging_score"
      ? Prisma.sql`cb.score ${direction} NULLS LAST, cb.claim_id ${direction}`
      : sortBy === "created_at" && input.bridging_status
        ? Prisma.sql`cb.created_at ${direction}, cb.claim_id ${direction}`
        : Prisma.sql`c.${column} ${direction}, c.id ${direction}`;

  let ids: string[];
  let total: number;
  if (input.q) {
    const tsquery = Prisma.sql`WITH query AS (SELECT websearch_to_tsquery('english', ${input.q}) AS q)`;
    const fullText = { match: Prisma.sql`c.search_vector @@ query.q`, rank: Prisma.sql`ts_rank(c.search_vector, query.q)` };
    const listing = { from, filters, column, direction, nulls, page };
    let found = await searchMatches({ read: (q) => readSql(q), prelude: tsquery, search: fullText, ...listing });
    // Nothing by full text: a typo ("coffe") still finds its claim by trigram word similarity, on the
    // text's first SEARCH_TEXT_PREFIX_CHARS characters, through the trigram index only and under the
    // text searches' own timeout: cut off, nothing is found (docs/features/arguments.md#what-a-search-reads).
    if (found.total === 0) {
      const typo = searchPrefix(input.q);
      const trigram = { match: TRIGRAM_MATCH(typo), rank: TRIGRAM_RANK(typo) };
      const prelude = Prisma.sql`WITH query AS (SELECT 1)`;
      found =
        (await readSqlWithin(TEXT_SEARCH_TIMEOUT_MS, (read) =>
          searchMatches({ read, prelude, search: trigram, ...listing, onlyFirst: TYPO_MATCH_CAP }),
        )) ?? { ids: [], total: 0 };
    }
    ids = found.ids;
    total = found.total;
  } else {
    // The maintained counter counts visible claims, like the list.
    const where = Prisma.sql`WHERE ${Prisma.join([visibleClaim("c"), ...filters], " AND ")}`;
    const [rows, count] = await Promise.all([
      readSql<{ id: string }>`
        SELECT c.id::text AS id FROM ${from} ${where} ORDER BY ${order} ${page}`,
      filters.length ? countClaims(from, where) : claimsCounter(),
    ]);
    ids = rows.map((r) => r.id);
    total = count;
  }
  return { claims: await claimViews(ids, viewerId), total, limit: input.limit, offset: input.offset };
}

/**
 * How many matches a search reads through the index that serves `match` before it takes the other
 * road: past this many, its newest SEARCH_MATCH_CAP are found by walking the created_at index instead.
 * Reading every match costs about 3 µs each (the heap pages behind the index); the walk costs about
 * 0.6 µs per claim passed, 1 / selectivity claims per match: on 100k claims the two meet near 5,000
 * matches (docs/benchmarks/2026-11-26-before-after.md).
 */
export const SEARCH_READ_ALL_LIMIT = 5 * SEARCH_MATCH_CAP;

/**
 * The matches of a search (`match`, ranked by `rank`), in one statement: up to SEARCH_READ_ALL_LIMIT
 * matches are read once through the index that serves `match` and the newest SEARCH_MATCH_CAP of them
 * kept; a broader search (more than that) takes its newest SEARCH_MATCH_CAP from the created_at index
 * instead. Which branch runs is decided inside the statement (a one-time filter), so the other costs
 * nothing. Then counted and sorted from that set. `read`: readSql, or a bounded read (the typo fallback).
 * With `onlyFirst`, the first that many matches the index gives are the set, and no other road is taken
 * (the typo fallback: each match costs a trigram comparison, twice).
 */
async function searchMatches({
  read,
  prelude,
  search,
  from,
  filters,
  column,
  direction,
  nulls,
  page,
  onlyFirst,
}: {
  read: SqlRead;
  prelude: Prisma.Sql;
  search: { match: Prisma.Sql; rank: Prisma.Sql };
  /** The list's table(s), its filters, sort column, direction, NULLS placement and LIMIT/OFFSET. */
  from: Prisma.Sql;
  filters: Prisma.Sql[];
  column: Prisma.Sql;
  direction: Prisma.Sql;
  nulls: Prisma.Sql;
  page: Prisma.Sql;
  onlyFirst?: number;
}): Promise<{ ids: string[]; total: number }> {
  const where = Prisma.join([search.match, visibleClaim("c"), ...filters], " AND ");
  const columns = Prisma.sql`c.id, c.created_at, c.gradient, c.vote_count,
    ${from === CLAIMS ? Prisma.sql`NULL::float8` : Prisma.sql`cb.score`} AS bridging_score, ${search.rank} AS rank`;
  const newest = Prisma.sql`ORDER BY created_at DESC, id DESC LIMIT ${SEARCH_MATCH_CAP}`;
  const matches =
    onlyFirst !== undefined
      ? Prisma.sql`matches AS MATERIALIZED (SELECT ${columns} FROM ${from}, query WHERE ${where} LIMIT ${onlyFirst})`
      : Prisma.sql`
    found AS MATERIALIZED (SELECT ${columns} FROM ${from}, query WHERE ${where} LIMIT ${SEARCH_READ_ALL_LIMIT + 1}),
    broad AS MATERIALIZED (SELECT count(*) > ${SEARCH_READ_ALL_LIMIT} AS yes FROM found),
    matches AS MATERIALIZED (
      (SELECT * FROM found WHERE NOT (SELECT yes FROM broad) ${newest})
      UNION ALL
      (SELECT ${columns} FROM ${from}, query WHERE ${where} AND (SELECT yes FROM broad)
       ORDER BY c.created_at DESC, c.id DESC LIMIT ${SEARCH_MATCH_CAP})
    )`;
  const [row] = await read<{ total: number; ids: string[] }>(Prisma.sql`
    ${prelude},
    ${matches}
    SELECT (SELECT count(*)::int FROM matches) AS total,
           ARRAY(SELECT m.id::text FROM matches m ORDER BY m.${column} ${direction}${nulls}, m.id ${direction} ${page}) AS ids`);
  return { ids: row.ids, total: Number(row.total) };
}

async function countClaims(from: Prisma.Sql, where: Prisma.Sql): Promise<number> {
  const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} ${where}`;
  return row.n;
}

/** The maintained number of visible claims (never a count(*) over the table). */
export async function claimsCounter(): Promise<number> {
  const [row] = await readSql<{ n: number }>(Prisma.sql`SELECT value::float8 AS n FROM platform_counters WHERE name = ${CLAIMS_COUNTER}`, { prepared: true });
  return row?.n ?? 0;
}

// ---- one claim ----

export async function getClaimDetail({ claimId, viewerId }: { claimId: string; viewerId: string | null }): Promise<ClaimDetail> {
  const claim = isUuid(claimId) ? await claimView({ claimId, viewerId, includeHidden: true }) : null;
  // Hidden: 404 to everyone but its author and moderators (docs/features/moderation.md).
  if (!claim || (claim.moderation && !(await mayReveal({ viewerId, authorId: claim.author.id })))) throw notFound(CLAIM_NOT_FOUND);
  const [recent, parents, not_counted_reasons] = await Promise.all([
    readSql<{ gradient: number; vote_count: number; recorded_at: Date }>(Prisma.sql`
      SELECT gradient, vote_count, recorded_at FROM gradient_history
      WHERE claim_id = ${claim.id}::uuid ORDER BY id DESC LIMIT ${GRADIENT_HISTORY_LIMIT}`, { prepared: true }),
    claimViews(claim.parent_ids, viewerId),
    notCountedReasons({ claimId: claim.id, people: claim.consensus.not_counted.people }),
  ]);
  const gradient_history = recent.reverse().map((p) => ({
    gradient: p.gradient,
    vote_count: p.vote_count,
    recorded_at: p.recorded_at.toISOString(),
  }));
  return { ...claim, gradient_history, parent_claims: parents, not_counted_reasons };
}

// ---- the caller's lists ----

export interface Page {
  limit: number;
  offset: number;
}

/** The claims that name this one as a parent (its sub-claims), newest first. */
export async function listChildClaims({ claimId, viewerId, page }: { claimId: string; viewerId: string | null; page: Page }): Promise<ClaimList> {
  // Driver reads (rule 1 of server/db/client.ts): sub-claims are on every claim page's render.
  if (!isUuid(claimId)) throw notFound(CLAIM_NOT_FOUND);
  const children = Prisma.sql`claim_parents p JOIN claims c ON c.id = p.claim_id WHERE p.parent_id = ${claimId}::uuid AND ${visibleClaim("c")}`;
  const [rows, [count]] = await Promise.all([
    readSql<{ id: string }>`SELECT p.claim_id::text AS id FROM ${children} ORDER BY c.created_at DESC, p.claim_id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    // No row when the claim is unknown or hidden; else how many sub-claims it has (one statement for both).
    readSql<{ total: number }>`
      SELECT (SELECT count(*)::int FROM ${children}) AS total FROM claims pc
      WHERE pc.id = ${claimId}::uuid AND ${visibleClaim("pc")}`,
  ]);
  if (!count) throw notFound(CLAIM_NOT_FOUND);
  return { claims: await claimViews(rows.map((r) => r.id), viewerId), total: count.total, ...page };
}

/** The caller's bookmarked claims, newest bookmark first. */
export async function listBookmarkedClaims(agentId: string, page: Page): Promise<ClaimList> {
  const [rows, total] = await Promise.all([
    db().bookmark.findMany({
      where: { agentId, claim: VISIBLE_CLAIM_WHERE },
      orderBy: [{ createdAt: "desc" }, { claimId: "desc" }],
      skip: page.offset,
      take: page.limit,
      select: { claimId: true },
    }),
    db().bookmark.count({ where: { agentId, claim: VISIBLE_CLAIM_WHERE } }),
  ]);
  return { claims: await claimViews(rows.map((r) => r.claimId), agentId), total, ...page };
}

/** The claims the caller follows, newest follow first. */
export async function listFollowedClaims(agentId: string, page: Page): Promise<ClaimList> {
  const [rows, total] = await Promise.all([
    db().follow.findMany({
      where: { agentId, claim: VISIBLE_CLAIM_WHERE },
      orderBy: [{ createdAt: "desc" }, { claimId: "desc" }],
      skip: page.offset,
      take: page.limit,
      select: { claimId: true },
    }),
    db().follow.count({ where: { agentId, claim: VISIBLE_CLAIM_WHERE } }),
  ]);
  return { claims: await claimViews(rows.map((r) => r.claimId), agentId), total, ...page };
}
