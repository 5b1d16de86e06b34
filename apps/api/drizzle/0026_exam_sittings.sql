CREATE TABLE "exam_sittings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_id" uuid NOT NULL,
	"exam" text NOT NULL,
	"other_name" text DEFAULT '' NOT NULL,
	"year" integer NOT NULL,
	"index_number" text DEFAULT '' NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"declared" double precision,
	"overall" text DEFAULT '' NOT NULL,
	"document_type" text,
	"verified_at" timestamp with time zone,
	"verified_by" uuid,
	"verified_by_partner" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_sittings" ADD CONSTRAINT "exam_sittings_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_sittings" ADD CONSTRAINT "exam_sittings_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_sittings" ADD CONSTRAINT "exam_sittings_verified_by_partner_partners_id_fk" FOREIGN KEY ("verified_by_partner") REFERENCES "public"."partners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exam_sittings_student" ON "exam_sittings" USING btree ("student_id","year");--> statement-breakpoint
-- The free-text results (one grade per examination, no subjects) become sittings of an "other" examination,
-- named as before, their grade kept as written: a person reads them (issue 25, ADR 050).
INSERT INTO "exam_sittings" ("student_id", "exam", "other_name", "year", "overall")
SELECT st."id", 'other', left(CASE r->>'examination' WHEN 'rwanda_nesa' THEN 'Rwanda NESA' WHEN 'waec' THEN 'WAEC' WHEN 'kcse' THEN 'KCSE' WHEN 'neco' THEN 'NECO' WHEN 'uace' THEN 'UACE' ELSE coalesce(nullif(btrim(r->>'name'), ''), 'Other') END, 80), (r->>'year')::int, left(coalesce(r->>'grade', ''), 20)
FROM "students" st, jsonb_array_elements(CASE WHEN jsonb_typeof(st."exam_results") = 'array' THEN st."exam_results" ELSE '[]'::jsonb END) WITH ORDINALITY AS e(r, ord)
WHERE r->>'year' ~ '^[0-9]{4}$';--> statement-breakpoint
-- Submissions keep the applicant as they were: their snapshot's results take the sittings' form.
UPDATE "submissions" SET "profile" = ("profile" - 'exam_results') || jsonb_build_object('exam_sittings', coalesce((
  SELECT jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'exam', 'other', 'other_name', left(CASE r->>'examination' WHEN 'rwanda_nesa' THEN 'Rwanda NESA' WHEN 'waec' THEN 'WAEC' WHEN 'kcse' THEN 'KCSE' WHEN 'neco' THEN 'NECO' WHEN 'uace' THEN 'UACE' ELSE coalesce(nullif(btrim(r->>'name'), ''), 'Other') END, 80),
    'year', (r->>'year')::int, 'index_number', '', 'results', '[]'::jsonb, 'declared', null,
    'overall', left(coalesce(r->>'grade', ''), 20), 'document_type', null, 'verified', false) ORDER BY ord)
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof("profile"->'exam_results') = 'array' THEN "profile"->'exam_results' ELSE '[]'::jsonb END) WITH ORDINALITY AS e(r, ord)
  WHERE r->>'year' ~ '^[0-9]{4}$'), '[]'::jsonb))
WHERE "profile" ? 'exam_results';--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "exam_results";