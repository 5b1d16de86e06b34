ALTER TABLE "partners" ADD COLUMN "search_name" text GENERATED ALWAYS AS (f_unaccent(lower("name"))) STORED;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "work_email" text;--> statement-breakpoint
CREATE INDEX "partners_search_name_trgm_idx" ON "partners" USING gist ("search_name" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "partners_listed_filters_idx" ON "partners" USING btree ("institution_type","region","size","setting","tuition_usd","application_deadline","fields") WHERE "partners"."status" = 'approved' and "partners"."published";