ALTER TABLE "projects" ADD COLUMN "subject_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "projects" p SET "subject_count" = (SELECT count(*)::int FROM "subjects" s WHERE s."project_uuid" = p."project_uuid");--> statement-breakpoint
-- The subjects list reads its count from projects.subject_count: these triggers keep it exact in the same transaction
-- as the change, once per statement (a bulk insert or delete updates each project once).
CREATE FUNCTION "subjects_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "subject_count" = p."subject_count" + n.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM new_subjects GROUP BY "project_uuid") n
  WHERE p."project_uuid" = n."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "subjects_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" p SET "subject_count" = p."subject_count" - o.c
  FROM (SELECT "project_uuid", count(*)::int AS c FROM old_subjects GROUP BY "project_uuid") o
  WHERE p."project_uuid" = o."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "subjects_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "subject_count" = "subject_count" - 1 WHERE "project_uuid" = OLD."project_uuid";
  UPDATE "projects" SET "subject_count" = "subject_count" + 1 WHERE "project_uuid" = NEW."project_uuid";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "subjects_count_insert" AFTER INSERT ON "subjects" REFERENCING NEW TABLE AS new_subjects
  FOR EACH STATEMENT EXECUTE FUNCTION "subjects_count_inserted"();--> statement-breakpoint
CREATE TRIGGER "subjects_count_delete" AFTER DELETE ON "subjects" REFERENCING OLD TABLE AS old_subjects
  FOR EACH STATEMENT EXECUTE FUNCTION "subjects_count_deleted"();--> statement-breakpoint
CREATE TRIGGER "subjects_count_move" AFTER UPDATE OF "project_uuid" ON "subjects"
  FOR EACH ROW WHEN (OLD."project_uuid" IS DISTINCT FROM NEW."project_uuid") EXECUTE FUNCTION "subjects_count_moved"();
