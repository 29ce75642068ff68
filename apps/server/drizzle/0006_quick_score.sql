CREATE TABLE "project_labels" (
	"project_uuid" uuid NOT NULL,
	"name" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_positions" (
	"user_id" integer NOT NULL,
	"analysis_uuid" uuid NOT NULL,
	"event_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_positions_user_id_analysis_uuid_pk" PRIMARY KEY("user_id","analysis_uuid")
);
--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "reviewed_by_id" integer;--> statement-breakpoint
ALTER TABLE "analysis_events" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_labels" ADD CONSTRAINT "project_labels_project_uuid_projects_project_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("project_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_labels" ADD CONSTRAINT "project_labels_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_positions" ADD CONSTRAINT "review_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_positions" ADD CONSTRAINT "review_positions_analysis_uuid_analyses_analysis_uuid_fk" FOREIGN KEY ("analysis_uuid") REFERENCES "public"."analyses"("analysis_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_labels_name_idx" ON "project_labels" USING btree ("project_uuid",lower("name"));--> statement-breakpoint
ALTER TABLE "analysis_events" ADD CONSTRAINT "analysis_events_reviewed_by_id_users_id_fk" FOREIGN KEY ("reviewed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "project_labels" ("project_uuid", "name")
SELECT DISTINCT "analyses"."project_uuid", "analysis_events"."label"
FROM "analysis_events" INNER JOIN "analyses" ON "analyses"."analysis_uuid" = "analysis_events"."analysis_uuid"
WHERE "analysis_events"."label" IS NOT NULL AND "analysis_events"."label" <> ''
ON CONFLICT DO NOTHING;
