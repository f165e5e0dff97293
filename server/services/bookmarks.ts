// Bookmarks (docs/api.md#claims): idempotent; the list is served by services/claims.listBookmarkedClaims.
import { db } from "../db/client.ts";
import type { BookmarkOut } from "../contract/claims.ts";
import { assertClaimExists } from "./claims.ts";

/** Bookmarks the claim; bookmarking it again keeps the first bookmark and its time. */
export async function bookmarkClaim({ agentId, claimId }: { agentId: string; claimId: string }): Promise<BookmarkOut> {
  await assertClaimExists(claimId);
  // ON CONFLICT: two concurrent requests both succeed with the same bookmark.
  await db().$executeRaw`
    INSERT INTO bookmarks (agent_id, claim_id) VALUES (${agentId}::uuid, ${claimId}::uuid)
    ON CONFLICT (agent_id, claim_id) DO NOTHING`;
  const bookmark = await db().bookmark.findUniqueOrThrow({
    where: { agentId_claimId: { agentId, claimId } },
    select: { claimId: true, createdAt: true },
  });
  return { claim_id: bookmark.claimId, is_bookmarked: true, created_at: bookmark.createdAt.toISOString() };
}

/** Removes the bookmark if there is one (204 either way); 404 for an unknown claim. */
export async function unbookmarkClaim({ agentId, claimId }: { agentId: string; claimId: string }): Promise<void> {
  await assertClaimExists(claimId);
  await db().bookmark.deleteMany({ where: { agentId, claimId } });
}
