CREATE TABLE "partner_settings" (
	"partner_id" uuid PRIMARY KEY NOT NULL,
	"general" jsonb NOT NULL,
	"theme" jsonb NOT NULL,
	"admissions" jsonb NOT NULL,
	"api_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_partners" (
	"student_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_partners_student_id_partner_id_pk" PRIMARY KEY("student_id","partner_id")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text NOT NULL,
	"student_id" uuid,
	"staff_id" uuid,
	"submitted_by_staff" boolean DEFAULT false NOT NULL,
	"partner_id" uuid NOT NULL,
	"cycle_id" uuid,
	"program_id" uuid,
	"campus_id" uuid NOT NULL,
	"form_id" uuid,
	"profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"paid" boolean DEFAULT false NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"payment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"file_id" uuid NOT NULL,
	"reviewed_by" uuid,
	"review_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "published" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("name", ''))), 'A') || setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("address_city", ''))), 'B') || setweight(to_tsvector('simple'::regconfig, f_unaccent(coalesce("description", ''))), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "search_name" text GENERATED ALWAYS AS (f_unaccent(lower("name"))) STORED;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "work_email" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "approval_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "last_school_id" uuid;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "school_city" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "school_country" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "postal_code" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "graduation_year" integer;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "gpa" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "major" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "degree_type" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "exam_results" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "onboarding_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_settings" ADD CONSTRAINT "partner_settings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_partners" ADD CONSTRAINT "saved_partners_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_partners" ADD CONSTRAINT "saved_partners_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_partners_partner_idx" ON "saved_partners" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_reference_unique" ON "submissions" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "submissions_partner_created_idx" ON "submissions" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "submissions_student_idx" ON "submissions" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "submissions_created_idx" ON "submissions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_student_type_unique" ON "documents" USING btree ("student_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "files_storage_key_unique" ON "files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "files_owner_idx" ON "files" USING btree ("owner_id");--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_last_school_id_schools_id_fk" FOREIGN KEY ("last_school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partners_search_idx" ON "partners" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "partners_search_name_trgm_idx" ON "partners" USING gist ("search_name" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "partners_listed_name_idx" ON "partners" USING btree ("name") WHERE "partners"."status" = 'approved' and "partners"."published";--> statement-breakpoint
CREATE INDEX "partners_listed_filters_idx" ON "partners" USING btree ("institution_type","region","size","setting","tuition_usd","application_deadline","fields") WHERE "partners"."status" = 'approved' and "partners"."published";--> statement-breakpoint
CREATE INDEX "schools_name_trgm_idx" ON "schools" USING gin (f_unaccent(lower("name")) gin_trgm_ops);