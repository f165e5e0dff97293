// Similar claims and duplicates (docs/features/arguments.md#similar-claims): statements near a text by
// trigram similarity (pg_trgm, in the public schema on PostgreSQL and PGlite alike) and full-text rank
// together; the claim a duplicate statement names; the trigram fallback of the search.
import { Prisma } from "../db/generated/client.ts";
import { readSql } from "../db/client.ts";
import { conflict } from "../errors.ts";
import { DUPLICATE_STATEMENT, type SimilarClaims, type SimilarClaimsInput } from "../contract/claims.ts";
import { claimViews } from "./claim-views.ts";
import { visibleClaim } from "./visibility.ts";
import { nearWordsQueries } from "../domain/near-words.ts";

/** Candidates ranked per request at most: a text made of very common words matches many statements. */
const MAX_CANDIDATES = 1000;

/**
 * GET /claims/similar. Candidates are the statements sharing all of the text's words; when there is
 * none, all but one (server/domain/near-words.ts, both through the full-text index); when there is still
 * none, the statements above pg_trgm's trigram similarity threshold (0.3, through the trigram index: a
 * typo in more than one word, a fragment). Ranked by similarity = trigram + (1 − trigram) ×
 * rank/(rank + 1): an identical statement scores 1, shared words raise a near one. Hidden claims are
 * left out.
 */
export async function similarClaims(input: SimilarClaimsInput, viewerId: string | null): Promise<SimilarClaims> {
  const [parsed] = await readSql<{ lexemes: string[] | null }>`
    SELECT tsvector_to_array(to_tsvector('english', ${input.q}::text)) AS lexemes`;
  const tiers = nearWordsQueries(parsed?.lexemes ?? []);
  let rows: { id: string; similarity: number }[] = [];
  for (const words of tiers) {
    rows = await rankedCandidates(input, Prisma.sql`c.search_vector @@ ${words}::tsquery`, words);
    if (rows.length > 0) break;
  }
  if (rows.length === 0) rows = await rankedCandidates(input, Prisma.sql`c.statement OPERATOR(public.%) ${input.q}::text`, tiers.at(-1) ?? null);
  const claims = new Map((await claimViews(rows.map((r) => r.id), viewerId)).map((c) => [c.id, c]));
  return {
    claims: rows
      .filter((r) => claims.has(r.id))
      .map((r) => ({ ...claims.get(r.id)!, similarity: Math.min(1, Math.max(0, Number(r.similarity))) })),
  };
}

function rankedCandidates(input: SimilarClaimsInput, match: Prisma.Sql, words: string | null) {
  const rank = words ? Prisma.sql`ts_rank(search_vector, ${words}::tsquery, 32)` : Prisma.sql`0`;
  return readSql<{ id: string; similarity: number }>(Prisma.sql`
    WITH candidates AS (
      SELECT c.id, c.statement, c.search_vector FROM claims c
      WHERE ${visibleClaim("c")} AND ${match} LIMIT ${MAX_CANDIDATES}
    ),
    scored AS (SELECT id, public.similarity(statement, ${input.q}::text) AS trigram, ${rank} AS rank FROM candidates)
    SELECT id::text AS id, LEAST(1, trigram + (1 - trigram) * rank)::float8 AS similarity
    FROM scored ORDER BY similarity DESC, id LIMIT ${input.limit}`);
}

/**
 * The claim whose folded statement equals this one's (the database's claim_statement_key, the one
 * definition of folding), if any; hidden ones included, since the unique key holds them too.
 */
export async function claimWithStatement(statement: string): Promise<string | null> {
  const [row] = await readSql<{ id: string }>`
    SELECT c.id::text AS id FROM claims c WHERE c.statement_key = claim_statement_key(${statement})`;
  return row?.id ?? null;
}

/** The 409 of a duplicate statement, naming the claim that has it. */
export const duplicateStatement = (existingClaimId: string) =>
  conflict(DUPLICATE_STATEMENT, { existing_claim_id: existingClaimId });

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
