-- Issue 20: the project's "Getting started" checklist ticks "Export results" from the server's own record: the first
-- time any of the project's export downloads answered (a run's table, the project summary, a track, an agreement).
ALTER TABLE "projects" ADD COLUMN "first_export_at" timestamp with time zone;
