-- CreateTable
CREATE TABLE "tag_stats" (
    "tag" TEXT NOT NULL,
    "claim_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tag_stats_pkey" PRIMARY KEY ("tag")
);

-- CreateTable
CREATE TABLE "tag_daily_counts" (
    "tag" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "claim_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "tag_daily_counts_pkey" PRIMARY KEY ("tag","day")
);

-- CreateIndex
CREATE INDEX "tag_stats_claim_count_tag_idx" ON "tag_stats"("claim_count" DESC, "tag");

-- CreateIndex
CREATE INDEX "comments_parent_id_created_at_idx" ON "comments"("parent_id", "created_at");

-- Hand-written: counters kept by triggers, so that every write path (the API, seed scripts, bulk
-- loads, tests inserting rows) keeps them exact and no request has to count a large table.

-- Claims per tag and per (tag, UTC day). The changes are summed per row and applied in tag order,
-- so concurrent claim inserts lock the counter rows in the same order (no deadlock).
CREATE FUNCTION bump_tag_counts(p_tags text[], p_days date[], p_deltas integer[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO tag_stats AS s (tag, claim_count)
  SELECT tag, sum(delta) FROM unnest(p_tags, p_deltas) AS c(tag, delta)
  GROUP BY tag HAVING sum(delta) <> 0 ORDER BY tag
  ON CONFLICT (tag) DO UPDATE SET claim_count = s.claim_count + EXCLUDED.claim_count;
  INSERT INTO tag_daily_counts AS d (tag, day, claim_count)
  SELECT tag, day, sum(delta) FROM unnest(p_tags, p_days, p_deltas) AS c(tag, day, delta)
  GROUP BY tag, day HAVING sum(delta) <> 0 ORDER BY tag, day
  ON CONFLICT (tag, day) DO UPDATE SET claim_count = d.claim_count + EXCLUDED.claim_count;
$$;

-- Statement level: a bulk insert of many claims costs one upsert per tag, not one per claim.
CREATE FUNCTION claims_tag_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(1))
  FROM (SELECT DISTINCT c.id, u.tag, (c.created_at AT TIME ZONE 'UTC')::date AS day
        FROM new_claims c, unnest(c.tags) AS u(tag)) t;
  RETURN NULL;
END $$;

CREATE FUNCTION claims_tag_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(-1))
  FROM (SELECT DISTINCT c.id, u.tag, (c.created_at AT TIME ZONE 'UTC')::date AS day
        FROM old_claims c, unnest(c.tags) AS u(tag)) t;
  RETURN NULL;
END $$;

-- Row level with a WHEN clause: the frequent claim updates (every vote) never call it.
CREATE FUNCTION claims_tag_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_tag_counts(array_agg(t.tag), array_agg(t.day), array_agg(t.delta))
  FROM (SELECT DISTINCT u.tag, (OLD.created_at AT TIME ZONE 'UTC')::date AS day, -1 AS delta FROM unnest(OLD.tags) AS u(tag)
        UNION ALL
        SELECT DISTINCT u.tag, (NEW.created_at AT TIME ZONE 'UTC')::date, 1 FROM unnest(NEW.tags) AS u(tag)) t;
  RETURN NULL;
END $$;

CREATE TRIGGER claims_tag_counts_insert AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_claims FOR EACH STATEMENT EXECUTE FUNCTION claims_tag_counts_insert();
CREATE TRIGGER claims_tag_counts_delete AFTER DELETE ON claims
  REFERENCING OLD TABLE AS old_claims FOR EACH STATEMENT EXECUTE FUNCTION claims_tag_counts_delete();
CREATE TRIGGER claims_tag_counts_update AFTER UPDATE OF tags, created_at ON claims
  FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION claims_tag_counts_update();

-- Total of claim votes, striped over 16 counter rows ('claim_votes:<n>', by backend) so concurrent
-- votes on different claims do not queue on one row; a transaction only ever holds one stripe.
CREATE FUNCTION claim_votes_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO n FROM new_votes;
  ELSE
    SELECT -count(*) INTO n FROM old_votes;
  END IF;
  IF n <> 0 THEN
    INSERT INTO platform_counters AS p (name, value) VALUES ('claim_votes:' || (pg_backend_pid() % 16), n)
    ON CONFLICT (name) DO UPDATE SET value = p.value + EXCLUDED.value;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER claim_votes_count_insert AFTER INSERT ON claim_votes
  REFERENCING NEW TABLE AS new_votes FOR EACH STATEMENT EXECUTE FUNCTION claim_votes_count();
CREATE TRIGGER claim_votes_count_delete AFTER DELETE ON claim_votes
  REFERENCING OLD TABLE AS old_votes FOR EACH STATEMENT EXECUTE FUNCTION claim_votes_count();

-- Existing rows.
INSERT INTO tag_stats (tag, claim_count)
SELECT tag, count(*) FROM (SELECT DISTINCT id, unnest(tags) AS tag FROM claims) t GROUP BY tag;
INSERT INTO tag_daily_counts (tag, day, claim_count)
SELECT tag, day, count(*)
FROM (SELECT DISTINCT id, unnest(tags) AS tag, (created_at AT TIME ZONE 'UTC')::date AS day FROM claims) t
GROUP BY tag, day;
INSERT INTO platform_counters (name, value) SELECT 'claim_votes:0', count(*) FROM claim_votes;
