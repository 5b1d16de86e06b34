ALTER TABLE "decisions" ADD COLUMN "message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "conditions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "conditions_status" text;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "conditions_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reply_by_on" date;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reply_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "reply_reminded_days" smallint;--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "lapsed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "decisions_reply_due_idx" ON "decisions" USING btree ("reply_by") WHERE response is null and lapsed_at is null and reply_by is not null and released_at is not null;