CREATE TABLE "deferral_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"decision_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"from_cycle_id" uuid NOT NULL,
	"to_cycle_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"decided_by" uuid,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "deferred_to_cycle_id" uuid;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_from_cycle_id_cycles_id_fk" FOREIGN KEY ("from_cycle_id") REFERENCES "public"."cycles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_to_cycle_id_cycles_id_fk" FOREIGN KEY ("to_cycle_id") REFERENCES "public"."cycles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deferral_requests" ADD CONSTRAINT "deferral_requests_decided_by_staff_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deferral_requests_decision_idx" ON "deferral_requests" USING btree ("decision_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deferral_requests_pending_unique" ON "deferral_requests" USING btree ("decision_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "deferral_requests_partner_pending_idx" ON "deferral_requests" USING btree ("partner_id","submission_id") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_deferred_to_cycle_id_cycles_id_fk" FOREIGN KEY ("deferred_to_cycle_id") REFERENCES "public"."cycles"("id") ON DELETE no action ON UPDATE no action;