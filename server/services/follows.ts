// Follows (docs/api.md#claims) with their three notification flags; the list is served by
// services/claims.listFollowedClaims.
import { db } from "../db/client.ts";
import { notFound } from "../errors.ts";
import type { FollowFlags, FollowOut } from "../contract/claims.ts";
import { assertClaimExists } from "./claims.ts";

export const NOT_FOLLOWING = "Not following this claim";

interface FollowRow {
  claim_id: string;
  notify_on_vote: boolean;
  notify_on_evidence: boolean;
  notify_on_comment: boolean;
  created_at: Date;
}

function toFollow(row: FollowRow): FollowOut {
  return {
    claim_id: row.claim_id,
    is_following: true,
    notify_on_vote: row.notify_on_vote,
    notify_on_evidence: row.notify_on_evidence,
    notify_on_comment: row.notify_on_comment,
    created_at: row.created_at.toISOString(),
  };
}

const flagParam = (value: boolean | undefined) => value ?? null;

/**
 * Follows the claim. New follows take the flags given and default the others to true; following
 * again is idempotent: it sets the flags that were given and keeps the rest (and the original time).
 */
export async function followClaim({ agentId, claimId, flags }: { agentId: string; claimId: string; flags: FollowFlags }): Promise<FollowOut> {
  await assertClaimExists(claimId);
  const vote = flagParam(flags.notify_on_vote);
  const evidence = flagParam(flags.notify_on_evidence);
  const comment = flagParam(flags.notify_on_comment);
  const [row] = await db().$queryRaw<FollowRow[]>`
    INSERT INTO follows (agent_id, claim_id, notify_on_vote, notify_on_evidence, notify_on_comment, updated_at)
    VALUES (${agentId}::uuid, ${claimId}::uuid, COALESCE(${vote}::boolean, true), COALESCE(${evidence}::boolean, true),
            COALESCE(${comment}::boolean, true), now())
    ON CONFLICT (agent_id, claim_id) DO UPDATE SET
      notify_on_vote = COALESCE(${vote}::boolean, follows.notify_on_vote),
      notify_on_evidence = COALESCE(${evidence}::boolean, follows.notify_on_evidence),
      notify_on_comment = COALESCE(${comment}::boolean, follows.notify_on_comment),
      updated_at = now()
    RETURNING claim_id::text AS claim_id, notify_on_vote, notify_on_evidence, notify_on_comment, created_at`;
  return toFollow(row);
}

/** PATCH: changes the flags of an existing follow; 404 when the caller does not follow the claim. */
export async function updateFollow({ agentId, claimId, flags }: { agentId: string; claimId: string; flags: FollowFlags }): Promise<FollowOut> {
  await assertClaimExists(claimId);
  // updatedAt always changes, so an empty PATCH still finds (and confirms) the follow.
  const data = {
    updatedAt: new Date(),
    ...(flags.notify_on_vote !== undefined ? { notifyOnVote: flags.notify_on_vote } : {}),
    ...(flags.notify_on_evidence !== undefined ? { notifyOnEvidence: flags.notify_on_evidence } : {}),
    ...(flags.notify_on_comment !== undefined ? { notifyOnComment: flags.notify_on_comment } : {}),
  };
  const updated = await db().follow.updateMany({ where: { agentId, claimId }, data });
  const row =
    updated.count > 0 ? await db().follow.findUnique({ where: { agentId_claimId: { agentId, claimId } } }) : null;
  if (!row) throw notFound(NOT_FOLLOWING);
  return toFollow({
    claim_id: row.claimId,
    notify_on_vote: row.notifyOnVote,
    notify_on_evidence: row.notifyOnEvidence,
    notify_on_comment: row.notifyOnComment,
    created_at: row.createdAt,
  });
}

/** Unfollows (204 either way); 404 for an unknown claim. */
export async function unfollowClaim({ agentId, claimId }: { agentId: string; claimId: string }): Promise<void> {
  await assertClaimExists(claimId);
  await db().follow.deleteMany({ where: { agentId, claimId } });
}
