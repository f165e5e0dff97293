// Similar claims and duplicates (docs/features/arguments.md#similar-claims): statements near a text by
// trigram similarity (pg_trgm, in the public schema on PostgreSQL and PGlite alike) and full-text rank
// together; the claim a duplicate statement names; the trigram fallback of the search.
import { Prisma } from "../db/generated/client.ts";
import { readSql, readSqlWithin, type SqlRead } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { DUPLICATE_STATEMENT, type SimilarClaims, type SimilarClaimsInput } from "../contract/claims.ts";
import { claimViews } from "./claim-views.ts";
import { visibleClaim } from "./visibility.ts";
import { nearWordsQueries, searchPrefix } from "../domain/near-words.ts";

/** Candidates ranked per request at most: a text made of very common words matches many statements. */
const MAX_CANDIDATES = 1000;
/**
 * Candidates of the trigram tier at most: each is compared with the whole statement to be let through
 * the index (the later score reads only its beginning).
 */
const MAX_TRIGRAM_CANDIDATES = 200;

/**
 * The statement timeout of the text searches' reads (similar claims, the search's typo fallback), far below
 * DATABASE_STATEMENT_TIMEOUT_MS: past it the search answers what it found — nothing — instead of a 503,
 * and the connection is free again (docs/features/arguments.md#what-a-search-reads).
 */
export const TEXT_SEARCH_TIMEOUT_MS = 300;

/**
 * GET /claims/similar, on the text's first SEARCH_TEXT_PREFIX_CHARS characters. Candidates are the
 * statements sharing all of its words; when there is none, all but one (server/domain/near-words.ts,
 * both through the full-text index); when there is still none, the statements above pg_trgm's trigram
 * similarity threshold (0.3, through the trigram index: a typo in more than one word, a fragment). Ranked
 * by similarity = trigram + (1 − trigram) × rank/(rank + 1), the trigram part over the statement's
 * beginning of the same length: an identical statement scores 1, shared words raise a near one. Hidden
 * claims are left out. One statement under TEXT_SEARCH_TIMEOUT_MS: cut off, the answer is empty.
 */
export async function similarClaims(input: SimilarClaimsInput, viewerId: string | null): Promise<SimilarClaims> {
  const text = searchPrefix(input.q);
  // Both reads under the search's own timeout: a statement waiting on a lock answers nothing, not a 503.
  const found = await readSqlWithin(TEXT_SEARCH_TIMEOUT_MS, async (read) => ({
    exactId: await statementKeyMatch(read, input.q),
    ranked: await rankedCandidates(read, text, input.limit),
  }));
  const exactId = found?.exactId ?? null;
  // The claim with the very statement (folded) comes first, whatever the ranking found: the form says at
  // once that this claim exists (docs/features/arguments.md#duplicates). Hidden, it stays out (claimViews).
  let rows = found?.ranked ?? [];
  if (exactId) rows = [{ id: exactId, similarity: 1 }, ...rows.filter((r) => r.id !== exactId)].slice(0, input.limit);
  const claims = new Map((await claimViews(rows.map((r) => r.id), viewerId)).map((c) => [c.id, c]));
  return {
    claims: rows
      .filter((r) => claims.has(r.id))
      .map((r) => ({ ...claims.get(r.id)!, similarity: Math.min(1, Math.max(0, Number(r.similarity))), exact: r.id === exactId })),
  };
}

/**
 * The tiers in one statement: each tier's scan runs only when the ones before it found nothing (a
 * one-time filter on their materialised rows), so the statement timeout bounds the whole search.
 */
async function rankedCandidates(read: SqlRead, text: string, limit: number): Promise<{ id: string; similarity: number }[]> {
  const [parsed] = await read<{ lexemes: string[] | null }>(Prisma.sql`
    SELECT tsvector_to_array(to_tsvector('english', ${text}::text)) AS lexemes`);
  const [all = null, near = all] = nearWordsQueries(parsed?.lexemes ?? []);
  const none = (...tiers: string[]) => Prisma.raw(tiers.map((t) => `NOT EXISTS (SELECT 1 FROM ${t})`).join(" AND "));
  /** One tier: up to `most` claims matching `match`, ranked by `words`, scanned only when `unless` (the tiers before found nothing). */
  const tier = ({ match, words, unless, most = MAX_CANDIDATES }: { match: Prisma.Sql; words: string | null; unless: Prisma.Sql; most?: number }) => Prisma.sql`
    SELECT c.id, c.statement, ${words === null ? Prisma.sql`0::float4` : Prisma.sql`ts_rank(c.search_vector, ${words}::tsquery, 32)`} AS rank
    FROM claims c WHERE (SELECT ${unless}) AND ${visibleClaim("c")} AND ${match} LIMIT ${most}`;
  const noWords = Prisma.sql`false`;
  return read<{ id: string; similarity: number }>(Prisma.sql`
    WITH every_word AS MATERIALIZED (${tier({
      match: all === null ? noWords : Prisma.sql`c.search_vector @@ ${all}::tsquery`,
      words: all,
      unless: Prisma.sql`true`,
    })}),
    all_but_one AS MATERIALIZED (${tier({
      match: near === null || near === all ? noWords : Prisma.sql`c.search_vector @@ ${near}::tsquery`,
      words: near,
      unless: none("every_word"),
    })}),
    trigrams AS MATERIALIZED (${tier({
      match: Prisma.sql`c.statement OPERATOR(public.%) ${text}::text`,
      words: near,
      unless: none("every_word", "all_but_one"),
      most: MAX_TRIGRAM_CANDIDATES,
    })}),
    candidates AS (SELECT * FROM every_word UNION ALL SELECT * FROM all_but_one UNION ALL SELECT * FROM trigrams),
    scored AS (SELECT id, public.similarity(left(statement, ${Array.from(text).length}), ${text}::text) AS trigram, rank FROM candidates)
    SELECT id::text AS id, LEAST(1, trigram + (1 - trigram) * rank)::float8 AS similarity
    FROM scored ORDER BY similarity DESC, id LIMIT ${limit}`);
}

/**
 * The claim whose folded statement equals this one's (the database's claim_statement_key, the one
 * definition of folding), if any; hidden ones included, since the unique key holds them too.
 */
export function claimWithStatement(statement: string): Promise<string | null> {
  return statementKeyMatch(<T>(q: Prisma.Sql) => readSql<T>(q), statement);
}

async function statementKeyMatch(read: SqlRead, statement: string): Promise<string | null> {
  const [row] = await read<{ id: string }>(Prisma.sql`
    SELECT c.id::text AS id FROM claims c WHERE c.statement_key = claim_statement_key(${statement})`);
  return row?.id ?? null;
}

/** The 409 of a duplicate statement, naming the claim that has it. */
export const duplicateStatement = (existingClaimId: string) =>
  new AppError("duplicate_claim", DUPLICATE_STATEMENT, undefined, { existing_claim_id: existingClaimId });

/** Whether `err` is the unique key of folded statements refusing an insert (Prisma's P2002 or SQLSTATE 23505). */
export function isDuplicateStatement(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const x = e as { code?: unknown; message?: unknown; meta?: Record<string, unknown> };
    const text = `${String(x.message ?? "")} ${JSON.stringify(x.meta ?? {})}`;
    if ((x.code === "P2002" || x.code === "23505") && /statement_key/.test(text)) return true;
  }
  return false;
}

/**
 * The search's fallback when full text finds nothing (a typo: "coffe"): claims with a word near the
 * query by pg_trgm's word similarity, through the trigram index; rank = that similarity.
 */
export const TRIGRAM_MATCH = (q: string) => Prisma.sql`${q}::text OPERATOR(public.<%) c.statement`;
export const TRIGRAM_RANK = (q: string) => Prisma.sql`public.word_similarity(${q}::text, c.statement)`;
