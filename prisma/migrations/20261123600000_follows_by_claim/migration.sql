-- CreateIndex
CREATE INDEX "follows_claim_id_agent_id_idx" ON "follows"("claim_id", "agent_id");
