-- Issue 21 (ADR 018): one packet index per video, read once when it is processed and reused by the thumbnail, the
-- clean-start proofs, the playback copy's pieces and analysis segments: every frame's time and keyframe flag,
-- binary (9 bytes a frame). The old keyframe-only indexes are a cache: dropped with their proofs (whose keys
-- number the old list's keyframes) and read again on a video's next run. The upload's probe now keeps the
-- stream's profile, so the processing job needs no second probe.
DELETE FROM "video_seek_indexes";--> statement-breakpoint
ALTER TABLE "video_seek_indexes" DROP COLUMN "seek_index";--> statement-breakpoint
ALTER TABLE "video_seek_indexes" ADD COLUMN "packet_index" bytea NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "profile" text;
