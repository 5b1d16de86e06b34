ALTER TABLE "payments" ADD COLUMN "refund_method" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_requested_by" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_error" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refund_requested_by_users_id_fk" FOREIGN KEY ("refund_requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_refund_reference_unique" ON "payments" USING btree ("refund_reference") WHERE "payments"."refund_reference" is not null;--> statement-breakpoint
CREATE INDEX "payments_refund_processing_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."refund_status" = 'processing';--> statement-breakpoint
UPDATE "payments" SET "refund_method" = 'by_hand' WHERE "refund_status" = 'refunded';
