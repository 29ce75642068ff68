CREATE TABLE "analyses" (
	"analysis_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_uuid" uuid NOT NULL,
	"subject_uuid" uuid NOT NULL,
	"video_uuid" uuid NOT NULL,
	"kind" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"source_analysis_uuid" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"error" text,
	"software_version" text NOT NULL,
	"source" jsonb,
	"summary" jsonb,
	"series_key" text,
	"times_key" text,
	"series_csv_key" text,
	"sample_count" integer,
	"events_version" integer DEFAULT 0 NOT NULL,
	"next_event_id" integer DEFAULT 1 NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "analysis_events" (
	"analysis_uuid" uuid NOT NULL,
	"id" integer NOT NULL,
	"time" double precision NOT NULL,
	"original_time" double precision,
	"label" text,
	"flagged" boolean DEFAULT false NOT NULL,
	"discarded" boolean DEFAULT false NOT NULL,
	"updated_by_id" integer,
	"updated_at" timestamp with time zone,
	CONSTRAINT "analysis_events_analysis_uuid_id_pk" PRIMARY KEY("analysis_uuid","id")
);
--> statement-breakpoint
CREATE TABLE "analysis_segments" (
	"analysis_uuid" uuid NOT NULL,
	"index" integer NOT NULL,
	"start_frame" integer NOT NULL,
	"end_frame" integer NOT NULL,
	"frames_done" integer DEFAULT 0 NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"frame_count" integer,
	"job_id" text,
	CONSTRAINT "analysis_segments_analysis_uuid_index_pk" PRIMARY KEY("analysis_uuid","index")
);
--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_project_uuid_projects_project_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("project_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_subject_uuid_subjects_subject_uuid_fk" FOREIGN KEY ("subject_uuid") REFERENCES "public"."subjects"("subject_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_video_uuid_videos_video_uuid_fk" FOREIGN KEY ("video_uuid") REFERENCES "public"."videos"("video_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD CONSTRAINT "analysis_events_analysis_uuid_analyses_analysis_uuid_fk" FOREIGN KEY ("analysis_uuid") REFERENCES "public"."analyses"("analysis_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD CONSTRAINT "analysis_events_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_segments" ADD CONSTRAINT "analysis_segments_analysis_uuid_analyses_analysis_uuid_fk" FOREIGN KEY ("analysis_uuid") REFERENCES "public"."analyses"("analysis_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analyses_project_created_idx" ON "analyses" USING btree ("project_uuid","created_at");--> statement-breakpoint
CREATE INDEX "analyses_video_created_idx" ON "analyses" USING btree ("video_uuid","created_at");--> statement-breakpoint
CREATE INDEX "analysis_events_time_idx" ON "analysis_events" USING btree ("analysis_uuid","time");