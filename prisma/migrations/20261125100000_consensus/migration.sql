-- Where consensus stands on each claim (docs/features/consensus.md): the histogram of the current
-- votes' values, the status and when it began, kept on the claim row by the vote's statement and by
-- the bridging writes.

-- CreateEnum
CREATE TYPE "ConsensusStatus" AS ENUM ('no_votes', 'too_few_votes', 'consensus_true', 'consensus_false', 'divided', 'open');

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "consensus_since" TIMESTAMPTZ(3),
ADD COLUMN     "consensus_status" "ConsensusStatus" NOT NULL DEFAULT 'no_votes',
ADD COLUMN     "vote_histogram" INTEGER[] NOT NULL DEFAULT ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::INTEGER[];

-- Backfill from the existing votes: the bins as server/domain/consensus.ts histogramBin computes them.
UPDATE "claims" c SET "vote_histogram" = ARRAY(
  SELECT count(v.claim_id)::int
  FROM generate_series(0, 9) AS b(bin)
  LEFT JOIN "claim_votes" v ON v.claim_id = c.id AND least(9, greatest(0, floor(v.value * 10 + 1e-9)))::int = b.bin
  GROUP BY b.bin ORDER BY b.bin)
WHERE c.vote_count > 0;

-- The status by the rule of server/domain/consensus.ts consensusVerdict. When an existing status began
-- is not known: it is counted from now, so a claim at consensus waits the full stable time to resolve.
UPDATE "claims" c SET
  "consensus_status" = (CASE
    WHEN c.vote_count = 0 THEN 'no_votes'
    WHEN c.vote_count < 5 THEN 'too_few_votes'
    WHEN b.status = 'bridged_true' THEN 'consensus_true'
    WHEN b.status = 'bridged_false' THEN 'consensus_false'
    WHEN b.status = 'divided' THEN 'divided'
    WHEN b.status = 'undecided' THEN 'open'
    WHEN c.gradient > 0.8 THEN 'consensus_true'
    WHEN c.gradient < 0.2 THEN 'consensus_false'
    ELSE 'open' END)::"ConsensusStatus",
  "consensus_since" = CASE WHEN c.vote_count = 0 THEN NULL ELSE now() END
FROM "claim_bridging" b
WHERE b.claim_id = c.id AND c.vote_count > 0;

-- CreateIndex
CREATE INDEX "claims_consensus_status_created_at_id_idx" ON "claims"("consensus_status", "created_at" DESC, "id" DESC);

-- The resolution job's question, every few seconds on every instance: which unresolved claims at
-- consensus have held it longest? Only those rows are in this index (Prisma cannot express a partial
-- index), so the question costs the same however many claims have resolved.
CREATE INDEX "claims_resolution_due_idx" ON "claims"("consensus_since", "id")
  WHERE "resolved_at" IS NULL AND "consensus_status" IN ('consensus_true', 'consensus_false');
