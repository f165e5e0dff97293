// A fingerprint of what the application stores, to show that a refused request changed nothing.
// Every table of the schema is covered (tables added later included), except the sign-in
// bookkeeping that a refusal may legitimately touch: refresh-token rows (reuse of a rotated token is
// refused with 401 *and* revokes its family, docs/api.md#sign-in), NextAuth's tables and OAuth codes — and
// the related-claims sets, a derived cache a claim's first related read computes (no content of its own:
// tests/api/related-sets.test.ts checks it against the claims and votes it is computed from).
import { db } from "../../server/db/client.ts";

const EXCLUDED = new Set([
  "_prisma_migrations",
  "schema_migrations",
  "refresh_tokens",
  "refresh_token_families",
  "oauth_exchange_codes",
  "sessions",
  "verification_tokens",
  "related_sets",
  "related_claims",
]);

let tables: string[] | undefined;

async function appTables(): Promise<string[]> {
  if (!tables) {
    const rows = await db().$queryRawUnsafe<{ table_name: string }[]>(
      `SELECT table_name::text AS table_name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    tables = rows.map((r) => r.table_name).filter((t) => !EXCLUDED.has(t));
  }
  return tables;
}

/** table → md5 of all its rows; equal maps mean nothing was written. */
export async function dbFingerprint(): Promise<Record<string, string>> {
  const names = await appTables();
  const sql = names
    .map((t) => `SELECT '${t}'::text AS name, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS sum FROM "${t}" r`)
    .join(" UNION ALL ");
  const rows = await db().$queryRawUnsafe<{ name: string; sum: string }[]>(sql);
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}
