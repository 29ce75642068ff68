-- Issue 19: the trash. A deleted project keeps its row (and everything under it) with deleted_at/purge_at; every
-- project-scoped read goes through the membership check, which no longer sees it. A deleted subject, video, run or
-- annotation track leaves the live tables: its rows (with everything its deletion took) are kept as one trash item,
-- its files stay where they are, and a restore inserts the rows back; the purge removes the item and its files.
ALTER TABLE "projects" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "deleted_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "purge_at" timestamp with time zone;--> statement-breakpoint
-- A project in the trash does not hold its name: the owner may create another of that name (restoring then says so).
DROP INDEX "projects_owner_name_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "projects_owner_name_idx" ON "projects" USING btree ("owner_id",lower("name")) WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "projects_purge_idx" ON "projects" USING btree ("purge_at") WHERE "deleted_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "trash_items" (
  "item_uuid" uuid PRIMARY KEY NOT NULL,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "name" text NOT NULL,
  "subject_uuid" uuid,
  "video_uuid" uuid,
  "deleted_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
  "purge_at" timestamp with time zone NOT NULL,
  "contains" jsonb NOT NULL,
  "rows" jsonb NOT NULL,
  "prefixes" jsonb DEFAULT '[]'::jsonb NOT NULL
);--> statement-breakpoint
CREATE INDEX "trash_items_project_idx" ON "trash_items" USING btree ("project_uuid","deleted_at" DESC,"item_uuid");--> statement-breakpoint
CREATE INDEX "trash_items_purge_idx" ON "trash_items" USING btree ("purge_at");
