CREATE TABLE "fee_waiver_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_id" uuid NOT NULL,
	"cycle_id" uuid NOT NULL,
	"code" text NOT NULL,
	"label" text,
	"max_uses" integer NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"expires_on" date NOT NULL,
	"created_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_waiver_codes_uses_check" CHECK ("fee_waiver_codes"."used_count" >= 0 and "fee_waiver_codes"."used_count" <= "fee_waiver_codes"."max_uses")
);
--> statement-breakpoint
CREATE TABLE "fee_waivers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"code_id" uuid,
	"status" text NOT NULL,
	"reason" text,
	"document_id" uuid,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "fee_waived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fee_waiver_codes" ADD CONSTRAINT "fee_waiver_codes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waiver_codes" ADD CONSTRAINT "fee_waiver_codes_cycle_id_cycles_id_fk" FOREIGN KEY ("cycle_id") REFERENCES "public"."cycles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waiver_codes" ADD CONSTRAINT "fee_waiver_codes_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waivers" ADD CONSTRAINT "fee_waivers_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waivers" ADD CONSTRAINT "fee_waivers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waivers" ADD CONSTRAINT "fee_waivers_code_id_fee_waiver_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."fee_waiver_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waivers" ADD CONSTRAINT "fee_waivers_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_waivers" ADD CONSTRAINT "fee_waivers_decided_by_staff_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_waiver_codes_partner_code_unique" ON "fee_waiver_codes" USING btree ("partner_id",upper("code"));--> statement-breakpoint
CREATE INDEX "fee_waiver_codes_partner_created_idx" ON "fee_waiver_codes" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fee_waivers_application_unique" ON "fee_waivers" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "fee_waivers_partner_status_idx" ON "fee_waivers" USING btree ("partner_id","status","created_at");