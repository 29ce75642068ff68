ALTER TABLE "videos" ADD COLUMN "pixel_format" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "full_range" boolean;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "start_time" double precision;