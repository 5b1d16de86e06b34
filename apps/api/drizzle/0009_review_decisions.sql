CREATE TABLE "review_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_staff_id" uuid,
	"action" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_scores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"criteria" jsonb NOT NULL,
	"total" numeric(5, 2) NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "automatic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "verification_code" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "letter" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "applicant_name" text GENERATED ALWAYS AS (btrim(coalesce(profile->>'first_name', '') || ' ' || coalesce(profile->>'last_name', ''))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "stage_id" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "assigned_to" uuid;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "score_average" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "score_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "review_events" ADD CONSTRAINT "review_events_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_events" ADD CONSTRAINT "review_events_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_events" ADD CONSTRAINT "review_events_actor_staff_id_staff_id_fk" FOREIGN KEY ("actor_staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_notes" ADD CONSTRAINT "review_notes_author_id_staff_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_scores" ADD CONSTRAINT "review_scores_reviewer_id_staff_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_events_submission_idx" ON "review_events" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "review_notes_submission_idx" ON "review_notes" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "review_scores_submission_reviewer_unique" ON "review_scores" USING btree ("submission_id","reviewer_id");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_assigned_to_staff_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decisions_verification_code_unique" ON "decisions" USING btree ("verification_code");--> statement-breakpoint
CREATE INDEX "decisions_student_idx" ON "decisions" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "decisions_due_idx" ON "decisions" USING btree ("release_at") WHERE released_at is null and release_at is not null;--> statement-breakpoint
CREATE INDEX "submissions_partner_status_created_idx" ON "submissions" USING btree ("partner_id","status","created_at");--> statement-breakpoint
CREATE INDEX "submissions_partner_score_idx" ON "submissions" USING btree ("partner_id","score_average");--> statement-breakpoint
CREATE INDEX "submissions_partner_name_idx" ON "submissions" USING btree ("partner_id","applicant_name");--> statement-breakpoint
CREATE INDEX "submissions_applicant_name_trgm_idx" ON "submissions" USING gin (f_unaccent(lower("applicant_name")) gin_trgm_ops);