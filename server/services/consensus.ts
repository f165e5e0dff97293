// The consensus status of claims whose bridging status a fit or re-score just changed
// (docs/features/consensus.md): restated in the transaction of that bridging write, with the claim
// rows locked (in id order, as votes take them), so that a vote and a bridging write on the same claim
// never leave a status that neither of them computed from the other's result.
import type { SqlTx } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { consensusVerdict, statusSince, type BridgingStatusName, type ConsensusStatus } from "../domain/consensus.ts";
import { gradientFromSums } from "../domain/gradient.ts";

interface ClaimState {
  id: string;
  counted_weighted_sum: number;
  counted_weight_total: number;
  counted_vote_count: number;
  consensus_status: ConsensusStatus;
  consensus_since: Date | null;
  db_now: Date;
}

/**
 * Restates the consensus of these claims from their new bridging statuses and their counted votes
 * (docs/features/consensus.md#standing); returns how many changed.
 */
export async function restateConsensus(
  tx: SqlTx,
  changed: readonly { claim_id: string; status: BridgingStatusName }[],
): Promise<number> {
  if (changed.length === 0) return 0;
  const bridgingOf = new Map(changed.map((c) => [c.claim_id, c.status]));
  const rows = await tx.query<ClaimState>(Prisma.sql`
    SELECT c.id::text AS id, c.counted_weighted_sum, c.counted_weight_total, c.counted_vote_count, c.consensus_status::text AS consensus_status,
           c.consensus_since, GREATEST(now(), c.consensus_since) AS db_now
    FROM claims c WHERE c.id = ANY(${[...bridgingOf.keys()]}::uuid[])
    ORDER BY c.id FOR NO KEY UPDATE`);
  const update = { id: [] as string[], status: [] as string[], since: [] as (Date | null)[] };
  for (const row of rows) {
    const counted = { weightedSum: Number(row.counted_weighted_sum), weightTotal: Number(row.counted_weight_total), voteCount: Number(row.counted_vote_count) };
    const { status } = consensusVerdict({ voters: counted.voteCount, bridgingStatus: bridgingOf.get(row.id)!, gradient: gradientFromSums(counted) });
    if (status === row.consensus_status) continue;
    update.id.push(row.id);
    update.status.push(status);
    update.since.push(statusSince({ status: row.consensus_status, since: row.consensus_since }, status, row.db_now));
  }
  if (update.id.length === 0) return 0;
  return tx.execute(Prisma.sql`
    UPDATE claims c SET consensus_status = u.status::"ConsensusStatus", consensus_since = u.since
    FROM unnest(${update.id}::uuid[], ${update.status}::text[], ${update.since}::timestamptz[]) AS u(id, status, since)
    WHERE c.id = u.id`);
}
