-- Arguments and similar claims (docs/features/arguments.md).

-- Trigram similarity. Extensions are one per database, so it lives in the public schema whatever
-- schema the service runs in (the queries and the index name its functions there, public.*); the
-- migrations' advisory lock keeps two instances from creating it at once.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- CreateEnum
CREATE TYPE "ArgumentStance" AS ENUM ('supports', 'opposes');

-- AlterTable
ALTER TABLE "claims" ADD COLUMN     "statement_key" TEXT;

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "argument_id" UUID;

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "arguments" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "arguments" (
    "id" UUID NOT NULL,
    "parent_claim_id" UUID NOT NULL,
    "child_claim_id" UUID NOT NULL,
    "stance" "ArgumentStance" NOT NULL,
    "author_id" UUID NOT NULL,
    "relevance_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "relevance_votes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "arguments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "relevance_votes" (
    "argument_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "relevance_votes_pkey" PRIMARY KEY ("argument_id","agent_id")
);

-- CreateIndex
CREATE INDEX "arguments_child_claim_id_idx" ON "arguments"("child_claim_id");

-- CreateIndex
CREATE INDEX "arguments_parent_claim_id_created_at_id_idx" ON "arguments"("parent_claim_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "arguments_parent_claim_id_child_claim_id_key" ON "arguments"("parent_claim_id", "child_claim_id");

-- CreateIndex
CREATE INDEX "relevance_votes_agent_id_idx" ON "relevance_votes"("agent_id");

-- The folded statement: lower case, every run of whitespace and punctuation one space, trimmed; md5
-- of it, so that the unique index holds statements of any length. One definition, used by the
-- trigger and by the look-up of the claim a refused duplicate names (services/similar-claims.ts).
CREATE FUNCTION claim_statement_key(statement text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN md5(btrim(regexp_replace(lower(statement), '[[:space:][:punct:]]+', ' ', 'g')));

CREATE FUNCTION claims_set_statement_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.statement_key := claim_statement_key(NEW.statement);
  RETURN NEW;
END $$;

CREATE TRIGGER claims_statement_key BEFORE INSERT OR UPDATE OF statement ON claims
  FOR EACH ROW EXECUTE FUNCTION claims_set_statement_key();

-- Existing claims: the oldest of each folded statement takes the key; later copies (written before
-- duplicates were refused) keep a null key and stay as they are.
UPDATE claims c SET statement_key = k.key
FROM (
  SELECT id, claim_statement_key(statement) AS key,
         row_number() OVER (PARTITION BY claim_statement_key(statement) ORDER BY created_at, id) AS n
  FROM claims
) k
WHERE k.id = c.id AND k.n = 1;

-- CreateIndex
CREATE UNIQUE INDEX "claims_statement_key_key" ON "claims"("statement_key");

-- Similar claims and the typo fallback of the search: trigram operators through this index.
CREATE INDEX "claims_statement_trgm_idx" ON "claims" USING gin ("statement" public.gin_trgm_ops);

-- AddForeignKey
ALTER TABLE "arguments" ADD CONSTRAINT "arguments_parent_claim_id_fkey" FOREIGN KEY ("parent_claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arguments" ADD CONSTRAINT "arguments_child_claim_id_fkey" FOREIGN KEY ("child_claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "arguments" ADD CONSTRAINT "arguments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "relevance_votes" ADD CONSTRAINT "relevance_votes_argument_id_fkey" FOREIGN KEY ("argument_id") REFERENCES "arguments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "relevance_votes" ADD CONSTRAINT "relevance_votes_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
