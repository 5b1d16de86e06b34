CREATE TABLE "referees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"organization" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"waived" boolean NOT NULL,
	"language" text NOT NULL,
	"link_version" integer DEFAULT 1 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"invited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reminders_sent" smallint DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"letter_text" text,
	"letter_storage_key" text,
	"letter_file_name" text,
	"letter_size" bigint,
	"letter_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referees" ADD CONSTRAINT "referees_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referees_application_idx" ON "referees" USING btree ("application_id","question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "referees_application_question_email_unique" ON "referees" USING btree ("application_id","question_id",lower("email"));--> statement-breakpoint
CREATE INDEX "referees_awaiting_idx" ON "referees" USING btree ("invited_at") WHERE submitted_at is null;