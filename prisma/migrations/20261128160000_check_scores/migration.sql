-- Scoring against the world (docs/features/checks.md#scores): a vote is scored with its last value
-- before its claim's close_at. claim_votes keeps only the current value, so the value a vote had at
-- close_at is kept here when the vote is changed or removed after it; a vote untouched since before
-- close_at still holds it. The consensus status a claim had at close_at is kept on its check when the
-- status changes after it (the crowd's calibration reads it).

-- CreateTable
CREATE TABLE "check_votes_at_close" (
    "claim_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "check_votes_at_close_pkey" PRIMARY KEY ("claim_id","agent_id")
);

-- AlterTable
ALTER TABLE "claim_checks" ADD COLUMN "close_consensus" TEXT;

-- CreateIndex
CREATE INDEX "check_votes_at_close_agent_id_idx" ON "check_votes_at_close"("agent_id");

-- AddForeignKey
ALTER TABLE "check_votes_at_close" ADD CONSTRAINT "check_votes_at_close_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "check_votes_at_close" ADD CONSTRAINT "check_votes_at_close_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here.

-- A vote changed or removed after its claim's close_at, whose value before the change was the one it
-- had at close_at (written before close_at), keeps that value. A claim or account being deleted keeps
-- nothing (their rows are gone by the time the cascade reaches the votes).
CREATE FUNCTION check_votes_freeze() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM claim_checks ck WHERE ck.claim_id = OLD.claim_id AND ck.close_at <= now() AND OLD.updated_at < ck.close_at)
     AND EXISTS (SELECT 1 FROM agents WHERE id = OLD.agent_id)
     AND EXISTS (SELECT 1 FROM claims WHERE id = OLD.claim_id) THEN
    INSERT INTO check_votes_at_close (claim_id, agent_id, value) VALUES (OLD.claim_id, OLD.agent_id, OLD.value)
    ON CONFLICT (claim_id, agent_id) DO NOTHING;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER check_votes_freeze BEFORE UPDATE OR DELETE ON claim_votes
  FOR EACH ROW EXECUTE FUNCTION check_votes_freeze();

-- The first consensus change after close_at keeps the status the claim had then.
CREATE FUNCTION check_consensus_freeze() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE claim_checks SET close_consensus = OLD.consensus_status::text
  WHERE claim_id = OLD.id AND close_consensus IS NULL AND close_at <= now();
  RETURN NEW;
END $$;
CREATE TRIGGER check_consensus_freeze AFTER UPDATE OF consensus_status ON claims
  FOR EACH ROW WHEN (OLD.consensus_status IS DISTINCT FROM NEW.consensus_status)
  EXECUTE FUNCTION check_consensus_freeze();
