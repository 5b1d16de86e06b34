ALTER TABLE "decisions" ADD COLUMN "waitlist_rank" integer;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "proposed_at" timestamp with time zone;