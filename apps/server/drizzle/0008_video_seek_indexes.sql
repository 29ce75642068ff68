CREATE TABLE "video_seek_indexes" (
	"video_uuid" uuid PRIMARY KEY NOT NULL,
	"seek_index" jsonb NOT NULL,
	"proofs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_seek_indexes" ADD CONSTRAINT "video_seek_indexes_video_uuid_videos_video_uuid_fk" FOREIGN KEY ("video_uuid") REFERENCES "public"."videos"("video_uuid") ON DELETE cascade ON UPDATE no action;