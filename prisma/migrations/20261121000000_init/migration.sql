-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Tier" AS ENUM ('new', 'established', 'trusted');

-- CreateEnum
CREATE TYPE "ComplexityTier" AS ENUM ('simple', 'moderate', 'complex', 'contested');

-- CreateEnum
CREATE TYPE "EvidencePosition" AS ENUM ('supports', 'opposes', 'neutral');

-- CreateEnum
CREATE TYPE "EvidenceContentType" AS ENUM ('text', 'link', 'file', 'code', 'data');

-- CreateEnum
CREATE TYPE "VoteDirection" AS ENUM ('up', 'down');

-- CreateEnum
CREATE TYPE "ReputationReason" AS ENUM ('evidence_upvoted', 'evidence_downvoted', 'evidence_vote_removed', 'vote_aligned', 'vote_opposed');

-- CreateEnum
CREATE TYPE "VoteOutcome" AS ENUM ('aligned', 'opposed', 'neutral');

-- CreateTable
CREATE TABLE "agents" (
    "id" UUID NOT NULL,
    "email" TEXT,
    "email_verified" TIMESTAMPTZ(3),
    "username" TEXT NOT NULL,
    "username_key" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "password_hash" TEXT,
    "reputation" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tier" "Tier" NOT NULL DEFAULT 'new',
    "avatar_url" TEXT,
    "bio" TEXT,
    "resolved_votes" INTEGER NOT NULL DEFAULT 0,
    "correct_resolved_votes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "session_token" TEXT NOT NULL,
    "agent_id" UUID NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL
);

-- CreateTable
CREATE TABLE "oauth_exchange_codes" (
    "code_hash" TEXT NOT NULL,
    "agent_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_exchange_codes_pkey" PRIMARY KEY ("code_hash")
);

-- CreateTable
CREATE TABLE "refresh_token_families" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_token_families_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "family_id" UUID NOT NULL,
    "parent_id" UUID,
    "used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claims" (
    "id" UUID NOT NULL,
    "statement" TEXT NOT NULL,
    "complexity_tier" "ComplexityTier" NOT NULL DEFAULT 'simple',
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "author_id" UUID NOT NULL,
    "weighted_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "weight_total" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "gradient" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "vote_count" INTEGER NOT NULL DEFAULT 0,
    "evidence_count" INTEGER NOT NULL DEFAULT 0,
    "comment_count" INTEGER NOT NULL DEFAULT 0,
    "resolved_at" TIMESTAMPTZ(3),
    "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('english', "statement")) STORED,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_parents" (
    "claim_id" UUID NOT NULL,
    "parent_id" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "claim_parents_pkey" PRIMARY KEY ("claim_id","parent_id")
);

-- CreateTable
CREATE TABLE "claim_votes" (
    "id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL,
    "outcome" "VoteOutcome",
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "claim_votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gradient_history" (
    "id" BIGSERIAL NOT NULL,
    "claim_id" UUID NOT NULL,
    "gradient" DOUBLE PRECISION NOT NULL,
    "vote_count" INTEGER NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gradient_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence" (
    "id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "position" "EvidencePosition" NOT NULL,
    "content_type" "EvidenceContentType" NOT NULL,
    "content" TEXT NOT NULL,
    "upvotes" INTEGER NOT NULL DEFAULT 0,
    "downvotes" INTEGER NOT NULL DEFAULT 0,
    "vote_score" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence_votes" (
    "id" UUID NOT NULL,
    "evidence_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "direction" "VoteDirection" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "evidence_votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bookmarks" (
    "agent_id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bookmarks_pkey" PRIMARY KEY ("agent_id","claim_id")
);

-- CreateTable
CREATE TABLE "follows" (
    "agent_id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "notify_on_vote" BOOLEAN NOT NULL DEFAULT true,
    "notify_on_evidence" BOOLEAN NOT NULL DEFAULT true,
    "notify_on_comment" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "follows_pkey" PRIMARY KEY ("agent_id","claim_id")
);

-- CreateTable
CREATE TABLE "reputation_events" (
    "id" BIGSERIAL NOT NULL,
    "agent_id" UUID NOT NULL,
    "delta" DOUBLE PRECISION NOT NULL,
    "reputation_score" DOUBLE PRECISION NOT NULL,
    "reason" "ReputationReason" NOT NULL,
    "claim_id" UUID,
    "evidence_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reputation_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comments" (
    "id" UUID NOT NULL,
    "claim_id" UUID NOT NULL,
    "parent_id" UUID,
    "author_id" UUID NOT NULL,
    "content" TEXT NOT NULL,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "is_edited" BOOLEAN NOT NULL DEFAULT false,
    "is_deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_counters" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "platform_counters_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "agents_email_key" ON "agents"("email");

-- CreateIndex
CREATE UNIQUE INDEX "agents_username_key_key" ON "agents"("username_key");

-- CreateIndex
CREATE INDEX "agents_reputation_idx" ON "agents"("reputation" DESC);

-- CreateIndex
CREATE INDEX "accounts_agent_id_idx" ON "accounts"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_session_token_key" ON "sessions"("session_token");

-- CreateIndex
CREATE INDEX "sessions_agent_id_idx" ON "sessions"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_token_key" ON "verification_tokens"("token");

-- CreateIndex
CREATE UNIQUE INDEX "verification_tokens_identifier_token_key" ON "verification_tokens"("identifier", "token");

-- CreateIndex
CREATE INDEX "oauth_exchange_codes_agent_id_idx" ON "oauth_exchange_codes"("agent_id");

-- CreateIndex
CREATE INDEX "refresh_token_families_agent_id_idx" ON "refresh_token_families"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_tokens_family_id_idx" ON "refresh_tokens"("family_id");

-- CreateIndex
CREATE INDEX "claims_created_at_id_idx" ON "claims"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "claims_gradient_id_idx" ON "claims"("gradient", "id");

-- CreateIndex
CREATE INDEX "claims_vote_count_id_idx" ON "claims"("vote_count", "id");

-- CreateIndex
CREATE INDEX "claims_tags_idx" ON "claims" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "claims_author_id_created_at_idx" ON "claims"("author_id", "created_at");

-- CreateIndex
CREATE INDEX "claim_parents_parent_id_idx" ON "claim_parents"("parent_id");

-- CreateIndex
CREATE INDEX "claim_votes_agent_id_created_at_idx" ON "claim_votes"("agent_id", "created_at");

-- CreateIndex
CREATE INDEX "claim_votes_created_at_idx" ON "claim_votes"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "claim_votes_claim_id_agent_id_key" ON "claim_votes"("claim_id", "agent_id");

-- CreateIndex
CREATE INDEX "gradient_history_claim_id_id_idx" ON "gradient_history"("claim_id", "id");

-- CreateIndex
CREATE INDEX "evidence_claim_id_vote_score_id_idx" ON "evidence"("claim_id", "vote_score", "id");

-- CreateIndex
CREATE INDEX "evidence_claim_id_created_at_id_idx" ON "evidence"("claim_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "evidence_created_at_idx" ON "evidence"("created_at");

-- CreateIndex
CREATE INDEX "evidence_author_id_created_at_idx" ON "evidence"("author_id", "created_at");

-- CreateIndex
CREATE INDEX "evidence_votes_agent_id_idx" ON "evidence_votes"("agent_id");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_votes_evidence_id_agent_id_key" ON "evidence_votes"("evidence_id", "agent_id");

-- CreateIndex
CREATE INDEX "bookmarks_agent_id_created_at_idx" ON "bookmarks"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "follows_agent_id_created_at_idx" ON "follows"("agent_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "reputation_events_agent_id_id_idx" ON "reputation_events"("agent_id", "id");

-- CreateIndex
CREATE INDEX "comments_claim_id_created_at_idx" ON "comments"("claim_id", "created_at");

-- CreateIndex
CREATE INDEX "comments_created_at_idx" ON "comments"("created_at");

-- CreateIndex
CREATE INDEX "comments_author_id_created_at_idx" ON "comments"("author_id", "created_at");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_exchange_codes" ADD CONSTRAINT "oauth_exchange_codes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_token_families" ADD CONSTRAINT "refresh_token_families_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_family_id_fkey" FOREIGN KEY ("family_id") REFERENCES "refresh_token_families"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claims" ADD CONSTRAINT "claims_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_parents" ADD CONSTRAINT "claim_parents_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_parents" ADD CONSTRAINT "claim_parents_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_votes" ADD CONSTRAINT "claim_votes_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_votes" ADD CONSTRAINT "claim_votes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gradient_history" ADD CONSTRAINT "gradient_history_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence_votes" ADD CONSTRAINT "evidence_votes_evidence_id_fkey" FOREIGN KEY ("evidence_id") REFERENCES "evidence"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evidence_votes" ADD CONSTRAINT "evidence_votes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookmarks" ADD CONSTRAINT "bookmarks_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follows" ADD CONSTRAINT "follows_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reputation_events" ADD CONSTRAINT "reputation_events_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "comments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: what the Prisma schema cannot express.
-- Full-text search over statements (the generated column above).
CREATE INDEX "claims_search_vector_idx" ON "claims" USING GIN ("search_vector");
-- The unfiltered claim total is read from here instead of count(*) on every list call.
INSERT INTO "platform_counters" ("name", "value") VALUES ('claims', 0);
