-- CreateTable
CREATE TABLE "mcp_oauth_artifacts" (
    "kind" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "agent_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_oauth_artifacts_pkey" PRIMARY KEY ("kind","id")
);

-- CreateIndex
CREATE INDEX "mcp_oauth_artifacts_grant_id_idx" ON "mcp_oauth_artifacts"("grant_id");

-- CreateIndex
CREATE INDEX "mcp_oauth_artifacts_uid_idx" ON "mcp_oauth_artifacts"("uid");

-- CreateIndex
CREATE INDEX "mcp_oauth_artifacts_agent_id_kind_idx" ON "mcp_oauth_artifacts"("agent_id", "kind");

-- AddForeignKey
ALTER TABLE "mcp_oauth_artifacts" ADD CONSTRAINT "mcp_oauth_artifacts_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
