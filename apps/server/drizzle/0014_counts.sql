ALTER TABLE "projects" ADD COLUMN "video_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "analysis_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subjects" ADD COLUMN "video_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "subjects" s SET "video_count" = (SELECT count(*)::int FROM "videos" v WHERE v."subject_uuid" = s."subject_uuid");--> statement-breakpoint
UPDATE "projects" p SET
  "video_count" = (SELECT count(*)::int FROM "videos" v WHERE v."project_uuid" = p."project_uuid"),
  "analysis_count" = (SELECT count(*)::int FROM "analyses" a WHERE a."project_uuid" = p."project_uuid");--> statement-breakpoint
-- The lists and the project's counts read subjects.video_count, projects.video_count and projects.analysis_count:
-- these triggers keep them exact in the same transaction as the change, once per statement for inserts and deletes
-- (a bulk change updates each subject and project once), per row for a row moved to another subject or project.
CREATE FUNCTION "videos_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subjects" s SET "video_count" = s."video_count" + n.c
  FROM (SELECT "subject_uuid", count(*)::int AS c FROM new_videos GROUP BY "subject_uuid") n
  WHERE s."subject_uuid" = n."subject_uuid";
  UPDATE "projects" p SET "video_count" = p."video_count" + n.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM new_videos GROUP BY "project_uuid") n
  WHERE p."project_uuid" = n."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "videos_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "subjects" s SET "video_count" = s."video_count" - o.c
  FROM (SELECT "subject_uuid", count(*)::int AS c FROM old_videos GROUP BY "subject_uuid") o
  WHERE s."subject_uuid" = o."subject_uuid";
  UPDATE "projects" p SET "video_count" = p."video_count" - o.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM old_videos GROUP BY "project_uuid") o
  WHERE p."project_uuid" = o."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "videos_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."subject_uuid" IS DISTINCT FROM NEW."subject_uuid" THEN
    UPDATE "subjects" SET "video_count" = "video_count" - 1 WHERE "subject_uuid" = OLD."subject_uuid";
    UPDATE "subjects" SET "video_count" = "video_count" + 1 WHERE "subject_uuid" = NEW."subject_uuid";
  END IF;
  IF OLD."project_uuid" IS DISTINCT FROM NEW."project_uuid" THEN
    UPDATE "projects" SET "video_count" = "video_count" - 1 WHERE "project_uuid" = OLD."project_uuid";
    UPDATE "projects" SET "video_count" = "video_count" + 1 WHERE "project_uuid" = NEW."project_uuid";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "videos_count_insert" AFTER INSERT ON "videos" REFERENCING NEW TABLE AS new_videos
  FOR EACH STATEMENT EXECUTE FUNCTION "videos_count_inserted"();--> statement-breakpoint
CREATE TRIGGER "videos_count_delete" AFTER DELETE ON "videos" REFERENCING OLD TABLE AS old_videos
  FOR EACH STATEMENT EXECUTE FUNCTION "videos_count_deleted"();--> statement-breakpoint
CREATE TRIGGER "videos_count_move" AFTER UPDATE OF "subject_uuid", "project_uuid" ON "videos"
  FOR EACH ROW WHEN (OLD."subject_uuid" IS DISTINCT FROM NEW."subject_uuid" OR OLD."project_uuid" IS DISTINCT FROM NEW."project_uuid")
  EXECUTE FUNCTION "videos_count_moved"();--> statement-breakpoint
CREATE FUNCTION "analyses_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "analysis_count" = p."analysis_count" + n.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM new_analyses GROUP BY "project_uuid") n
  WHERE p."project_uuid" = n."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "analyses_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "analysis_count" = p."analysis_count" - o.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM old_analyses GROUP BY "project_uuid") o
  WHERE p."project_uuid" = o."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "analyses_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "analysis_count" = "analysis_count" - 1 WHERE "project_uuid" = OLD."project_uuid";
  UPDATE "projects" SET "analysis_count" = "analysis_count" + 1 WHERE "project_uuid" = NEW."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "analyses_count_insert" AFTER INSERT ON "analyses" REFERENCING NEW TABLE AS new_analyses
  FOR EACH STATEMENT EXECUTE FUNCTION "analyses_count_inserted"();--> statement-breakpoint
CREATE TRIGGER "analyses_count_delete" AFTER DELETE ON "analyses" REFERENCING OLD TABLE AS old_analyses
  FOR EACH STATEMENT EXECUTE FUNCTION "analyses_count_deleted"();--> statement-breakpoint
CREATE TRIGGER "analyses_count_move" AFTER UPDATE OF "project_uuid" ON "analyses"
  FOR EACH ROW WHEN (OLD."project_uuid" IS DISTINCT FROM NEW."project_uuid") EXECUTE FUNCTION "analyses_count_moved"();
