-- Related claims as a maintained set (CONTRACT §7, issue 14): GET /discover/related/{id} reads a
-- claim's set instead of aggregating over voters and tags on every request. The set's members are
-- chosen when it is computed (server/services/discovery.ts, computeRelatedSet); the count of agents
-- who voted on both claims is kept exact here, by the trigger below, between computations; shared
-- tags are read from the claims' own tags. Hidden claims are left out when the set is read.

-- CreateTable
CREATE TABLE "related_sets" (
    "claim_id" UUID NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "stale" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "related_sets_pkey" PRIMARY KEY ("claim_id")
);

-- CreateTable
CREATE TABLE "related_claims" (
    "claim_id" UUID NOT NULL,
    "related_id" UUID NOT NULL,
    "shared_voters" INTEGER NOT NULL,

    CONSTRAINT "related_claims_pkey" PRIMARY KEY ("claim_id","related_id")
);

-- CreateIndex
CREATE INDEX "related_claims_related_id_idx" ON "related_claims"("related_id");

-- The refresher's queue: stale sets, oldest first.
CREATE INDEX "related_sets_stale_idx" ON "related_sets"("computed_at") WHERE "stale";

-- AddForeignKey
ALTER TABLE "related_sets" ADD CONSTRAINT "related_sets_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "related_claims" ADD CONSTRAINT "related_claims_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "related_claims" ADD CONSTRAINT "related_claims_related_id_fkey" FOREIGN KEY ("related_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A vote cast or removed changes "agents who voted on both" of every pair of claims the agent voted
-- on. Of those pairs only the ones held in a set are stored: the claim's own set (at most
-- RELATED_SET_SIZE rows, each one probe of the (claim_id, agent_id) index) and, when any set holds
-- this claim, the sets of the agent's other claims. The claim's own set is marked stale (a vote may
-- bring new candidates: the refresher recomputes it). Exact under concurrency: a vote holds its
-- claim's row lock, and a set is computed holding share locks on its claim and members; an agent's
-- votes on claims held in sets take turns (below).
CREATE FUNCTION related_claims_follow_vote() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_claim uuid;
  v_agent uuid;
  d integer;
  own boolean;
  others boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    v_claim := NEW.claim_id; v_agent := NEW.agent_id; d := 1;
  ELSE
    v_claim := OLD.claim_id; v_agent := OLD.agent_id; d := -1;
  END IF;
  own := EXISTS (SELECT 1 FROM related_claims r WHERE r.claim_id = v_claim);
  others := EXISTS (SELECT 1 FROM related_claims r WHERE r.related_id = v_claim);
  IF own OR others THEN
    -- Two votes of one agent at once, on the two claims of a stored pair, would each miss the other
    -- (neither sees the other's uncommitted row): an agent's votes on claims held in sets take turns.
    -- Only then: a bulk load (empty sets) takes no lock per row.
    PERFORM pg_advisory_xact_lock(7041, hashtext(v_agent::text));
    -- The pairs of this claim with each other claim the agent voted on, in both directions, locked in
    -- key order first: two votes updating the same two rows in opposite orders would deadlock.
    PERFORM 1 FROM related_claims r
    WHERE (r.claim_id, r.related_id) IN (
      SELECT v_claim, v.claim_id FROM claim_votes v WHERE own AND v.agent_id = v_agent AND v.claim_id <> v_claim
      UNION ALL
      SELECT v.claim_id, v_claim FROM claim_votes v WHERE others AND v.agent_id = v_agent AND v.claim_id <> v_claim)
    ORDER BY r.claim_id, r.related_id FOR UPDATE;
    UPDATE related_claims r SET shared_voters = r.shared_voters + d
    WHERE (r.claim_id, r.related_id) IN (
      SELECT v_claim, v.claim_id FROM claim_votes v WHERE own AND v.agent_id = v_agent AND v.claim_id <> v_claim
      UNION ALL
      SELECT v.claim_id, v_claim FROM claim_votes v WHERE others AND v.agent_id = v_agent AND v.claim_id <> v_claim);
  END IF;
  UPDATE related_sets SET stale = true WHERE claim_id = v_claim AND NOT stale;
  RETURN NULL;
END $$;
CREATE TRIGGER claim_votes_related_insert AFTER INSERT ON claim_votes FOR EACH ROW EXECUTE FUNCTION related_claims_follow_vote();
CREATE TRIGGER claim_votes_related_delete AFTER DELETE ON claim_votes FOR EACH ROW EXECUTE FUNCTION related_claims_follow_vote();

-- New tags: shared tags are read from the tags themselves (exact at once); the set may gain members.
CREATE FUNCTION related_sets_follow_tags() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE related_sets SET stale = true WHERE claim_id = NEW.id AND NOT stale;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_related_tags AFTER UPDATE OF tags ON claims FOR EACH ROW
  WHEN (OLD.tags IS DISTINCT FROM NEW.tags) EXECUTE FUNCTION related_sets_follow_tags();
