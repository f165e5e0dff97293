// Edits with history (docs/features/edits.md): a claim's author may correct its statement until the
// claim's first vote; after it the text is locked (409 edit_locked), so every vote stays a vote on what
// the claim says. Every version is kept: the first edit stores the original as version 1.
import { readSql, sqlTransaction } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { AppError, forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import type { Claim } from "../contract/claims.ts";
import type { ClaimHistory, EditClaimInput, EditEvidenceInput, EvidenceHistory } from "../contract/edits.ts";
import type { Evidence } from "../contract/evidence.ts";
import { EVIDENCE_NOT_FOUND, getEvidence } from "./evidence.ts";
import { claimView } from "./claim-views.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { claimWithStatement, duplicateStatement, isDuplicateStatement } from "./similar-claims.ts";
import { mayReveal } from "./visibility.ts";
import { announceClaimChanged } from "../queue/live.ts";

export const EDIT_LOCKED_CLAIM = "The claim has votes: its statement can no longer be edited";

interface LockedClaim {
  author_id: string;
  statement: string;
  created_at: Date;
  voted: boolean;
}

/**
 * PATCH /claims/{claim_id}: the author replaces the statement while no vote was ever cast on the claim
 * (a vote cast and removed still counts: its gradient history stays). The claim row is locked first, and
 * a vote locks it too (services/votes.ts), so an edit and a first vote never both succeed.
 */
export async function editClaim(agentId: string, input: EditClaimInput): Promise<Claim> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const claimId = input.claim_id;
  try {
    const changed = await sqlTransaction(async (tx) => {
      const [claim] = await tx.query<LockedClaim>(Prisma.sql`
        SELECT author_id::text AS author_id, statement, created_at,
               (vote_count > 0 OR EXISTS (SELECT 1 FROM gradient_history h WHERE h.claim_id = c.id)) AS voted
        FROM claims c WHERE c.id = ${claimId}::uuid FOR UPDATE`);
      if (!claim) throw notFound(CLAIM_NOT_FOUND);
      if (claim.author_id !== agentId) throw forbidden();
      if (claim.voted) throw new AppError("edit_locked", EDIT_LOCKED_CLAIM);
      if (claim.statement === input.statement) return false;
      await tx.execute(Prisma.sql`
        INSERT INTO claim_versions (claim_id, version, statement, created_at)
        SELECT ${claimId}::uuid, 1, ${claim.statement}, ${claim.created_at}::timestamptz
        WHERE NOT EXISTS (SELECT 1 FROM claim_versions WHERE claim_id = ${claimId}::uuid)`);
      await tx.execute(Prisma.sql`
        INSERT INTO claim_versions (claim_id, version, statement)
        SELECT ${claimId}::uuid, max(version) + 1, ${input.statement} FROM claim_versions WHERE claim_id = ${claimId}::uuid`);
      await tx.execute(Prisma.sql`UPDATE claims SET statement = ${input.statement}, edited_at = now(), updated_at = now() WHERE id = ${claimId}::uuid`);
      return true;
    });
    if (changed) await announceClaimChanged(claimId, "claim.edited");
  } catch (err) {
    if (!isDuplicateStatement(err)) throw err;
    const existing = await claimWithStatement(input.statement);
    if (existing) throw duplicateStatement(existing);
    throw err;
  }
  const view = await claimView({ claimId, viewerId: agentId, includeHidden: true });
  if (!view) throw notFound(CLAIM_NOT_FOUND);
  return view;
}

/** GET /claims/{claim_id}/history: every version, oldest first (one, the statement, when never edited). */
export async function claimHistory(claimId: string, viewerId: string | null): Promise<ClaimHistory> {
  if (!isUuid(claimId)) throw notFound(CLAIM_NOT_FOUND);
  const [claim] = await readSql<{ id: string; author_id: string; statement: string; created_at: Date; edited_at: Date | null; hidden_at: Date | null }>(Prisma.sql`
    SELECT id::text AS id, author_id::text AS author_id, statement, created_at, edited_at, hidden_at FROM claims WHERE id = ${claimId}::uuid`);
  // Hidden: 404 to everyone but its author and moderators, as the claim itself.
  if (!claim || (claim.hidden_at && !(await mayReveal({ viewerId, authorId: claim.author_id })))) throw notFound(CLAIM_NOT_FOUND);
  const rows = await readSql<{ version: number; statement: string; created_at: Date }>(Prisma.sql`
    SELECT version, statement, created_at FROM claim_versions WHERE claim_id = ${claimId}::uuid ORDER BY version`);
  const versions = rows.length
    ? rows.map((r) => ({ version: r.version, statement: r.statement, created_at: new Date(r.created_at).toISOString() }))
    : [{ version: 1, statement: claim.statement, created_at: new Date(claim.created_at).toISOString() }];
  return { claim_id: claim.id, edited_at: claim.edited_at ? new Date(claim.edited_at).toISOString() : null, versions };
}

export const EDIT_LOCKED_EVIDENCE = "The evidence has votes: it can no longer be edited";

interface LockedEvidence {
  author_id: string;
  claim_id: string;
  content: string;
  title: string | null;
  excerpt: string | null;
  created_at: Date;
  voted: boolean;
}

/**
 * PATCH /evidence/{evidence_id}: its author corrects the title and excerpt while nobody has voted on
 * it (the source itself, `content`, stays what it was). Versions as for claims.
 */
export async function editEvidence(agentId: string, input: EditEvidenceInput): Promise<Evidence> {
  if (!isUuid(input.evidence_id)) throw notFound(EVIDENCE_NOT_FOUND);
  const evidenceId = input.evidence_id;
  const changed = await sqlTransaction(async (tx) => {
    const [row] = await tx.query<LockedEvidence>(Prisma.sql`
      SELECT author_id::text AS author_id, claim_id::text AS claim_id, content, title, excerpt, created_at,
             (upvotes + downvotes > 0 OR EXISTS (SELECT 1 FROM evidence_votes v WHERE v.evidence_id = e.id)) AS voted
      FROM evidence e WHERE e.id = ${evidenceId}::uuid FOR NO KEY UPDATE`);
    if (!row) throw notFound(EVIDENCE_NOT_FOUND);
    if (row.author_id !== agentId) throw forbidden();
    if (row.voted) throw new AppError("edit_locked", EDIT_LOCKED_EVIDENCE);
    const title = input.title === undefined ? row.title : input.title;
    const excerpt = input.excerpt === undefined ? row.excerpt : input.excerpt;
    if (title === row.title && excerpt === row.excerpt) return null;
    await tx.execute(Prisma.sql`
      INSERT INTO evidence_versions (evidence_id, version, content, title, excerpt, created_at)
      SELECT ${evidenceId}::uuid, 1, ${row.content}, ${row.title}, ${row.excerpt}, ${row.created_at}::timestamptz
      WHERE NOT EXISTS (SELECT 1 FROM evidence_versions WHERE evidence_id = ${evidenceId}::uuid)`);
    await tx.execute(Prisma.sql`
      INSERT INTO evidence_versions (evidence_id, version, content, title, excerpt)
      SELECT ${evidenceId}::uuid, max(version) + 1, ${row.content}, ${title}, ${excerpt} FROM evidence_versions WHERE evidence_id = ${evidenceId}::uuid`);
    await tx.execute(Prisma.sql`UPDATE evidence SET title = ${title}, excerpt = ${excerpt}, edited_at = now(), updated_at = now() WHERE id = ${evidenceId}::uuid`);
    return row.claim_id;
  });
  if (changed) await announceClaimChanged(changed, "evidence.edited");
  return getEvidence({ evidenceId, viewerId: agentId });
}

/** GET /evidence/{evidence_id}/history: every version, oldest first. */
export async function evidenceHistory(evidenceId: string, viewerId: string | null): Promise<EvidenceHistory> {
  const current = await getEvidence({ evidenceId, viewerId }); // 404 as the evidence itself
  const [rows, [meta]] = await Promise.all([
    readSql<{ version: number; content: string; title: string | null; excerpt: string | null; created_at: Date }>(Prisma.sql`
      SELECT version, content, title, excerpt, created_at FROM evidence_versions WHERE evidence_id = ${current.id}::uuid ORDER BY version`),
    readSql<{ edited_at: Date | null }>(Prisma.sql`SELECT e.edited_at FROM evidence e WHERE e.id = ${current.id}::uuid`),
  ]);
  const versions = rows.length
    ? rows.map((r) => ({ version: r.version, content: r.content, title: r.title, excerpt: r.excerpt, created_at: new Date(r.created_at).toISOString() }))
    : [{ version: 1, content: current.content, title: current.title, excerpt: current.excerpt, created_at: current.created_at }];
  return { evidence_id: current.id, edited_at: meta?.edited_at ? new Date(meta.edited_at).toISOString() : null, versions };
}
