CREATE TABLE "annotation_configs" (
	"annotation_config_uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_uuid" uuid NOT NULL,
	"video_uuid" uuid NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"hotkey" text,
	"order" integer DEFAULT 0 NOT NULL,
	"ranges" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"range_count" integer DEFAULT 0 NOT NULL,
	"total_duration_s" double precision DEFAULT 0 NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotation_configs" ADD CONSTRAINT "annotation_configs_project_uuid_projects_project_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("project_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_configs" ADD CONSTRAINT "annotation_configs_video_uuid_videos_video_uuid_fk" FOREIGN KEY ("video_uuid") REFERENCES "public"."videos"("video_uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_configs" ADD CONSTRAINT "annotation_configs_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_configs_video_name_idx" ON "annotation_configs" USING btree ("video_uuid",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_configs_video_hotkey_idx" ON "annotation_configs" USING btree ("video_uuid","hotkey") WHERE "annotation_configs"."hotkey" is not null;--> statement-breakpoint
CREATE INDEX "annotation_configs_project_idx" ON "annotation_configs" USING btree ("project_uuid","created_at");