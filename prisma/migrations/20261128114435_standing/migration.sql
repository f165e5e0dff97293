-- Standing (docs/features/consensus.md#standing): only the votes of accounts with standing decide a
-- claim's consensus status; the automated accounts' votes are shown beside it.
--
-- The rule the standings are decided under is stored (standing_rule). This migration keeps the
-- behaviour before it: the open rule (no age, no votes, no verification asked), under which every
-- account that is neither automated nor suspended has standing. The first start of the background
-- jobs writes the configured STANDING_* settings there, and a rule that differs restates every account
-- once (server/services/standing.ts applyStandingRule): that is the upgrade's restatement.

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "standing" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "standing_gains_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "claims" DROP COLUMN "vote_histogram",
ADD COLUMN     "agents_histogram" INTEGER[] NOT NULL DEFAULT ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::INTEGER[],
ADD COLUMN     "counted_histogram" INTEGER[] NOT NULL DEFAULT ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::INTEGER[],
ADD COLUMN     "counted_vote_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "counted_weight_total" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "counted_weighted_sum" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "claim_votes" ADD COLUMN     "counted" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "standing_pending" (
    "agent_id" UUID NOT NULL,
    "token" UUID NOT NULL DEFAULT gen_random_uuid(),
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leased_until" TIMESTAMPTZ(3),

    CONSTRAINT "standing_pending_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "standing_rule" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "min_age_seconds" INTEGER NOT NULL,
    "min_votes" INTEGER NOT NULL,
    "require_verified" BOOLEAN NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "standing_rule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "standing_pending_marked_at_idx" ON "standing_pending"("marked_at");

-- AddForeignKey
ALTER TABLE "standing_pending" ADD CONSTRAINT "standing_pending_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The open rule: the behaviour before standing.
INSERT INTO "standing_rule" ("id", "min_age_seconds", "min_votes", "require_verified") VALUES (1, 0, 0, false);

-- Under it, every account that is neither automated nor suspended has standing; a timed suspension's
-- end is when it gains it again.
UPDATE "agents" SET "standing" = true
WHERE NOT "automated" AND NOT ("suspended_at" IS NOT NULL AND ("suspended_until" IS NULL OR "suspended_until" > now()));
UPDATE "agents" SET "standing_gains_at" = "suspended_until"
WHERE NOT "automated" AND "suspended_at" IS NOT NULL AND "suspended_until" > now();

-- A vote counts when its account has standing (never an automated account's vote).
UPDATE "claim_votes" v SET "counted" = true FROM "agents" a WHERE a.id = v.agent_id AND a.standing AND NOT v.automated;

-- The counted sums and histogram, and the agents' histogram, from the votes (bins as
-- server/domain/consensus.ts histogramBin computes them).
UPDATE "claims" c SET
  "counted_weighted_sum" = s.swv, "counted_weight_total" = s.sw, "counted_vote_count" = s.n, "counted_histogram" = s.bins
FROM (
  SELECT claim_id, sum(weight * value) AS swv, sum(weight) AS sw, count(*)::int AS n, ARRAY[
    count(*) FILTER (WHERE bin = 0), count(*) FILTER (WHERE bin = 1), count(*) FILTER (WHERE bin = 2),
    count(*) FILTER (WHERE bin = 3), count(*) FILTER (WHERE bin = 4), count(*) FILTER (WHERE bin = 5),
    count(*) FILTER (WHERE bin = 6), count(*) FILTER (WHERE bin = 7), count(*) FILTER (WHERE bin = 8),
    count(*) FILTER (WHERE bin = 9)]::int[] AS bins
  FROM (SELECT claim_id, weight, value, least(9, greatest(0, floor(value * 10 + 1e-9)))::int AS bin FROM "claim_votes" WHERE counted) v
  GROUP BY claim_id
) s WHERE s.claim_id = c.id;
UPDATE "claims" c SET "agents_histogram" = s.bins
FROM (
  SELECT claim_id, ARRAY[
    count(*) FILTER (WHERE bin = 0), count(*) FILTER (WHERE bin = 1), count(*) FILTER (WHERE bin = 2),
    count(*) FILTER (WHERE bin = 3), count(*) FILTER (WHERE bin = 4), count(*) FILTER (WHERE bin = 5),
    count(*) FILTER (WHERE bin = 6), count(*) FILTER (WHERE bin = 7), count(*) FILTER (WHERE bin = 8),
    count(*) FILTER (WHERE bin = 9)]::int[] AS bins
  FROM (SELECT claim_id, least(9, greatest(0, floor(value * 10 + 1e-9)))::int AS bin FROM "claim_votes" WHERE automated) v
  GROUP BY claim_id
) s WHERE s.claim_id = c.id;

-- The status by the rule of server/domain/consensus.ts consensusVerdict, now over the counted votes:
-- their number, the bridging status and their gradient (rounded to 9 decimals as gradientFromSums
-- rounds). A status that stays keeps its start; one that changes starts now.
UPDATE "claims" c SET
  "consensus_status" = n.status::"ConsensusStatus",
  "consensus_since" = CASE WHEN n.status = 'no_votes' THEN NULL ELSE now() END
FROM (
  SELECT x.id, CASE
    WHEN x.counted_vote_count = 0 THEN 'no_votes'
    WHEN x.counted_vote_count < 5 THEN 'too_few_votes'
    WHEN b.status = 'bridged_true' THEN 'consensus_true'
    WHEN b.status = 'bridged_false' THEN 'consensus_false'
    WHEN b.status = 'divided' THEN 'divided'
    WHEN b.status = 'undecided' THEN 'open'
    WHEN round((x.counted_weighted_sum / nullif(x.counted_weight_total, 0))::numeric, 9) > 0.8 THEN 'consensus_true'
    WHEN round((x.counted_weighted_sum / nullif(x.counted_weight_total, 0))::numeric, 9) < 0.2 THEN 'consensus_false'
    ELSE 'open' END AS status
  FROM "claims" x JOIN "claim_bridging" b ON b.claim_id = x.id
) n
WHERE n.id = c.id AND n.status <> c.consensus_status::text;

-- The resolution job's question reads counted_vote_count now; its partial index is unchanged.

-- Votes that do not count, per claim: the claim page says how many and why (services/standing.ts).
CREATE INDEX "claim_votes_not_counted_idx" ON "claim_votes"("claim_id") WHERE NOT "counted";

-- Accounts whose time comes (age, a timed suspension's end): the standing job's question.
CREATE INDEX "agents_standing_gains_at_idx" ON "agents"("standing_gains_at") WHERE "standing_gains_at" IS NOT NULL;

-- An account is born with the standing the rule gives it with no votes and no OAuth link yet (a link
-- made with it marks it below): only a rule that asks for no votes gives any, at once when it asks
-- for no age either, else from created_at + the age.
CREATE FUNCTION agents_standing_at_birth() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r standing_rule%ROWTYPE;
  gains timestamptz;
BEGIN
  NEW.standing := false;
  NEW.standing_gains_at := NULL;
  SELECT * INTO r FROM standing_rule WHERE id = 1;
  IF NOT FOUND OR NEW.automated OR r.min_votes > 0 OR (r.require_verified AND NEW.email_verified IS NULL)
     OR (NEW.suspended_at IS NOT NULL AND NEW.suspended_until IS NULL) THEN
    RETURN NEW;
  END IF;
  -- No age asked: none to wait for (created_at is rounded to the millisecond, and may be after now()).
  gains := CASE WHEN r.min_age_seconds > 0 THEN NEW.created_at + make_interval(secs => r.min_age_seconds) END;
  IF NEW.suspended_at IS NOT NULL AND NEW.suspended_until > now() AND (gains IS NULL OR NEW.suspended_until > gains) THEN
    gains := NEW.suspended_until;
  END IF;
  IF gains IS NULL OR gains <= now() THEN
    NEW.standing := true;
  ELSE
    NEW.standing_gains_at := gains;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER agents_standing_at_birth BEFORE INSERT ON agents FOR EACH ROW EXECUTE FUNCTION agents_standing_at_birth();

-- A change of what standing is decided from marks the account for the standing job. The token
-- changes with every mark: a pass that ran meanwhile leaves the row for another.
CREATE FUNCTION standing_mark_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO standing_pending (agent_id) VALUES (NEW.agent_id)
  ON CONFLICT (agent_id) DO UPDATE SET token = gen_random_uuid(), marked_at = now();
  RETURN NULL;
END $$;
CREATE FUNCTION standing_mark_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO standing_pending (agent_id) VALUES (NEW.id)
  ON CONFLICT (agent_id) DO UPDATE SET token = gen_random_uuid(), marked_at = now();
  RETURN NULL;
END $$;
CREATE TRIGGER agents_standing_facts AFTER UPDATE OF automated, email_verified, suspended_at, suspended_until, created_at ON agents
  FOR EACH ROW WHEN (OLD.automated IS DISTINCT FROM NEW.automated OR OLD.email_verified IS DISTINCT FROM NEW.email_verified
                     OR OLD.suspended_at IS DISTINCT FROM NEW.suspended_at OR OLD.suspended_until IS DISTINCT FROM NEW.suspended_until
                     OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION standing_mark_agent();
-- An OAuth sign-in linked to the account (no link is ever removed but with the account).
CREATE TRIGGER accounts_standing_link AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION standing_mark_pending();

-- A vote that starts or stops counting changes what the bridging model reads of its claim.
CREATE TRIGGER claim_votes_bridging_counted AFTER UPDATE OF counted ON claim_votes FOR EACH ROW
  WHEN (OLD.counted IS DISTINCT FROM NEW.counted) EXECUTE FUNCTION bridging_mark_pending();
