-- CreateIndex
CREATE INDEX "reports_reporter_id_idx" ON "reports"("reporter_id");

-- CreateIndex
CREATE INDEX "reports_resolved_by_idx" ON "reports"("resolved_by");

-- CreateIndex
CREATE INDEX "arguments_author_id_idx" ON "arguments"("author_id");
