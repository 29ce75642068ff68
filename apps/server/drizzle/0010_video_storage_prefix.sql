-- Video files move to projects/{p}/videos/{v}/ (no subject in the key), so a move never touches a file.
-- Videos stored until now keep their files where they are: their prefix is recorded here and never changes.
ALTER TABLE "videos" ADD COLUMN "legacy_storage_prefix" text;--> statement-breakpoint
UPDATE "videos" SET "legacy_storage_prefix" = 'projects/' || "project_uuid" || '/subjects/' || "subject_uuid" || '/videos/' || "video_uuid" || '/';--> statement-breakpoint
-- Runs of videos moved before this release still named the old subject (its deletion would have removed them).
UPDATE "analyses" SET "subject_uuid" = "videos"."subject_uuid" FROM "videos" WHERE "analyses"."video_uuid" = "videos"."video_uuid" AND "analyses"."subject_uuid" <> "videos"."subject_uuid";
