-- Issue 20 (ADR 014). Who decided on an event is kept apart from who last looked at it: reviewed_by/reviewed_at are
-- set once, by the first decision, and last_viewed_by/last_viewed_at follow every look. Marks made before this
-- migration were the last look or change; they become the last look and stay the decision's mark too (the first
-- decision was not kept, and nothing better is known).
ALTER TABLE "analysis_events" ADD COLUMN "last_viewed_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "last_viewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "resolved_by_id" integer REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
UPDATE "analysis_events" SET "last_viewed_by_id" = "reviewed_by_id", "last_viewed_at" = "reviewed_at" WHERE "reviewed_at" IS NOT NULL;--> statement-breakpoint
-- Blind scorers of a run and their decisions: the run's events stay the consensus.
CREATE TABLE "analysis_scorers" (
  "analysis_uuid" uuid NOT NULL REFERENCES "analyses"("analysis_uuid") ON DELETE CASCADE,
  "user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "version" integer DEFAULT 0 NOT NULL,
  "started_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "analysis_scorers_analysis_uuid_user_id_pk" PRIMARY KEY("analysis_uuid","user_id")
);--> statement-breakpoint
CREATE TABLE "scorer_events" (
  "analysis_uuid" uuid NOT NULL,
  "user_id" integer NOT NULL,
  "id" integer NOT NULL,
  "time" double precision NOT NULL,
  "original_time" double precision,
  "label" text,
  "flagged" boolean DEFAULT false NOT NULL,
  "discarded" boolean DEFAULT false NOT NULL,
  "decided_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "scorer_events_analysis_uuid_user_id_id_pk" PRIMARY KEY("analysis_uuid","user_id","id"),
  CONSTRAINT "scorer_events_scorer_fk" FOREIGN KEY ("analysis_uuid","user_id")
    REFERENCES "analysis_scorers"("analysis_uuid","user_id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "scorer_events_time_idx" ON "scorer_events" USING btree ("analysis_uuid","user_id","time");
