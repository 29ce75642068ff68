ALTER TABLE "analysis_segments" ADD COLUMN "handoff" jsonb;--> statement-breakpoint
ALTER TABLE "playback_pieces" ADD COLUMN "frame_count" integer;--> statement-breakpoint
ALTER TABLE "playback_pieces" ADD COLUMN "worker" text;--> statement-breakpoint
ALTER TABLE "playback_pieces" ADD COLUMN "handoff" jsonb;
