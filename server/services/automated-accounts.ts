// Automated accounts counted apart (docs/features/mcp.md). An account says whether it is automated;
// each claim vote records what its account was when the vote was written, and the claim's people
// sums (gradient_people) count exactly the votes recorded as a person's — updated in the vote's own
// statement (services/votes.ts), O(1) per vote.
//
// Changing the flag re-sorts the account's existing votes, one claim per transaction with the claim
// row locked as a vote locks it (the only lock taken: no order to get wrong). Each transaction reads
// the flag afresh, so concurrent changes and votes converge on the flag that committed last, and the
// people sums match the votes as recorded at every commit.
import { sqlTransaction, readSql } from "../db/client.ts";
import { updateProfile } from "./accounts.ts";
import type { UpdateProfileInput } from "../contract/accounts.ts";
import { Prisma } from "../db/generated/client.ts";
import { applyVote, type WeightedVote } from "../domain/gradient.ts";
import { me } from "./auth.ts";
import { announcePagesChanged } from "../queue/live.ts";
import { logError } from "../log/logger.ts";

/**
 * PATCH /auth/me: applies what the account says about itself. Returns the account as GET /auth/me
 * shows it, and how many claims' gradient_people moved (their shared page renders are stale).
 */
export async function updateSelf(agentId: string, input: { automated?: boolean } & UpdateProfileInput) {
  // The profile fields of the same PATCH /auth/me (docs/features/accounts.md).
  if (input.display_name !== undefined || input.bio !== undefined) await updateProfile(agentId, { display_name: input.display_name, bio: input.bio });
  const resorted = input.automated === undefined ? 0 : await setAutomated(agentId, input.automated);
  // Claims whose gradient_people moved: every instance drops its shared page renders.
  if (resorted > 0) await announcePagesChanged().catch((err) => logError("[accounts] page cache announcement failed", err));
  return me(agentId);
}

/** Sets the account's flag and re-sorts its votes; returns the number of claims whose votes it re-sorted. */
export async function setAutomated(agentId: string, automated: boolean): Promise<number> {
  await sqlTransaction((tx) =>
    tx.execute(Prisma.sql`UPDATE agents SET automated = ${automated}::boolean, updated_at = now() WHERE id = ${agentId}::uuid`),
  );
  const claims = await readSql<{ claim_id: string }>`
    SELECT claim_id::text AS claim_id FROM claim_votes WHERE agent_id = ${agentId}::uuid AND automated <> ${automated}::boolean
    ORDER BY claim_id`;
  for (const { claim_id } of claims) await resortVote(agentId, claim_id);
  return claims.length;
}

async function resortVote(agentId: string, claimId: string): Promise<void> {
  await sqlTransaction(async (tx) => {
    const [claim] = await tx.query<{ people_weighted_sum: number; people_weight_total: number; people_vote_count: number }>(Prisma.sql`
      SELECT people_weighted_sum, people_weight_total, people_vote_count FROM claims WHERE id = ${claimId}::uuid FOR NO KEY UPDATE`);
    if (!claim) return;
    const [vote] = await tx.query<{ value: number; weight: number; automated: boolean; agent_automated: boolean }>(Prisma.sql`
      SELECT v.value, v.weight, v.automated, a.automated AS agent_automated
      FROM claim_votes v JOIN agents a ON a.id = v.agent_id
      WHERE v.claim_id = ${claimId}::uuid AND v.agent_id = ${agentId}::uuid`);
    if (!vote || vote.automated === vote.agent_automated) return;
    const counted: WeightedVote = { value: Number(vote.value), weight: Number(vote.weight) };
    // Into the people sums when it becomes a person's vote, out of them when it becomes automated.
    const people = applyVote(
      { weightedSum: Number(claim.people_weighted_sum), weightTotal: Number(claim.people_weight_total), voteCount: Number(claim.people_vote_count) },
      vote.agent_automated ? counted : null,
      vote.agent_automated ? null : counted,
    );
    await tx.execute(Prisma.sql`
      WITH vote AS (
        UPDATE claim_votes SET automated = ${vote.agent_automated}::boolean WHERE claim_id = ${claimId}::uuid AND agent_id = ${agentId}::uuid
      )
      UPDATE claims SET people_weighted_sum = ${people.weightedSum}::float8, people_weight_total = ${people.weightTotal}::float8,
        people_vote_count = ${people.voteCount}::int
      WHERE id = ${claimId}::uuid`);
  });
}
