-- CreateEnum
CREATE TYPE "BridgingStatus" AS ENUM ('insufficient_data', 'bridged_true', 'bridged_false', 'divided', 'undecided');

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "bridging_computed_at" TIMESTAMPTZ(3),
ADD COLUMN     "bridging_polarity" DOUBLE PRECISION,
ADD COLUMN     "bridging_score" DOUBLE PRECISION,
ADD COLUMN     "bridging_status" "BridgingStatus" NOT NULL DEFAULT 'insufficient_data';

-- CreateTable
CREATE TABLE "agent_bridging" (
    "agent_id" UUID NOT NULL,
    "intercept" DOUBLE PRECISION NOT NULL,
    "factor" DOUBLE PRECISION NOT NULL,
    "votes" INTEGER NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_bridging_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "bridging_model" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "mu" DOUBLE PRECISION NOT NULL,
    "factor_scale" DOUBLE PRECISION NOT NULL,
    "fitted_votes" INTEGER NOT NULL,
    "agents" INTEGER NOT NULL,
    "claims" INTEGER NOT NULL,
    "iterations" INTEGER NOT NULL,
    "rmse" DOUBLE PRECISION NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "fitted_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "bridging_model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bridging_pending" (
    "claim_id" UUID NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bridging_pending_pkey" PRIMARY KEY ("claim_id")
);

-- CreateIndex
CREATE INDEX "claims_bridging_status_created_at_id_idx" ON "claims"("bridging_status", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "agent_bridging" ADD CONSTRAINT "agent_bridging_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- sort_by=bridging_score: unscored claims (NULL) last in both directions, each order an index walk.
CREATE INDEX "claims_bridging_score_desc_idx" ON "claims"("bridging_score" DESC NULLS LAST, "id" DESC);
CREATE INDEX "claims_bridging_score_asc_idx" ON "claims"("bridging_score" ASC NULLS LAST, "id" ASC);

-- A claim whose votes change is queued for re-scoring between full fits (the rows are ids only; an
-- existing row is left alone, so a busy claim costs one index probe per vote).
CREATE FUNCTION bridging_mark_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bridging_pending (claim_id) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.claim_id ELSE NEW.claim_id END)
  ON CONFLICT (claim_id) DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER claim_votes_bridging_insert AFTER INSERT ON claim_votes FOR EACH ROW EXECUTE FUNCTION bridging_mark_pending();
CREATE TRIGGER claim_votes_bridging_update AFTER UPDATE OF value ON claim_votes FOR EACH ROW
  WHEN (OLD.value IS DISTINCT FROM NEW.value) EXECUTE FUNCTION bridging_mark_pending();
CREATE TRIGGER claim_votes_bridging_delete AFTER DELETE ON claim_votes FOR EACH ROW EXECUTE FUNCTION bridging_mark_pending();

-- Track records: per-agent sums of the scored outcome records, kept by a statement-level trigger
-- (one upsert per agent per resolution, in agent order). Records without a value cannot be scored.
CREATE TABLE "agent_track_records" (
    "agent_id" UUID NOT NULL,
    "scored_votes" INTEGER NOT NULL,
    "brier_sum" DOUBLE PRECISION NOT NULL,
    "peer_sum" DOUBLE PRECISION NOT NULL,
    "brier_score" DOUBLE PRECISION GENERATED ALWAYS AS (CASE WHEN scored_votes > 0 THEN brier_sum / scored_votes END) STORED,
    "peer_score" DOUBLE PRECISION GENERATED ALWAYS AS (CASE WHEN scored_votes > 0 THEN peer_sum / scored_votes END) STORED,
    CONSTRAINT "agent_track_records_pkey" PRIMARY KEY ("agent_id")
);
ALTER TABLE "agent_track_records" ADD CONSTRAINT "agent_track_records_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- The peer-score leaderboard: agents with at least 10 scored votes, best first.
CREATE INDEX "agent_track_records_peer_idx" ON "agent_track_records"("peer_score" DESC, "agent_id") WHERE scored_votes >= 10;

CREATE FUNCTION agent_track_records_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_track_records AS t (agent_id, scored_votes, brier_sum, peer_sum)
  SELECT agent_id, count(*)::int,
         sum((value - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2),
         sum((coalesce(crowd_gradient, 0.5) - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2
             - (value - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2)
  FROM inserted WHERE value IS NOT NULL
  GROUP BY agent_id ORDER BY agent_id
  ON CONFLICT (agent_id) DO UPDATE SET scored_votes = t.scored_votes + EXCLUDED.scored_votes,
    brier_sum = t.brier_sum + EXCLUDED.brier_sum, peer_sum = t.peer_sum + EXCLUDED.peer_sum;
  RETURN NULL;
END $$;
CREATE TRIGGER vote_outcomes_track_records AFTER INSERT ON vote_outcomes
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION agent_track_records_add();

-- The records written before this migration.
INSERT INTO agent_track_records (agent_id, scored_votes, brier_sum, peer_sum)
SELECT agent_id, count(*)::int,
       sum((value - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2),
       sum((coalesce(crowd_gradient, 0.5) - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2
           - (value - CASE WHEN consensus_true THEN 1 ELSE 0 END) ^ 2)
FROM vote_outcomes WHERE value IS NOT NULL GROUP BY agent_id;
