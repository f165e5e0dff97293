-- The opt-in mail digest of followed activity (docs/features/digest.md): how often (off, daily,
-- weekly) and when the last one went out (the next is due a period later).
ALTER TABLE "agents" ADD COLUMN "digest" TEXT NOT NULL DEFAULT 'off';
ALTER TABLE "agents" ADD COLUMN "digest_sent_at" TIMESTAMPTZ(3);

-- The accounts whose digest may be due: few, when most keep it off.
CREATE INDEX "agents_digest_due_idx" ON "agents"("digest_sent_at") WHERE "digest" <> 'off';
