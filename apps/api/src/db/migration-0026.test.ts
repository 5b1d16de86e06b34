import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { useTestApp } from '../test/app.ts';
import { signInAs } from '../test/auth.ts';
import { insertTestCampus } from '../test/setup-rows.ts';
import { MIGRATIONS_FOLDER } from './client.ts';
import { examSittings, students, submissions } from './schema/index.ts';

const testApp = useTestApp();

/** Migration 0026's statements that move the free-text results, run on a database given the old column back. */
const moving = readFileSync(join(MIGRATIONS_FOLDER, '0026_exam_sittings.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .filter((statement) => /INSERT INTO "exam_sittings"|UPDATE "submissions"|DROP COLUMN "exam_results"/.test(statement));

const legacy = [
  { examination: 'kcse', grade: 'A-', year: 2021 },
  { examination: 'other', name: 'SAT', grade: '1450', year: 2022 },
  { examination: 'rwanda_nesa', grade: '65/73', year: 2024 },
];

describe('migration 0026: examination results become sittings', () => {
  it('keeps every free-text result as an "other" sitting named as before, in profiles and submission snapshots', async () => {
    const db = testApp.database.db;
    const student = await signInAs(testApp.app, 'student');
    const staff = await signInAs(testApp.app, 'staff');
    const [row] = await db.select({ id: students.id }).from(students).where(eq(students.user_id, student.id));
    await db.execute(sql`alter table "students" add column "exam_results" jsonb not null default '[]'::jsonb`);
    await db.execute(
      sql`update "students" set "exam_results" = ${JSON.stringify(legacy)}::jsonb where "id" = ${row!.id}`,
    );
    const [submission] = await db
      .insert(submissions)
      .values({
        reference: `KZ-${randomBytes(4).toString('hex').toUpperCase()}`,
        partner_id: staff.partnerId!,
        campus_id: await insertTestCampus(db, staff.partnerId!),
        student_id: row!.id,
        profile: { first_name: 'Aline', exam_results: legacy },
      })
      .returning({ id: submissions.id });

    for (const statement of moving) await db.execute(sql.raw(statement));

    const sittings = await db
      .select({
        exam: examSittings.exam,
        other_name: examSittings.other_name,
        year: examSittings.year,
        overall: examSittings.overall,
      })
      .from(examSittings)
      .where(eq(examSittings.student_id, row!.id))
      .orderBy(examSittings.year);
    expect(sittings).toEqual([
      { exam: 'other', other_name: 'KCSE', year: 2021, overall: 'A-' },
      { exam: 'other', other_name: 'SAT', year: 2022, overall: '1450' },
      { exam: 'other', other_name: 'Rwanda NESA', year: 2024, overall: '65/73' },
    ]);
    const [stored] = await db
      .select({ profile: submissions.profile })
      .from(submissions)
      .where(eq(submissions.id, submission!.id));
    expect(stored!.profile).not.toHaveProperty('exam_results');
    expect(stored!.profile).toMatchObject({
      first_name: 'Aline',
      exam_sittings: [
        { exam: 'other', other_name: 'KCSE', year: 2021, overall: 'A-', results: [], verified: false },
        { exam: 'other', other_name: 'SAT', year: 2022, overall: '1450' },
        { exam: 'other', other_name: 'Rwanda NESA', year: 2024, overall: '65/73' },
      ],
    });
  });
});
