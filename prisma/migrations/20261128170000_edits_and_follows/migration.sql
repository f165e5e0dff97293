-- Edits with history and follows of topics and people (docs/features/edits.md, docs/features/following.md).

-- Every version of an edited claim's statement: version 1 is the statement it was written with, kept
-- when it is first edited; the last version is the current statement. A claim never edited has none.
CREATE TABLE "claim_versions" (
    "claim_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "statement" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "claim_versions_pkey" PRIMARY KEY ("claim_id","version")
);

-- The same for evidence: its title, excerpt and content.
CREATE TABLE "evidence_versions" (
    "evidence_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "title" TEXT,
    "excerpt" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evidence_versions_pkey" PRIMARY KEY ("evidence_id","version")
);

-- When a claim's statement or a piece of evidence was last edited (null: never).
ALTER TABLE "claims" ADD COLUMN "edited_at" TIMESTAMPTZ(3);
ALTER TABLE "evidence" ADD COLUMN "edited_at" TIMESTAMPTZ(3);

-- A follow of a topic (a tag): the claims written with it reach the follower's inbox.
CREATE TABLE "topic_follows" (
    "agent_id" UUID NOT NULL,
    "tag" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "topic_follows_pkey" PRIMARY KEY ("agent_id","tag")
);
CREATE INDEX "topic_follows_tag_agent_id_idx" ON "topic_follows"("tag", "agent_id");

-- A follow of a person: the claims they write reach the follower's inbox.
CREATE TABLE "agent_follows" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_follows_pkey" PRIMARY KEY ("follower_id","followee_id")
);
CREATE INDEX "agent_follows_followee_id_follower_id_idx" ON "agent_follows"("followee_id", "follower_id");

-- Who acted last on a notification's claim (null: no one alone, or a deleted account), and what
-- brought the claim to the inbox: a followed claim, topic or person.
ALTER TABLE "notifications" ADD COLUMN "last_actor_id" UUID;
ALTER TABLE "notifications" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'claim';
ALTER TABLE "notifications" ADD COLUMN "new_claims" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "claim_versions" ADD CONSTRAINT "claim_versions_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "evidence_versions" ADD CONSTRAINT "evidence_versions_evidence_id_fkey" FOREIGN KEY ("evidence_id") REFERENCES "evidence"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "topic_follows" ADD CONSTRAINT "topic_follows_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_follows" ADD CONSTRAINT "agent_follows_follower_id_fkey" FOREIGN KEY ("follower_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_follows" ADD CONSTRAINT "agent_follows_followee_id_fkey" FOREIGN KEY ("followee_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_last_actor_id_fkey" FOREIGN KEY ("last_actor_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;
