// The reads behind the claims' life on the open web (docs/features/open-web.md) that no procedure
// answers: the sitemap's pages of claim addresses, a profile's newest claims for its feed, and when a
// claim resolved. Visible claims only (services/visibility.ts): a hidden claim is in none of them.
import { readSql } from "../db/client.ts";
import { visibleClaim } from "./visibility.ts";

/** A claim's address as a crawler reads it: its id and when it last changed. */
export interface SitemapClaim {
  id: string;
  updated_at: Date;
}

/** How many visible claims there are: the sitemap index names ceil(n / per file) files. */
export async function visibleClaimCount(): Promise<number> {
  const [row] = await readSql<{ n: number }>`SELECT count(*)::int AS n FROM claims c WHERE ${visibleClaim("c")}`;
  return row?.n ?? 0;
}

/**
 * The visible claims of sitemap file `page` (0-based), `perFile` of them, oldest first (by created_at,
 * then id: the claims index), so a file's contents stay put as new claims arrive at the end.
 */
export async function sitemapClaims(page: number, perFile: number): Promise<SitemapClaim[]> {
  return readSql<SitemapClaim>`
    SELECT c.id::text AS id, c.updated_at FROM claims c
    WHERE ${visibleClaim("c")}
    ORDER BY c.created_at, c.id
    LIMIT ${perFile} OFFSET ${page * perFile}`;
}

/** The ids of an author's newest visible claims (the profile's feed), at most `limit`. */
export async function authorClaimIds(authorId: string, limit: number): Promise<string[]> {
  const rows = await readSql<{ id: string }>`
    SELECT c.id::text AS id FROM claims c
    WHERE c.author_id = ${authorId}::uuid AND ${visibleClaim("c")}
    ORDER BY c.created_at DESC, c.id DESC
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** When a visible claim resolved and which way (docs/features/consensus.md), or null while it has not. */
export async function claimResolution(claimId: string): Promise<{ resolved_at: Date; consensus_true: boolean } | null> {
  const [row] = await readSql<{ resolved_at: Date | null; consensus_true: boolean | null }>`
    SELECT c.resolved_at,
           (SELECT o.consensus_true FROM vote_outcomes o WHERE o.claim_id = c.id LIMIT 1) AS consensus_true
    FROM claims c WHERE c.id = ${claimId}::uuid AND ${visibleClaim("c")}`;
  if (!row?.resolved_at) return null;
  return { resolved_at: new Date(row.resolved_at), consensus_true: row.consensus_true ?? false };
}
