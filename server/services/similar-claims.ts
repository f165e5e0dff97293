// Similar claims and duplicates (docs/features/arguments.md#similar-claims): statements near a text by
// trigram similarity (pg_trgm, in the public schema on PostgreSQL and PGlite alike) and full-text rank
// together; the claim a duplicate statement names; the trigram fallback of the search.
import { Prisma } from "../db/generated/client.ts";
import { readSql } from "../db/client.ts";
import { conflict } from "../errors.ts";
import { DUPLICATE_STATEMENT, type SimilarClaims, type SimilarClaimsInput } from "../contract/claims.ts";
import { claimViews } from "./claim-views.ts";
import { visibleClaim } from "./visibility.ts";

/**
 * GET /claims/similar. Candidates come through two GIN indexes — trigram similarity above pg_trgm's
 * threshold (0.3) or a full-text match of all the text's words — and are ranked by
 * similarity = trigram + (1 − trigram) × rank/(rank + 1): an identical statement scores 1, shared words
 * raise a near one. Hidden claims are left out.
 */
export async function similarClaims(input: SimilarClaimsInput, viewerId: string | null): Promise<SimilarClaims> {
  const rows = await readSql<{ id: string; similarity: number }>`
    WITH query AS (SELECT ${input.q}::text AS text, plainto_tsquery('english', ${input.q}) AS words),
    candidates AS (
      SELECT c.id, public.similarity(c.statement, query.text) AS trigram, ts_rank(c.search_vector, query.words, 32) AS rank
      FROM claims c, query
      WHERE ${visibleClaim("c")} AND (c.statement OPERATOR(public.%) query.text OR c.search_vector @@ query.words)
    )
    SELECT id::text AS id, LEAST(1, trigram + (1 - trigram) * rank)::float8 AS similarity
    FROM candidates ORDER BY similarity DESC, id LIMIT ${input.limit}`;
  const claims = new Map((await claimViews(rows.map((r) => r.id), viewerId)).map((c) => [c.id, c]));
  return {
    claims: rows
      .filter((r) => claims.has(r.id))
      .map((r) => ({ ...claims.get(r.id)!, similarity: Math.min(1, Math.max(0, Number(r.similarity))) })),
  };
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
