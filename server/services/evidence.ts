// Evidence on claims (CONTRACT §5) and evidence votes with their reputation effect on the author
// (CONTRACT §6: up +5, down −3, a change reverses first, a removal reverses, never below 0, one
// reputation event per change, the tier follows).
//
// Reversal undoes what the old vote actually applied, stored on the vote row (applied_delta): a
// downvote on an author at 1 applies −1, so removing it gives back 1, not 3. Nominal reversal would
// let "downvote, remove" mint reputation for an author at 0.
//
// Locks: the evidence row, then its author's agent row (see services/votes.ts for the global order).
import { db, readQuery } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../api/errors.ts";
import { isUuid } from "../api/schemas/common.ts";
import { AUTHOR_COLUMNS, authorOf, type AuthorColumns } from "./author-columns.ts";
import type { CreateEvidenceInput, Evidence, EvidenceList, ListEvidenceInput } from "../api/schemas/evidence.ts";
import {
  applyEvents,
  evidenceVoteDelta,
  tierFor,
  type AppliedReputationEvent,
  type EvidenceDirection,
  type ReputationChange,
} from "../domain/reputation.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { WRITE_TX_OPTIONS } from "./votes.ts";

type Tx = Prisma.TransactionClient;

export const EVIDENCE_NOT_FOUND = "Evidence not found";

interface EvidenceRow extends AuthorColumns {
  id: string;
  claim_id: string;
  position: Evidence["position"];
  content_type: Evidence["content_type"];
  content: string;
  upvotes: number;
  downvotes: number;
  vote_score: number;
  created_at: Date;
  updated_at: Date;
  user_vote: EvidenceDirection | null;
}

/** Evidence as `viewerId` sees it (their own vote joined in: one query for a whole page), `e` filtered by `where`. */
function evidenceQuery(viewerId: string | null, where: Prisma.Sql, orderAndPage: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    SELECT e.id::text AS id, e.claim_id::text AS claim_id, e.position::text AS position,
           e.content_type::text AS content_type, e.content, e.upvotes, e.downvotes, e.vote_score,
           e.created_at, e.updated_at, ${AUTHOR_COLUMNS}, v.direction::text AS user_vote
    FROM evidence e
    JOIN agents a ON a.id = e.author_id
    LEFT JOIN evidence_votes v ON v.evidence_id = e.id AND v.agent_id = ${viewerId}::uuid
    WHERE ${where} ${orderAndPage}`;
}

function toEvidence(row: EvidenceRow): Evidence {
  return {
    id: row.id,
    claim_id: row.claim_id,
    author: authorOf(row),
    position: row.position,
    content_type: row.content_type,
    content: row.content,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    vote_score: row.vote_score,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    user_vote: row.user_vote,
  };
}

async function evidenceView(evidenceId: string, viewerId: string | null): Promise<Evidence | null> {
  if (!isUuid(evidenceId)) return null;
  const [row] = await readQuery<EvidenceRow>(evidenceQuery(viewerId, Prisma.sql`e.id = ${evidenceId}::uuid`), { prepared: true });
  return row ? toEvidence(row) : null;
}

export async function getEvidence(evidenceId: string, viewerId: string | null): Promise<Evidence> {
  const evidence = await evidenceView(evidenceId, viewerId);
  if (!evidence) throw notFound(EVIDENCE_NOT_FOUND);
  return evidence;
}

/** GET /claims/{id}/evidence, served by the (claim_id, vote_score, id) and (claim_id, created_at, id) indexes. */
export async function listEvidence(input: ListEvidenceInput, viewerId: string | null): Promise<EvidenceList> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const where = input.position
    ? Prisma.sql`e.claim_id = ${input.claim_id}::uuid AND e.position = ${input.position}::"EvidencePosition"`
    : Prisma.sql`e.claim_id = ${input.claim_id}::uuid`;
  const column = Prisma.raw(input.sort_by === "vote_score" ? "e.vote_score" : "e.created_at");
  const direction = Prisma.raw(input.sort_order === "asc" ? "ASC" : "DESC");
  const [rows, [counted]] = await Promise.all([
    readQuery<EvidenceRow>(
      evidenceQuery(viewerId, where, Prisma.sql`ORDER BY ${column} ${direction}, e.id ${direction} LIMIT ${input.limit} OFFSET ${input.offset}`),
      { prepared: true },
    ),
    // No row when the claim does not exist; else the number of its evidence (with the position filter).
    readQuery<{ total: number }>(Prisma.sql`
      SELECT (SELECT count(*)::int FROM evidence e WHERE ${where}) AS total FROM claims WHERE id = ${input.claim_id}::uuid`, { prepared: true }),
  ]);
  if (!counted) throw notFound(CLAIM_NOT_FOUND);
  return { evidence: rows.map(toEvidence), total: counted.total, limit: input.limit, offset: input.offset };
}

/** POST /claims/{id}/evidence: the claim's evidence_count goes up in the same transaction. */
export async function createEvidence(authorId: string, input: CreateEvidenceInput): Promise<Evidence> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const id = await db().$transaction(async (tx) => {
    const touched = await tx.$executeRaw`
      UPDATE claims SET evidence_count = evidence_count + 1, updated_at = now() WHERE id = ${input.claim_id}::uuid`;
    if (touched === 0) throw notFound(CLAIM_NOT_FOUND);
    const created = await tx.evidence.create({
      data: {
        claimId: input.claim_id,
        authorId,
        position: input.position,
        contentType: input.content_type,
        // A link is stored as the URL that was validated; other content verbatim.
        content: input.content_type === "link" ? input.content.trim() : input.content,
      },
      select: { id: true },
    });
    return created.id;
  }, WRITE_TX_OPTIONS);
  return (await evidenceView(id, authorId))!;
}

/** POST /evidence/{id}/vote. Sending the direction the caller already voted changes nothing. */
export async function voteEvidence(agentId: string, evidenceId: string, direction: EvidenceDirection): Promise<Evidence> {
  await setEvidenceVote(agentId, evidenceId, direction);
  return (await evidenceView(evidenceId, agentId))!;
}

/** DELETE /evidence/{id}/vote: 204 whether or not there was a vote. */
export async function removeEvidenceVote(agentId: string, evidenceId: string): Promise<void> {
  await setEvidenceVote(agentId, evidenceId, null);
}

async function setEvidenceVote(agentId: string, evidenceId: string, next: EvidenceDirection | null): Promise<void> {
  if (!isUuid(evidenceId)) throw notFound(EVIDENCE_NOT_FOUND);
  await db().$transaction(async (tx) => {
    const [evidence] = await tx.$queryRaw<{ id: string; claim_id: string; author_id: string }[]>`
      SELECT id::text AS id, claim_id::text AS claim_id, author_id::text AS author_id
      FROM evidence WHERE id = ${evidenceId}::uuid FOR NO KEY UPDATE`;
    if (!evidence) throw notFound(EVIDENCE_NOT_FOUND);
    // Read after the lock: a concurrent vote by the same agent has committed by now.
    const previous = await tx.evidenceVote.findUnique({
      where: { evidenceId_agentId: { evidenceId: evidence.id, agentId } },
      select: { direction: true, appliedDelta: true },
    });
    if (next === null && !previous) return;
    if (evidence.author_id === agentId) throw forbidden();
    if (previous?.direction === next) return;

    const changes = evidenceVoteDelta(previous?.direction ?? null, next, previous?.appliedDelta);
    const events = await applyReputation(tx, evidence.author_id, changes, { evidenceId: evidence.id, claimId: evidence.claim_id });
    const key = { evidenceId_agentId: { evidenceId: evidence.id, agentId } };
    if (next === null) {
      await tx.evidenceVote.delete({ where: key });
    } else {
      // The last event is the new vote's own effect, as applied after clamping.
      const appliedDelta = events[events.length - 1].delta;
      if (previous) await tx.evidenceVote.update({ where: key, data: { direction: next, appliedDelta } });
      else await tx.evidenceVote.create({ data: { evidenceId: evidence.id, agentId, direction: next, appliedDelta } });
    }
    const up = (next === "up" ? 1 : 0) - (previous?.direction === "up" ? 1 : 0);
    const down = (next === "down" ? 1 : 0) - (previous?.direction === "down" ? 1 : 0);
    await tx.$executeRaw`
      UPDATE evidence SET upvotes = upvotes + ${up}, downvotes = downvotes + ${down},
        vote_score = vote_score + ${up - down}, updated_at = now()
      WHERE id = ${evidence.id}::uuid`;
  }, WRITE_TX_OPTIONS);
}

/**
 * Applies reputation changes to one agent (row locked), clamping at 0, moving the tier, and writing
 * one reputation event per change. Returns the events as applied.
 */
async function applyReputation(
  tx: Tx,
  agentId: string,
  changes: readonly ReputationChange[],
  refs: { evidenceId?: string; claimId?: string },
): Promise<AppliedReputationEvent[]> {
  if (changes.length === 0) return [];
  const [agent] = await tx.$queryRaw<{ reputation: number }[]>`
    SELECT reputation FROM agents WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`;
  const { score, events } = applyEvents(Number(agent.reputation), changes);
  await tx.agent.update({ where: { id: agentId }, data: { reputation: score, tier: tierFor(score) } });
  await tx.reputationEvent.createMany({
    data: events.map((e) => ({ agentId, delta: e.delta, reputationScore: e.reputation_score, reason: e.reason, ...refs })),
  });
  return events;
}
