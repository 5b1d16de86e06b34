ALTER TABLE "staff" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "work_email" text;