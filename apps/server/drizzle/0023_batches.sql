-- Issue 23 (ADR 035). A batch applies one protocol version to many videos of a project at once; each of its runs
-- is an ordinary analysis run, linked here with the video's own adjustments. A retry adds a new run (the next
-- attempt) for the video; the batch shows the newest. A run's link goes to the trash with the run (and comes back
-- with it); the batch itself goes only with its project.
CREATE TABLE "batches" (
  "batch_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "protocol_uuid" uuid NOT NULL REFERENCES "protocols"("protocol_uuid") ON DELETE CASCADE,
  "protocol_version" integer NOT NULL,
  "kind" text NOT NULL,
  "selection" jsonb NOT NULL,
  "created_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "batches_project_created_idx" ON "batches" USING btree ("project_uuid","created_at");--> statement-breakpoint
CREATE INDEX "batches_protocol_idx" ON "batches" USING btree ("protocol_uuid");--> statement-breakpoint
CREATE TABLE "batch_runs" (
  "analysis_uuid" uuid PRIMARY KEY NOT NULL REFERENCES "analyses"("analysis_uuid") ON DELETE CASCADE,
  "batch_uuid" uuid NOT NULL REFERENCES "batches"("batch_uuid") ON DELETE CASCADE,
  "video_uuid" uuid NOT NULL REFERENCES "videos"("video_uuid") ON DELETE CASCADE,
  "attempt" integer DEFAULT 1 NOT NULL,
  "overrides" jsonb,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "batch_runs_batch_video_idx" ON "batch_runs" USING btree ("batch_uuid","video_uuid","attempt");
