-- Issue 23 (ADR 031). A protocol is a named set of analysis settings of a project; every edit is a new row of
-- protocol_versions and the protocol row names the current one. A deleted protocol keeps its rows (deleted_at), so
-- runs made from it still name a protocol and version that can be read back; its name is free again.
CREATE TABLE "protocols" (
  "protocol_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "name" text NOT NULL,
  "kind" text NOT NULL,
  "current_version" integer DEFAULT 1 NOT NULL,
  "created_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "deleted_at" timestamp with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "protocols_project_name_idx" ON "protocols" USING btree ("project_uuid",lower("name")) WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE TABLE "protocol_versions" (
  "protocol_uuid" uuid NOT NULL REFERENCES "protocols"("protocol_uuid") ON DELETE CASCADE,
  "version" integer NOT NULL,
  "name" text NOT NULL,
  "parameters" jsonb NOT NULL,
  "created_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "protocol_versions_protocol_uuid_version_pk" PRIMARY KEY("protocol_uuid","version")
);--> statement-breakpoint
-- What a run was made from, as recorded when it was made (no foreign key: the protocol row is never removed
-- while its project lives, and a run restored from the trash keeps what it recorded).
ALTER TABLE "analyses" ADD COLUMN "protocol_uuid" uuid;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "protocol_version" integer;--> statement-breakpoint
CREATE INDEX "analyses_protocol_idx" ON "analyses" USING btree ("protocol_uuid") WHERE "protocol_uuid" IS NOT NULL;
