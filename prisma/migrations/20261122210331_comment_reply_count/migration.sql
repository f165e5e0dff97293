-- AlterTable
ALTER TABLE "comments" ADD COLUMN     "reply_count" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: existing replies counted once, then every insert of a reply counts itself on its
-- parent (whatever path writes), so listing a thread never counts a parent's replies.
UPDATE "comments" p SET "reply_count" = r.n
FROM (SELECT "parent_id", count(*)::int AS n FROM "comments" WHERE "parent_id" IS NOT NULL GROUP BY "parent_id") r
WHERE p."id" = r."parent_id";

CREATE FUNCTION count_comment_reply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "comments" SET "reply_count" = "reply_count" + 1 WHERE "id" = NEW."parent_id";
  RETURN NULL;
END $$;

CREATE TRIGGER comments_count_reply AFTER INSERT ON "comments"
FOR EACH ROW WHEN (NEW."parent_id" IS NOT NULL) EXECUTE FUNCTION count_comment_reply();
