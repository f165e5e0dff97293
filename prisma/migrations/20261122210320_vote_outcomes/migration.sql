-- Resolved outcomes become history (vote_outcomes), the claims counter moves to a trigger, and dead
-- refresh-token families become findable for pruning. The generated statements come first, then the
-- hand-written data moves; the vote rows' outcome column is dropped last, once it has been copied.

-- CreateEnum
CREATE TYPE "CrowdBasis" AS ENUM ('cast', 'resolution');

-- AlterTable
ALTER TABLE "claim_votes" ADD COLUMN "crowd_gradient" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "vote_outcomes" (
    "id" BIGSERIAL NOT NULL,
    "claim_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "value" DOUBLE PRECISION,
    "crowd_gradient" DOUBLE PRECISION,
    "crowd_basis" "CrowdBasis",
    "resolution_gradient" DOUBLE PRECISION NOT NULL,
    "consensus_true" BOOLEAN NOT NULL,
    "outcome" "VoteOutcome" NOT NULL,
    "tags" TEXT[],
    "resolved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vote_outcomes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vote_outcomes_agent_id_resolved_at_idx" ON "vote_outcomes"("agent_id", "resolved_at");

-- CreateIndex
CREATE UNIQUE INDEX "vote_outcomes_claim_id_agent_id_key" ON "vote_outcomes"("claim_id", "agent_id");

-- CreateIndex
CREATE INDEX "refresh_token_families_expires_at_idx" ON "refresh_token_families"("expires_at");

-- CreateIndex
CREATE INDEX "refresh_token_families_revoked_at_idx" ON "refresh_token_families"("revoked_at");

-- AddForeignKey
ALTER TABLE "vote_outcomes" ADD CONSTRAINT "vote_outcomes_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vote_outcomes" ADD CONSTRAINT "vote_outcomes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here.

-- An outcome record is history: nothing rewrites it (a deleted claim or agent takes its rows along).
CREATE FUNCTION vote_outcomes_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'vote_outcomes rows are immutable: a resolved outcome is history';
END $$;
CREATE TRIGGER vote_outcomes_immutable BEFORE UPDATE ON vote_outcomes
  FOR EACH ROW EXECUTE FUNCTION vote_outcomes_immutable();

-- Today's outcomes, from the vote rows. The gradient at resolution is the history point the
-- resolving transaction wrote (same now() as resolved_at); the crowd a vote was cast against was never
-- kept, so these records compare with the crowd at resolution (crowd_basis 'resolution'). A vote
-- changed after its claim resolved (updated_at later than resolved_at: resolution stamped it) no
-- longer holds the value it was judged on: that value is unknown (null).
CREATE TEMPORARY TABLE resolution_gradients AS
SELECT c.id AS claim_id, c.tags, c.resolved_at,
       coalesce((SELECT h.gradient FROM gradient_history h
                 WHERE h.claim_id = c.id AND h.recorded_at <= c.resolved_at ORDER BY h.id DESC LIMIT 1),
                c.gradient) AS gradient
FROM claims c WHERE c.resolved_at IS NOT NULL;

INSERT INTO vote_outcomes (claim_id, agent_id, value, crowd_gradient, crowd_basis, resolution_gradient,
                           consensus_true, outcome, tags, resolved_at)
SELECT v.claim_id, v.agent_id, known.value, CASE WHEN known.value IS NOT NULL THEN r.gradient END,
       CASE WHEN known.value IS NOT NULL THEN 'resolution'::"CrowdBasis" END,
       r.gradient, r.gradient > 0.5, v.outcome, r.tags, r.resolved_at
FROM claim_votes v
JOIN resolution_gradients r ON r.claim_id = v.claim_id
CROSS JOIN LATERAL (SELECT CASE WHEN v.updated_at <= r.resolved_at THEN v.value END AS value) known
WHERE v.outcome IS NOT NULL;

-- Resolved votes already deleted: their reputation event (vote_aligned / vote_opposed, with the
-- claim) outlived them, so the outcome is recovered from it; the value is unknown.
INSERT INTO vote_outcomes (claim_id, agent_id, resolution_gradient, consensus_true, outcome, tags, resolved_at)
SELECT e.claim_id, e.agent_id, r.gradient, r.gradient > 0.5,
       (CASE e.reason WHEN 'vote_aligned' THEN 'aligned' ELSE 'opposed' END)::"VoteOutcome", r.tags, r.resolved_at
FROM reputation_events e
JOIN resolution_gradients r ON r.claim_id = e.claim_id
WHERE e.reason IN ('vote_aligned', 'vote_opposed')
ON CONFLICT (claim_id, agent_id) DO NOTHING;

DROP TABLE resolution_gradients;

ALTER TABLE "claim_votes" DROP COLUMN "outcome";

-- The claims counter ('claims' in platform_counters) was kept by the application; a trigger keeps it
-- like the other counters, so claims written by any path (SQL, bulk loads, seeds) count.
CREATE FUNCTION claims_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO n FROM new_claims;
  ELSE
    SELECT -count(*) INTO n FROM old_claims;
  END IF;
  IF n <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claims', n)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER claims_count_insert AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_claims FOR EACH STATEMENT EXECUTE FUNCTION claims_count();
CREATE TRIGGER claims_count_delete AFTER DELETE ON claims
  REFERENCING OLD TABLE AS old_claims FOR EACH STATEMENT EXECUTE FUNCTION claims_count();

-- Whatever the application counted so far, the rows decide.
INSERT INTO platform_counters (name, value) SELECT 'claims', count(*) FROM claims
ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value;
