CREATE TABLE "playback_pieces" (
	"video_uuid" uuid NOT NULL,
	"index" integer NOT NULL,
	"start_frame" integer NOT NULL,
	"end_frame" integer NOT NULL,
	"seek_s" double precision NOT NULL,
	"start_s" double precision,
	"end_s" double precision,
	"duration_s" double precision,
	"frames_done" integer DEFAULT 0 NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"job_id" text,
	CONSTRAINT "playback_pieces_video_uuid_index_pk" PRIMARY KEY("video_uuid","index")
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "playback_state" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "playback_progress" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "playback_error" text;--> statement-breakpoint
ALTER TABLE "playback_pieces" ADD CONSTRAINT "playback_pieces_video_uuid_videos_video_uuid_fk" FOREIGN KEY ("video_uuid") REFERENCES "public"."videos"("video_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "videos" SET "playback_state" = CASE WHEN "playback_key" IS NOT NULL THEN 'ready' WHEN "status" = 'ready' THEN 'not_needed' ELSE NULL END, "playback_progress" = CASE WHEN "playback_key" IS NOT NULL THEN 1 ELSE 0 END;
