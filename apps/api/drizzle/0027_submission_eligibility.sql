DROP INDEX "submissions_review_queue_idx";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "eligibility" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "eligibility_status" text GENERATED ALWAYS AS (eligibility->>'status') STORED;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "eligibility_rank" smallint GENERATED ALWAYS AS (case eligibility->>'status' when 'eligible' then 0 when 'needs_review' then 1 when 'not_eligible' then 2 end) STORED;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "eligibility_points" numeric(5, 2) GENERATED ALWAYS AS ((eligibility->>'points')::numeric(5,2)) STORED;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "auto_decide" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "auto_decision_queued_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "submissions_auto_decision_unqueued_idx" ON "submissions" USING btree ("created_at") WHERE auto_decide and auto_decision_queued_at is null;--> statement-breakpoint
CREATE INDEX "submissions_review_queue_idx" ON "submissions" USING btree ("partner_id","created_at","id","paid","submitted_by_staff","status","campus_id","cycle_id","program_id","stage_id","assigned_to","score_average","applicant_name_search","reference","decision_state","decision_released","eligibility_rank","eligibility_points");--> statement-breakpoint
-- At commit, the instances listening on job_relay create the automatic decision's job (lib/jobs/relay.ts).
CREATE TRIGGER "submissions_auto_decision_relay" AFTER INSERT ON "submissions"
  FOR EACH ROW WHEN (NEW."auto_decide") EXECUTE FUNCTION "notify_job_relay"('auto-decision');
