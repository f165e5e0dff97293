-- Claims core (issue 3).

-- AlterTable: the reputation change an evidence vote really applied, so that changing or removing it
-- reverses exactly that (a downvote on an author at 0 applied 0, not -3).
ALTER TABLE "evidence_votes" ADD COLUMN     "applied_delta" DOUBLE PRECISION NOT NULL DEFAULT 0;
UPDATE "evidence_votes" SET "applied_delta" = CASE "direction" WHEN 'up' THEN 5 ELSE -3 END;

-- CreateIndex: GET /claims?complexity=… — its page in created_at order and its total are index scans.
CREATE INDEX "claims_complexity_tier_created_at_id_idx" ON "claims"("complexity_tier", "created_at" DESC, "id" DESC);
