DROP INDEX "email_outbox_due_idx";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push_queued_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "email_outbox_unqueued_idx" ON "email_outbox" USING btree ("created_at") WHERE queued_at is null;--> statement-breakpoint
CREATE INDEX "notifications_push_unqueued_idx" ON "notifications" USING btree ("created_at") WHERE push and push_queued_at is null;--> statement-breakpoint
ALTER TABLE "email_outbox" DROP COLUMN "next_attempt_at";--> statement-breakpoint
-- Delivery moves to the job queue: messages already settled never get a job; those still waiting (or
-- claimed by a worker that no longer exists) are relayed at the first start.
UPDATE "email_outbox" SET "queued_at" = coalesce("sent_at", "updated_at") WHERE "status" IN ('sent', 'failed');--> statement-breakpoint
UPDATE "email_outbox" SET "status" = 'pending' WHERE "status" = 'sending';--> statement-breakpoint
-- At commit, the instances listening on job_relay create the jobs of the new rows (lib/jobs/relay.ts).
CREATE FUNCTION "notify_job_relay"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('job_relay', TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "email_outbox_relay" AFTER INSERT ON "email_outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_job_relay"('email');--> statement-breakpoint
CREATE TRIGGER "notifications_push_relay" AFTER INSERT ON "notifications"
  FOR EACH ROW WHEN (NEW."push") EXECUTE FUNCTION "notify_job_relay"('push');
