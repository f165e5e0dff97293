-- CreateEnum
CREATE TYPE "Role" AS ENUM ('member', 'moderator', 'admin');

-- CreateEnum
CREATE TYPE "ReportTargetType" AS ENUM ('claim', 'evidence', 'comment', 'agent');

-- CreateEnum
CREATE TYPE "ReportReason" AS ENUM ('spam', 'abuse', 'misinformation', 'off_topic', 'other');

-- CreateEnum
CREATE TYPE "ReportStatus" AS ENUM ('open', 'dismissed', 'actioned');

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "role" "Role" NOT NULL DEFAULT 'member',
ADD COLUMN     "sessions_valid_after" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_at" TIMESTAMPTZ(3),
ADD COLUMN     "suspended_until" TIMESTAMPTZ(3),
ADD COLUMN     "suspension_reason" TEXT;

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "hidden_at" TIMESTAMPTZ(3),
ADD COLUMN     "hidden_reason" TEXT;

-- AlterTable
ALTER TABLE "evidence" ADD COLUMN     "hidden_at" TIMESTAMPTZ(3),
ADD COLUMN     "hidden_reason" TEXT;

-- AlterTable
ALTER TABLE "comments" ADD COLUMN     "hidden_at" TIMESTAMPTZ(3),
ADD COLUMN     "hidden_reason" TEXT;

-- CreateTable
CREATE TABLE "reports" (
    "id" UUID NOT NULL,
    "reporter_id" UUID NOT NULL,
    "target_type" "ReportTargetType" NOT NULL,
    "target_id" UUID NOT NULL,
    "reason" "ReportReason" NOT NULL,
    "note" TEXT,
    "status" "ReportStatus" NOT NULL DEFAULT 'open',
    "resolved_by" UUID,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_audit" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "actor_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" UUID NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moderation_audit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reports_status_target_type_target_id_idx" ON "reports"("status", "target_type", "target_id");

-- CreateIndex
CREATE INDEX "reports_target_type_target_id_idx" ON "reports"("target_type", "target_id");

-- CreateIndex
CREATE INDEX "moderation_audit_seq_idx" ON "moderation_audit"("seq" DESC);

-- AddForeignKey
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "moderation_audit" ADD CONSTRAINT "moderation_audit_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written below: what Prisma cannot express.

-- One open report per reporter and target (a second one is a 409; a resolved one does not count).
CREATE UNIQUE INDEX "reports_one_open_per_reporter" ON "reports"("reporter_id", "target_type", "target_id") WHERE "status" = 'open';

-- The audit log is append-only, whatever path writes.
CREATE FUNCTION moderation_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'moderation_audit is append-only';
END $$;
CREATE TRIGGER moderation_audit_append_only BEFORE UPDATE OR DELETE ON moderation_audit
  FOR EACH STATEMENT EXECUTE FUNCTION moderation_audit_append_only();

-- Counters count visible content only (CONTRACT §14: hidden content leaves every count and statistic).
-- Hiding subtracts exactly what the content contributed and restoring adds it back, in the
-- transaction of the hide (row-level triggers on hidden_at, below); inserts and deletes count only
-- visible rows. The vote that races a hide locks the claim row first (services/votes.ts), so the hide
-- reads a vote_count that includes it, or the vote finds the claim hidden and is refused.

-- 'claims': visible claims. Deleting a hidden claim also gives back the votes its hiding took off the
-- vote total: its votes are deleted by cascade after the claim row is gone, and counted as visible then.
CREATE OR REPLACE FUNCTION claims_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  hidden_votes bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO n FROM new_claims WHERE hidden_at IS NULL;
    hidden_votes := 0;
  ELSE
    SELECT -count(*) INTO n FROM old_claims WHERE hidden_at IS NULL;
    SELECT coalesce(sum(vote_count), 0) INTO hidden_votes FROM old_claims WHERE hidden_at IS NOT NULL;
  END IF;
  IF n <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claims', n)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  IF hidden_votes <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claim_votes:' || (pg_backend_pid() % 16), hidden_votes)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION claims_tag_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(1))
  FROM (SELECT DISTINCT c.id, u.tag, (c.created_at AT TIME ZONE 'UTC')::date AS day
        FROM new_claims c, unnest(c.tags) AS u(tag) WHERE c.hidden_at IS NULL) t;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION claims_tag_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(-1))
  FROM (SELECT DISTINCT c.id, u.tag, (c.created_at AT TIME ZONE 'UTC')::date AS day
        FROM old_claims c, unnest(c.tags) AS u(tag) WHERE c.hidden_at IS NULL) t;
  RETURN NULL;
END $$;

-- A change of tags, creation day or visibility: the old row's contribution out, the new row's in.
CREATE OR REPLACE FUNCTION claims_tag_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(t.delta))
  FROM (SELECT DISTINCT u.tag, (OLD.created_at AT TIME ZONE 'UTC')::date AS day, -1 AS delta
        FROM unnest(OLD.tags) AS u(tag) WHERE OLD.hidden_at IS NULL
        UNION ALL
        SELECT DISTINCT u.tag, (NEW.created_at AT TIME ZONE 'UTC')::date, 1
        FROM unnest(NEW.tags) AS u(tag) WHERE NEW.hidden_at IS NULL) t;
  RETURN NULL;
END $$;

DROP TRIGGER claims_tag_counts_update ON claims;
CREATE TRIGGER claims_tag_counts_update AFTER UPDATE OF tags, created_at, hidden_at ON claims
  FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.created_at IS DISTINCT FROM NEW.created_at
                     OR (OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL))
  EXECUTE FUNCTION claims_tag_counts_update();

-- Hiding or restoring a claim: the claims total and the vote total (its votes) move with it.
CREATE FUNCTION claims_visibility_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO platform_counters AS p (name, value) VALUES ('claims', sign)
  ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  IF NEW.vote_count <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claim_votes:' || (pg_backend_pid() % 16), sign * NEW.vote_count)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_visibility_counts AFTER UPDATE OF hidden_at ON claims
  FOR EACH ROW WHEN ((OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL))
  EXECUTE FUNCTION claims_visibility_counts();

-- The vote total counts votes on visible claims.
CREATE OR REPLACE FUNCTION claim_votes_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO n FROM new_votes v
    WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = v.claim_id AND c.hidden_at IS NOT NULL);
  ELSE
    SELECT -count(*) INTO n FROM old_votes v
    WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.id = v.claim_id AND c.hidden_at IS NOT NULL);
  END IF;
  IF n <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claim_votes:' || (pg_backend_pid() % 16), n)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END $$;

-- A claim's evidence_count counts its visible evidence.
CREATE FUNCTION evidence_visibility_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE claims SET evidence_count = evidence_count + CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END
  WHERE id = NEW.claim_id;
  RETURN NULL;
END $$;
CREATE TRIGGER evidence_visibility_counts AFTER UPDATE OF hidden_at ON evidence
  FOR EACH ROW WHEN ((OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL))
  EXECUTE FUNCTION evidence_visibility_counts();

-- A claim's comment_count and the parent's reply_count count visible comments.
CREATE FUNCTION comments_visibility_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE WHEN NEW.hidden_at IS NULL THEN 1 ELSE -1 END;
BEGIN
  UPDATE claims SET comment_count = comment_count + sign WHERE id = NEW.claim_id;
  IF NEW.parent_id IS NOT NULL THEN
    UPDATE comments SET reply_count = reply_count + sign WHERE id = NEW.parent_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER comments_visibility_counts AFTER UPDATE OF hidden_at ON comments
  FOR EACH ROW WHEN ((OLD.hidden_at IS NULL) <> (NEW.hidden_at IS NULL))
  EXECUTE FUNCTION comments_visibility_counts();
