// Evidence on claims (docs/api.md#evidence-and-comments) and evidence votes with their reputation effect on the author
// (docs/api.md#scoring: up +5, down −3, a change reverses first, a removal reverses, never below 0, one
// reputation event per change, the tier follows).
//
// Reversal undoes what the old vote actually applied, stored on the vote row (applied_delta): a
// downvote on an author at 1 applies −1, so removing it gives back 1, not 3. Nominal reversal would
// let "downvote, remove" mint reputation for an author at 0.
//
// Locks: the evidence row, then its author's agent row (see services/votes.ts for the global order).
import { db, readSql, sqlTransaction, WRITE_TX_OPTIONS, type SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { forbidden, notFound } from "../errors.ts";
import { isUuid } from "../contract/common.ts";
import { AUTHOR_COLUMNS, authorOf, type AuthorColumns } from "./author-columns.ts";
import type { CreateEvidenceInput, Evidence, EvidenceList, ListEvidenceInput } from "../contract/evidence.ts";
import {
  applyEvents,
  evidenceTallyDelta,
  evidenceVoteDelta,
  tierFor,
  type AppliedReputationEvent,
  type EvidenceDirection,
  type ReputationChange,
} from "../domain/reputation.ts";
import { CLAIM_NOT_FOUND } from "./claims.ts";
import { mayReveal, moderationInfo, visibleClaim, visibleEvidence } from "./visibility.ts";
import { recordEvent } from "./outbox.ts";

export const EVIDENCE_NOT_FOUND = "Evidence not found";

interface EvidenceRow extends AuthorColumns {
  id: string;
  claim_id: string;
  position: Evidence["position"];
  content_type: Evidence["content_type"];
  content: string;
  title: string | null;
  excerpt: string | null;
  upvotes: number;
  downvotes: number;
  vote_score: number;
  created_at: Date;
  updated_at: Date;
  user_vote: EvidenceDirection | null;
  hidden_at: Date | null;
  hidden_reason: string | null;
  visible: boolean;
}

/** Evidence as `viewerId` sees it (their own vote joined in: one query for a whole page), `e` filtered by `where`. */
function evidenceQuery(viewerId: string | null, where: Prisma.Sql, orderAndPage: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    SELECT e.id::text AS id, e.claim_id::text AS claim_id, e.position::text AS position,
           e.content_type::text AS content_type, e.content, e.title, e.excerpt, e.upvotes, e.downvotes, e.vote_score,
           e.created_at, e.updated_at, ${AUTHOR_COLUMNS}, v.direction::text AS user_vote,
           e.hidden_at, e.hidden_reason, ${visibleEvidence("e")} AS visible
    FROM evidence e
    JOIN agents a ON a.id = e.author_id
    LEFT JOIN evidence_votes v ON v.evidence_id = e.id AND v.agent_id = ${viewerId}::uuid
    WHERE ${where} ${orderAndPage}`;
}

function toEvidence(row: EvidenceRow): Evidence {
  const moderation = moderationInfo(row);
  return {
    ...(moderation ? { moderation } : {}),
    id: row.id,
    claim_id: row.claim_id,
    author: authorOf(row),
    position: row.position,
    content_type: row.content_type,
    content: row.content,
    title: row.title,
    excerpt: row.excerpt,
    upvotes: row.upvotes,
    downvotes: row.downvotes,
    vote_score: row.vote_score,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    user_vote: row.user_vote,
  };
}

async function evidenceView({ evidenceId, viewerId }: { evidenceId: string; viewerId: string | null }): Promise<Evidence | null> {
  const row = await evidenceRow({ evidenceId, viewerId });
  return row ? toEvidence(row) : null;
}

/** One evidence, hidden ones included: the caller decides who may see those. */
async function evidenceRow({ evidenceId, viewerId }: { evidenceId: string; viewerId: string | null }): Promise<EvidenceRow | null> {
  if (!isUuid(evidenceId)) return null;
  const [row] = await readSql<EvidenceRow>(evidenceQuery(viewerId, Prisma.sql`e.id = ${evidenceId}::uuid`), { prepared: true });
  return row ?? null;
}

/** Hidden evidence (or evidence on a hidden claim) answers 404 to all but its author and moderators. */
export async function getEvidence({ evidenceId, viewerId }: { evidenceId: string; viewerId: string | null }): Promise<Evidence> {
  const row = await evidenceRow({ evidenceId, viewerId });
  if (!row || (!row.visible && !(await mayReveal({ viewerId, authorId: row.author_id })))) throw notFound(EVIDENCE_NOT_FOUND);
  return toEvidence(row);
}

/** GET /claims/{id}/evidence, served by the (claim_id, vote_score, id) and (claim_id, created_at, id) indexes. */
export async function listEvidence(input: ListEvidenceInput, viewerId: string | null): Promise<EvidenceList> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const where = input.position
    ? Prisma.sql`e.claim_id = ${input.claim_id}::uuid AND e.position = ${input.position}::"EvidencePosition" AND ${visibleEvidence("e")}`
    : Prisma.sql`e.claim_id = ${input.claim_id}::uuid AND ${visibleEvidence("e")}`;
  const column = Prisma.raw(input.sort_by === "vote_score" ? "e.vote_score" : "e.created_at");
  const direction = Prisma.raw(input.sort_order === "asc" ? "ASC" : "DESC");
  const [rows, [counted]] = await Promise.all([
    readSql<EvidenceRow>(
      evidenceQuery(viewerId, where, Prisma.sql`ORDER BY ${column} ${direction}, e.id ${direction} LIMIT ${input.limit} OFFSET ${input.offset}`),
      { prepared: true },
    ),
    // No row when the claim does not exist; else the number of its evidence (with the position filter).
    readSql<{ total: number }>(Prisma.sql`
      SELECT (SELECT count(*)::int FROM evidence e WHERE ${where}) AS total FROM claims c
      WHERE c.id = ${input.claim_id}::uuid AND ${visibleClaim("c")}`, { prepared: true }),
  ]);
  if (!counted) throw notFound(CLAIM_NOT_FOUND);
  return { evidence: rows.map(toEvidence), total: counted.total, limit: input.limit, offset: input.offset };
}

/** POST /claims/{id}/evidence: the claim's evidence_count goes up in the same transaction. */
export async function createEvidence(authorId: string, input: CreateEvidenceInput): Promise<Evidence> {
  if (!isUuid(input.claim_id)) throw notFound(CLAIM_NOT_FOUND);
  const id = await db().$transaction(async (tx) => {
    const touched = await tx.$executeRaw`
      UPDATE claims c SET evidence_count = evidence_count + 1, updated_at = now()
      WHERE c.id = ${input.claim_id}::uuid AND ${visibleClaim("c")}`;
    if (touched === 0) throw notFound(CLAIM_NOT_FOUND);
    const created = await tx.evidence.create({
      data: {
        claimId: input.claim_id,
        authorId,
        position: input.position,
        contentType: input.content_type,
        // A link is stored as the URL that was validated; other content verbatim.
        content: input.content_type === "link" ? input.content.trim() : input.content,
        title: input.title ?? null,
        excerpt: input.excerpt ?? null,
      },
      select: { id: true },
    });
    await recordEvent(tx, { type: "claim.evidence_added", claimId: input.claim_id, actorId: authorId, evidenceId: created.id });
    return created.id;
  }, WRITE_TX_OPTIONS);
  return (await evidenceView({ evidenceId: id, viewerId: authorId }))!;
}

/** POST /evidence/{id}/vote. Sending the direction the caller already voted changes nothing. */
export async function voteEvidence({
  agentId,
  evidenceId,
  direction,
}: {
  agentId: string;
  evidenceId: string;
  direction: EvidenceDirection;
}): Promise<Evidence> {
  await setEvidenceVote({ agentId, evidenceId, next: direction });
  // A moderator may hide it meanwhile: the vote stands and is answered, without details the voter may not see.
  const row = await evidenceRow({ evidenceId, viewerId: agentId });
  if (!row) throw notFound(EVIDENCE_NOT_FOUND);
  const { moderation: _hiddenFromVoter, ...shown } = toEvidence(row);
  return row.visible || (await mayReveal({ viewerId: agentId, authorId: row.author_id })) ? toEvidence(row) : shown;
}

/** DELETE /evidence/{id}/vote: 204 whether or not there was a vote. */
export async function removeEvidenceVote({ agentId, evidenceId }: { agentId: string; evidenceId: string }): Promise<void> {
  await setEvidenceVote({ agentId, evidenceId, next: null });
}

/**
 * One transaction on the driver (server/db/client.ts, rule 2), like a claim vote: the evidence row is
 * locked, the caller's vote read after the lock, the reputation rule (domain/reputation) applied to
 * the author's locked row, and the results stored.
 */
async function setEvidenceVote(change: { agentId: string; evidenceId: string; next: EvidenceDirection | null }): Promise<void> {
  if (!isUuid(change.evidenceId)) throw notFound(EVIDENCE_NOT_FOUND);
  await sqlTransaction((tx) => setEvidenceVoteIn(tx, change));
}

/**
 * The one road of an evidence vote, inside the caller's transaction: the endpoints above and account
 * deletion (which removes votes on hidden evidence too: `hidden: "include"`) both come here, so the
 * author's reputation is reversed the same way.
 */
export async function setEvidenceVoteIn(
  tx: SqlTx,
  {
    agentId,
    evidenceId,
    next,
    hidden = "refuse",
  }: {
    agentId: string;
    evidenceId: string;
    /** The vote's new direction; null removes it. */
    next: EvidenceDirection | null;
    hidden?: "refuse" | "include";
  },
): Promise<void> {
  const visible = hidden === "include" ? Prisma.sql`true` : visibleEvidence("e");
  const [evidence] = await tx.query<{ id: string; claim_id: string; author_id: string }>(Prisma.sql`
    SELECT id::text AS id, claim_id::text AS claim_id, author_id::text AS author_id
    FROM evidence e WHERE e.id = ${evidenceId}::uuid AND ${visible} FOR NO KEY UPDATE OF e`, { prepared: true });
  if (!evidence) throw notFound(EVIDENCE_NOT_FOUND);
  // Read after the lock: a concurrent vote by the same agent has committed by now.
  const [row] = await tx.query<{ direction: EvidenceDirection; applied_delta: number }>(Prisma.sql`
    SELECT direction::text AS direction, applied_delta FROM evidence_votes
    WHERE evidence_id = ${evidence.id}::uuid AND agent_id = ${agentId}::uuid`, { prepared: true });
  const previous = row ? { direction: row.direction, appliedDelta: Number(row.applied_delta) } : null;
  if (next === null && !previous) return;
  if (evidence.author_id === agentId) throw forbidden();
  if (previous?.direction === next) return;

  const changes = evidenceVoteDelta(previous?.direction ?? null, next, previous?.appliedDelta);
  const events = await applyReputation(tx, { agentId: evidence.author_id, changes, evidenceId: evidence.id, claimId: evidence.claim_id });
  const voteKey = Prisma.sql`evidence_id = ${evidence.id}::uuid AND agent_id = ${agentId}::uuid`;
  if (next === null) {
    await tx.execute(Prisma.sql`DELETE FROM evidence_votes WHERE ${voteKey}`);
  } else {
    // The last event is the new vote's own effect, as applied after clamping.
    const appliedDelta = events[events.length - 1].delta;
    await tx.execute(
      previous
        ? Prisma.sql`UPDATE evidence_votes SET direction = ${next}::"VoteDirection", applied_delta = ${appliedDelta}::float8,
            updated_at = now() WHERE ${voteKey}`
        : Prisma.sql`INSERT INTO evidence_votes (id, evidence_id, agent_id, direction, applied_delta, updated_at)
            VALUES (gen_random_uuid(), ${evidence.id}::uuid, ${agentId}::uuid, ${next}::"VoteDirection", ${appliedDelta}::float8, now())`,
    );
  }
  const tally = evidenceTallyDelta(previous?.direction ?? null, next);
  await tx.execute(Prisma.sql`
    UPDATE evidence SET upvotes = upvotes + ${tally.upvotes}::int, downvotes = downvotes + ${tally.downvotes}::int,
      vote_score = vote_score + ${tally.voteScore}::int, updated_at = now()
    WHERE id = ${evidence.id}::uuid`, { prepared: true });
}

/**
 * Applies reputation changes to one agent (row locked), clamping at 0, moving the tier, and writing
 * one reputation event per change. Returns the events as applied.
 */
async function applyReputation(
  tx: SqlTx,
  {
    agentId,
    changes,
    ...refs
  }: {
    agentId: string;
    changes: readonly ReputationChange[];
    /** The evidence voted on and its claim, named on each event. */
    evidenceId: string;
    claimId: string;
  },
): Promise<AppliedReputationEvent[]> {
  if (changes.length === 0) return [];
  const [agent] = await tx.query<{ reputation: number }>(Prisma.sql`
    SELECT reputation FROM agents WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`, { prepared: true });
  const { score, events } = applyEvents(Number(agent.reputation), changes);
  await tx.execute(Prisma.sql`
    UPDATE agents SET reputation = ${score}::float8, tier = ${tierFor(score)}::"Tier", updated_at = now()
    WHERE id = ${agentId}::uuid`, { prepared: true });
  await tx.execute(Prisma.sql`
    INSERT INTO reputation_events (agent_id, delta, reputation_score, reason, claim_id, evidence_id)
    SELECT ${agentId}::uuid, delta, score, reason::"ReputationReason", ${refs.claimId}::uuid, ${refs.evidenceId}::uuid
    FROM unnest(${events.map((e) => e.delta)}::float8[], ${events.map((e) => e.reputation_score)}::float8[],
                ${events.map((e) => e.reason)}::text[]) WITH ORDINALITY AS e(delta, score, reason, n)
    ORDER BY n`);
  return events;
}
