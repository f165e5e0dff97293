-- CreateEnum
CREATE TYPE "AccountTokenPurpose" AS ENUM ('password_reset', 'email_verification');

-- DropForeignKey
ALTER TABLE "vote_outcomes" DROP CONSTRAINT "vote_outcomes_agent_id_fkey";

-- AlterTable
ALTER TABLE "vote_outcomes" ALTER COLUMN "agent_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "account_tokens" (
    "token_hash" TEXT NOT NULL,
    "agent_id" UUID NOT NULL,
    "purpose" "AccountTokenPurpose" NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "retired_usernames" (
    "key_hash" TEXT NOT NULL,
    "retired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "retired_usernames_pkey" PRIMARY KEY ("key_hash")
);

-- CreateIndex
CREATE INDEX "account_tokens_agent_id_purpose_idx" ON "account_tokens"("agent_id", "purpose");

-- CreateIndex
CREATE INDEX "account_tokens_expires_at_idx" ON "account_tokens"("expires_at");

-- AddForeignKey
ALTER TABLE "vote_outcomes" ADD CONSTRAINT "vote_outcomes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Outcome records are history: the one change allowed is forgetting whose record it was, when that
-- person deletes their account (the foreign key's ON DELETE SET NULL, or the deletion itself).
CREATE OR REPLACE FUNCTION vote_outcomes_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.agent_id IS NOT NULL AND NEW.agent_id IS NULL
     AND (to_jsonb(NEW) - 'agent_id') = (to_jsonb(OLD) - 'agent_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'vote_outcomes rows are immutable: a resolved outcome is history';
END $$;

-- The audit log stays append-only; an entry's actor may only become the deleted-account tombstone.
DROP TRIGGER moderation_audit_append_only ON moderation_audit;
CREATE OR REPLACE FUNCTION moderation_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.actor_id = '00000000-0000-4000-8000-000000000001'::uuid
     AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'moderation_audit is append-only';
END $$;
CREATE TRIGGER moderation_audit_append_only BEFORE UPDATE OR DELETE ON moderation_audit
  FOR EACH ROW EXECUTE FUNCTION moderation_audit_append_only();

-- Deleted accounts' writings are attributed to one tombstone agent (created by the first deletion,
-- id 00000000-0000-4000-8000-000000000001, username "deleted"); nobody may register that name.
INSERT INTO retired_usernames (key_hash) VALUES (encode(sha256('deleted'::bytea), 'hex'))
ON CONFLICT DO NOTHING;
