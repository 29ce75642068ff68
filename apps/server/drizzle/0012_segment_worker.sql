ALTER TABLE "analysis_segments" ADD COLUMN "worker" text;
