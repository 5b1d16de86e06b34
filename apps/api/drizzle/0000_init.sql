CREATE TABLE "partners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'university' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"contact_email" text,
	"contact_phone" text,
	"contact_website" text,
	"address_street" text,
	"address_city" text NOT NULL,
	"address_country" text NOT NULL,
	"address_postal_code" text,
	"logo_url" text,
	"gallery_images" text[] DEFAULT '{}'::text[] NOT NULL,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"institution_type" text NOT NULL,
	"year_established" integer NOT NULL,
	"accreditation_body" text,
	"accreditation_number" text,
	"program_count" integer DEFAULT 0 NOT NULL,
	"region" text NOT NULL,
	"fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"program_levels" text[] DEFAULT '{}'::text[] NOT NULL,
	"tuition_usd" integer DEFAULT 0 NOT NULL,
	"tuition_min_usd" integer DEFAULT 0 NOT NULL,
	"tuition_max_usd" integer DEFAULT 0 NOT NULL,
	"avg_cost_after_aid_usd" integer DEFAULT 0 NOT NULL,
	"graduation_rate" real DEFAULT 0 NOT NULL,
	"acceptance_rate" real DEFAULT 0 NOT NULL,
	"sat_min" integer,
	"sat_max" integer,
	"student_faculty_ratio" real DEFAULT 0 NOT NULL,
	"total_enrollment" integer DEFAULT 0 NOT NULL,
	"size" text NOT NULL,
	"setting" text NOT NULL,
	"application_deadline" date,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schools" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"city" text NOT NULL,
	"state_province" text,
	"country" text NOT NULL,
	"levels_offered" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"preferred_name" text,
	"phone" text,
	"language" text DEFAULT 'en' NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"profile_completion" integer DEFAULT 25 NOT NULL,
	"last_activity" timestamp with time zone,
	"date_of_birth" date,
	"gender" text,
	"city" text,
	"country" text,
	"education_level" text,
	"is_complete" boolean DEFAULT false NOT NULL,
	"profile_picture" text,
	"nationality" text,
	"country_of_residence" text,
	"last_school" text,
	"current_applications" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"completed_applications" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"type" text NOT NULL,
	"partner_id" uuid,
	"contact_verified" boolean DEFAULT false NOT NULL,
	"terms_accepted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partners_slug_unique" ON "partners" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "partners_status_name_idx" ON "partners" USING btree ("status","name");--> statement-breakpoint
CREATE INDEX "partners_country_idx" ON "partners" USING btree ("address_country");--> statement-breakpoint
CREATE INDEX "schools_country_name_idx" ON "schools" USING btree ("country","name");--> statement-breakpoint
CREATE UNIQUE INDEX "students_user_unique" ON "students" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_partner_idx" ON "users" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_email_unique" ON "waitlist" USING btree (lower("email"));