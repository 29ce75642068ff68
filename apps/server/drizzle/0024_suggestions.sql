-- Issue 25 (ADR 038). Suggestions learned from a project's own reviews. A scope is one project, run kind and protocol
-- (none for runs not made from one); it counts the reviews since its last training and names the training job it
-- sent. Each training that succeeds adds a model version with its cross-validated figures; the forests themselves are
-- a JSON file in storage under the project (`projects/{p}/suggestion-models/{model}.json`), so they go with it.
CREATE TABLE "suggestion_scopes" (
  "scope_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "protocol_uuid" uuid,
  "reviews_since_training" integer DEFAULT 0 NOT NULL,
  "train_requested_at" timestamp with time zone,
  "job_id" text,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "suggestion_scopes_key_idx" ON "suggestion_scopes" USING btree ("project_uuid","kind",(coalesce("protocol_uuid", '00000000-0000-0000-0000-000000000000'::uuid)));--> statement-breakpoint
CREATE TABLE "suggestion_models" (
  "model_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "scope_uuid" uuid NOT NULL REFERENCES "suggestion_scopes"("scope_uuid") ON DELETE CASCADE,
  "project_uuid" uuid NOT NULL REFERENCES "projects"("project_uuid") ON DELETE CASCADE,
  "version" integer NOT NULL,
  "trained_at" timestamp with time zone DEFAULT now() NOT NULL,
  "examples" integer NOT NULL,
  "videos" integer NOT NULL,
  "runs" integer NOT NULL,
  "features" jsonb NOT NULL,
  "decisions" jsonb NOT NULL,
  "labels" jsonb NOT NULL,
  "storage_key" text,
  "size_bytes" integer DEFAULT 0 NOT NULL,
  "training_ms" integer DEFAULT 0 NOT NULL,
  "requested_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "suggestion_models_scope_version_idx" ON "suggestion_models" USING btree ("scope_uuid","version");--> statement-breakpoint
-- What a run's events get from a model, computed once per run and model version (a cache: a deleted event or run
-- takes its rows with it, and a restored run computes them again).
CREATE TABLE "event_suggestions" (
  "analysis_uuid" uuid NOT NULL,
  "event_id" integer NOT NULL,
  "model_uuid" uuid NOT NULL REFERENCES "suggestion_models"("model_uuid") ON DELETE CASCADE,
  "discard_share" double precision NOT NULL,
  "label_index" integer,
  "label_share" double precision,
  CONSTRAINT "event_suggestions_pk" PRIMARY KEY("analysis_uuid","event_id"),
  CONSTRAINT "event_suggestions_event_fk" FOREIGN KEY ("analysis_uuid","event_id")
    REFERENCES "analysis_events"("analysis_uuid","id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "event_suggestions_model_idx" ON "event_suggestions" USING btree ("model_uuid");--> statement-breakpoint
-- An accepted suggestion, as accepted: who, when, whether in bulk (nobody looked at the event), the model and what it
-- suggested. Beside reviewed_by/reviewed_at, which a bulk acceptance leaves empty (ADR 014's "a person decided").
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_accepted_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_in_bulk" boolean;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_model_uuid" uuid;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_model_version" integer;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_discard" boolean;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_label" text;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "suggestion_confidence" double precision;
