-- CreateEnum
CREATE TYPE "CheckStage" AS ENUM ('pending', 'proposed', 'disputed', 'final');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ReputationReason" ADD VALUE 'outcome_bond_staked';
ALTER TYPE "ReputationReason" ADD VALUE 'outcome_bond_returned';
ALTER TYPE "ReputationReason" ADD VALUE 'outcome_bond_won';

-- CreateTable
CREATE TABLE "claim_checks" (
    "claim_id" UUID NOT NULL,
    "criteria" TEXT NOT NULL,
    "fine_print" TEXT,
    "source_url" TEXT,
    "assumptions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "close_at" TIMESTAMPTZ(3) NOT NULL,
    "check_at" TIMESTAMPTZ(3) NOT NULL,
    "stage" "CheckStage" NOT NULL DEFAULT 'pending',
    "outcome" TEXT,
    "proposed_outcome" TEXT,
    "proposal_evidence_url" TEXT,
    "proposal_note" TEXT,
    "proposer_id" UUID,
    "proposed_at" TIMESTAMPTZ(3),
    "dispute_deadline" TIMESTAMPTZ(3),
    "dispute_reason" TEXT,
    "dispute_evidence_url" TEXT,
    "disputer_id" UUID,
    "disputed_at" TIMESTAMPTZ(3),
    "settled_by_id" UUID,
    "settle_reason" TEXT,
    "bond" DOUBLE PRECISION,
    "final_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claim_checks_pkey" PRIMARY KEY ("claim_id"),
    -- Outcomes are the API's strings (docs/features/checks.md); Prisma cannot state this.
    CONSTRAINT "claim_checks_outcome_check" CHECK ("outcome" IN ('true', 'false', 'ambiguous', 'annulled')),
    CONSTRAINT "claim_checks_proposed_outcome_check" CHECK ("proposed_outcome" IN ('true', 'false', 'ambiguous', 'annulled')),
    CONSTRAINT "claim_checks_dates_check" CHECK ("close_at" <= "check_at")
);

-- CreateTable
CREATE TABLE "check_clarifications" (
    "id" BIGSERIAL NOT NULL,
    "claim_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "author_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "check_clarifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "claim_checks_stage_dispute_deadline_idx" ON "claim_checks"("stage", "dispute_deadline");

-- CreateIndex
CREATE INDEX "claim_checks_stage_check_at_idx" ON "claim_checks"("stage", "check_at");

-- CreateIndex
CREATE INDEX "check_clarifications_claim_id_id_idx" ON "check_clarifications"("claim_id", "id");

-- AddForeignKey
ALTER TABLE "claim_checks" ADD CONSTRAINT "claim_checks_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_checks" ADD CONSTRAINT "claim_checks_proposer_id_fkey" FOREIGN KEY ("proposer_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_checks" ADD CONSTRAINT "claim_checks_disputer_id_fkey" FOREIGN KEY ("disputer_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_checks" ADD CONSTRAINT "claim_checks_settled_by_id_fkey" FOREIGN KEY ("settled_by_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "check_clarifications" ADD CONSTRAINT "check_clarifications_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "check_clarifications" ADD CONSTRAINT "check_clarifications_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
