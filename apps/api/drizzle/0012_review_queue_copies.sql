DROP INDEX "submissions_applicant_name_trgm_idx";--> statement-breakpoint
DROP INDEX "submissions_partner_score_idx";--> statement-breakpoint
DROP INDEX "submissions_partner_name_idx";--> statement-breakpoint
DROP INDEX "submissions_review_queue_idx";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "applicant_name_search" text GENERATED ALWAYS AS (f_unaccent(lower(btrim(coalesce(profile->>'first_name', '') || ' ' || coalesce(profile->>'last_name', ''))))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decision_state" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "decision_released" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The submission's copy of its decision's state and release, kept in step with every write of `decisions`.
CREATE FUNCTION "submissions_copy_decision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.submission_id <> NEW.submission_id) THEN
    UPDATE submissions SET decision_state = NULL, decision_released = false WHERE id = OLD.submission_id;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  UPDATE submissions
     SET decision_state = NEW.state, decision_released = NEW.released_at IS NOT NULL
   WHERE id = NEW.submission_id
     AND (decision_state IS DISTINCT FROM NEW.state OR decision_released <> (NEW.released_at IS NOT NULL));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "decisions_copy_to_submission" AFTER INSERT OR DELETE OR UPDATE OF "state", "released_at", "submission_id" ON "decisions" FOR EACH ROW EXECUTE FUNCTION "submissions_copy_decision"();--> statement-breakpoint
UPDATE "submissions" SET "decision_state" = d."state", "decision_released" = d."released_at" IS NOT NULL FROM "decisions" d WHERE d."submission_id" = "submissions"."id";--> statement-breakpoint
CREATE INDEX "submissions_partner_score_idx" ON "submissions" USING btree ("partner_id","score_average","created_at","id");--> statement-breakpoint
CREATE INDEX "submissions_partner_name_idx" ON "submissions" USING btree ("partner_id","applicant_name_search","id");--> statement-breakpoint
CREATE INDEX "submissions_review_queue_idx" ON "submissions" USING btree ("partner_id","created_at","id","paid","submitted_by_staff","status","campus_id","cycle_id","program_id","stage_id","assigned_to","score_average","applicant_name_search","reference","decision_state","decision_released");