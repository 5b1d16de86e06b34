DROP INDEX "payments_application_idempotency_unique";--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
-- Checkout keys become unique per student instead of per application. A student's clients draw a new
-- random key per application, so a repeat is an old retry across applications: the earliest payment
-- keeps the key, later ones forget it (their checkouts stay as they are).
UPDATE "payments" AS p SET "idempotency_key" = NULL
 WHERE p."idempotency_key" IS NOT NULL
   AND EXISTS (
     SELECT 1 FROM "payments" AS q
      WHERE q."student_id" = p."student_id" AND q."idempotency_key" = p."idempotency_key"
        AND (q."created_at", q."id") < (p."created_at", p."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "payments_student_idempotency_unique" ON "payments" USING btree ("student_id","idempotency_key");--> statement-breakpoint
-- Stored file names cleaned of what new uploads can no longer store (modules/uploads/file-name.ts):
-- the path before the last slash, control and bidirectional-control characters, characters unsafe in a
-- file system or a header, runs of dots and leading or trailing dots and spaces; NFC. An empty result
-- gets the default name of its type. Byte length and extension are applied again as each file is sent.
WITH "steps" AS (
  SELECT f."id", f."mime_type", f."original_name", s5."name"
    FROM "files" AS f,
    LATERAL (SELECT regexp_replace(normalize(f."original_name", NFC), '^.*[/\\]', '') AS "name") AS s1,
    LATERAL (SELECT regexp_replace(s1."name", '[\x01-\x1f\x7f-\x9f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]', '', 'g') AS "name") AS s2,
    LATERAL (SELECT regexp_replace(s2."name", '["*:<>?|]', '_', 'g') AS "name") AS s3,
    LATERAL (SELECT regexp_replace(s3."name", '\.{2,}', '.', 'g') AS "name") AS s4,
    LATERAL (SELECT regexp_replace(s4."name", '^[. ]+|[. ]+$', '', 'g') AS "name") AS s5
)
UPDATE "files" SET
  "original_name" = CASE WHEN "steps"."name" <> '' THEN "steps"."name" ELSE 'document' || CASE "steps"."mime_type"
    WHEN 'application/pdf' THEN '.pdf' WHEN 'image/jpeg' THEN '.jpg' WHEN 'image/png' THEN '.png'
    WHEN 'image/webp' THEN '.webp' WHEN 'image/heic' THEN '.heic' ELSE '' END END,
  "updated_at" = now()
  FROM "steps"
 WHERE "files"."id" = "steps"."id" AND "steps"."name" <> "steps"."original_name";
