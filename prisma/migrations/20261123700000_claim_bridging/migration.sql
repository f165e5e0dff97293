-- Bridged consensus moves from columns of claims to a narrow table of its own, one row per claim.
-- A full fit rewrites every scored claim: a claims row carries 11 indexes (GIN on tags and on the
-- statement's words among them), and every one of them took a new entry per rewritten row. A
-- claim_bridging row has 4 (measured: 5,000 rows 541–695 ms → 113–153 ms).

-- CreateTable
CREATE TABLE "claim_bridging" (
    "claim_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "score" DOUBLE PRECISION,
    "polarity" DOUBLE PRECISION,
    "status" "BridgingStatus" NOT NULL DEFAULT 'insufficient_data',
    "computed_at" TIMESTAMPTZ(3),

    CONSTRAINT "claim_bridging_pkey" PRIMARY KEY ("claim_id")
);

INSERT INTO "claim_bridging" ("claim_id", "created_at", "score", "polarity", "status", "computed_at")
SELECT "id", "created_at", "bridging_score", "bridging_polarity", "bridging_status", "bridging_computed_at" FROM "claims";

-- DropIndex
DROP INDEX "claims_bridging_status_created_at_id_idx";
DROP INDEX "claims_bridging_score_desc_idx";
DROP INDEX "claims_bridging_score_asc_idx";

-- AlterTable
ALTER TABLE "claims" DROP COLUMN "bridging_computed_at",
DROP COLUMN "bridging_polarity",
DROP COLUMN "bridging_score",
DROP COLUMN "bridging_status";

-- CreateIndex
CREATE INDEX "claim_bridging_status_created_at_claim_id_idx" ON "claim_bridging"("status", "created_at" DESC, "claim_id" DESC);
-- sort_by=bridging_score: unscored claims (NULL) last in both directions, each order an index walk.
CREATE INDEX "claim_bridging_score_desc_idx" ON "claim_bridging"("score" DESC NULLS LAST, "claim_id" DESC);
CREATE INDEX "claim_bridging_score_asc_idx" ON "claim_bridging"("score" ASC NULLS LAST, "claim_id" ASC);

-- AddForeignKey
ALTER TABLE "claim_bridging" ADD CONSTRAINT "claim_bridging_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every claim gets its row as it is inserted, whatever path inserts it (statement-level: a bulk
-- insert makes one INSERT … SELECT), and keeps created_at in step with the claim's.
CREATE FUNCTION claim_bridging_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO claim_bridging (claim_id, created_at) SELECT id, created_at FROM new_claims;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_bridging_row AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_claims FOR EACH STATEMENT EXECUTE FUNCTION claim_bridging_insert();

CREATE FUNCTION claim_bridging_created_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE claim_bridging SET created_at = NEW.created_at WHERE claim_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_bridging_created_at AFTER UPDATE OF created_at ON claims
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at) EXECUTE FUNCTION claim_bridging_created_at();
