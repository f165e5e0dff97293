-- Outcome events in the inbox (docs/features/checks.md#notifications): a thread counts the steps of
-- its claim's check toward an outcome (proposed, disputed, final) beside votes, evidence and the rest.
ALTER TABLE "notifications" ADD COLUMN "outcomes" INTEGER NOT NULL DEFAULT 0;
