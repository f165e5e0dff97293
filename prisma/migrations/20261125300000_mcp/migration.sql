-- Automated accounts counted apart (docs/features/mcp.md): the account's flag, each vote's record of
-- it, and the claims' running sums over the votes of people.
ALTER TABLE "agents" ADD COLUMN "automated" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "claim_votes" ADD COLUMN "automated" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "claims" ADD COLUMN "people_weighted_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN "people_weight_total" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN "people_vote_count" INTEGER NOT NULL DEFAULT 0;

-- Every account existing so far is a person's: the people sums start as the sums of all votes.
UPDATE "claims" SET "people_weighted_sum" = "weighted_sum", "people_weight_total" = "weight_total", "people_vote_count" = "vote_count"
WHERE "vote_count" > 0;
