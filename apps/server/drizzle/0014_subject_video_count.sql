ALTER TABLE "subjects" ADD COLUMN "video_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "subjects" s SET "video_count" = (SELECT count(*)::int FROM "videos" v WHERE v."subject_uuid" = s."subject_uuid");--> statement-breakpoint
-- The subjects lists read subjects.video_count: these triggers keep it exact in the same transaction as the change,
-- once per statement for inserts and deletes (a bulk change updates each subject once), per row for a video moved to
-- another subject.
CREATE FUNCTION "videos_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subjects" s SET "video_count" = s."video_count" + n.c
  FROM (SELECT "subject_uuid", count(*)::int AS c FROM new_videos GROUP BY "subject_uuid") n
  WHERE s."subject_uuid" = n."subject_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "videos_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subjects" s SET "video_count" = s."video_count" - o.c
  FROM (SELECT "subject_uuid", count(*)::int AS c FROM old_videos GROUP BY "subject_uuid") o
  WHERE s."subject_uuid" = o."subject_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "videos_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subjects" SET "video_count" = "video_count" - 1 WHERE "subject_uuid" = OLD."subject_uuid";
  UPDATE "subjects" SET "video_count" = "video_count" + 1 WHERE "subject_uuid" = NEW."subject_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "videos_count_insert" AFTER INSERT ON "videos" REFERENCING NEW TABLE AS new_videos
  FOR EACH STATEMENT EXECUTE FUNCTION "videos_count_inserted"();--> statement-breakpoint
CREATE TRIGGER "videos_count_delete" AFTER DELETE ON "videos" REFERENCING OLD TABLE AS old_videos
  FOR EACH STATEMENT EXECUTE FUNCTION "videos_count_deleted"();--> statement-breakpoint
CREATE TRIGGER "videos_count_move" AFTER UPDATE OF "subject_uuid" ON "videos"
  FOR EACH ROW WHEN (OLD."subject_uuid" IS DISTINCT FROM NEW."subject_uuid") EXECUTE FUNCTION "videos_count_moved"();
