-- Issue 24 (ADR 030). Pose-estimation sets imported for a video (DeepLabCut, SLEAP): what each holds; the points are a
-- Float32 file under the video's storage prefix, so they go with the video (trash, purge) like its other files.
CREATE TABLE "pose_sets" (
  "pose_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "video_uuid" uuid NOT NULL REFERENCES "videos"("video_uuid") ON DELETE CASCADE,
  "name" text NOT NULL,
  "format" text NOT NULL,
  "individuals" jsonb NOT NULL,
  "bodyparts" jsonb NOT NULL,
  "keypoints" jsonb NOT NULL,
  "edges" jsonb NOT NULL,
  "frame_count" integer NOT NULL,
  "has_likelihood" boolean NOT NULL,
  "source" jsonb NOT NULL,
  "storage_key" text NOT NULL,
  "size_bytes" bigint DEFAULT 0 NOT NULL,
  "created_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "pose_sets_video_created_idx" ON "pose_sets" USING btree ("video_uuid","created_at");
