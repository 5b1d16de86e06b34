import { and, eq, isNull } from 'drizzle-orm';
import { profileCompletion, LAST_ONBOARDING_STEP } from '@kaminuza/shared';
import type { Db } from '../db/client.ts';
import { examSittings, schools, students, users } from '../db/schema/index.ts';
import { SEED_SCHOOLS } from './schools.data.ts';

export const DEMO_STUDENT_EMAIL = 'demo.student@kaminuza.example';

/** Adds the listed secondary schools once: nothing happens while any listed school exists. */
export async function seedSchools(db: Db): Promise<number> {
  const [listed] = await db.select({ id: schools.id }).from(schools).where(isNull(schools.created_by)).limit(1);
  if (listed) return 0;
  const rows = await db
    .insert(schools)
    .values(
      SEED_SCHOOLS.map(([name, city, state_province, country]) => ({
        name,
        city,
        state_province,
        country,
        levels_offered: ['secondary'],
      })),
    )
    .returning({ id: schools.id });
  return rows.length;
}

/**
 * Seeds the schools and gives the demo student a finished onboarding with a full profile, so a newcomer
 * signing in as them can apply at once. Leaves a demo student who already finished onboarding alone.
 */
export async function seedDemoStudentProfile(db: Db): Promise<void> {
  await seedSchools(db);
  const [student] = await db
    .select({ id: students.id, is_complete: students.is_complete })
    .from(students)
    .innerJoin(users, eq(users.id, students.user_id))
    .where(eq(users.email, DEMO_STUDENT_EMAIL))
    .limit(1);
  if (!student || student.is_complete) return;
  const [school] = await db
    .select()
    .from(schools)
    .where(and(eq(schools.name, 'Lycée de Kigali'), isNull(schools.created_by)))
    .limit(1);
  const profile = {
    first_name: 'Amani',
    last_name: 'Uwase',
    preferred_name: 'Amani',
    phone: '+250788123456',
    date_of_birth: '2006-03-14',
    gender: 'female',
    nationality: 'RW',
    address: 'KG 7 Avenue, Kacyiru',
    city: 'Kigali',
    country: 'RW',
    country_of_residence: 'RW',
    postal_code: null,
    education_level: 'high_school',
    last_school_id: school?.id ?? null,
    last_school: school?.name ?? 'Lycée de Kigali',
    school_city: 'Kigali',
    school_country: 'RW',
    graduation_year: 2024,
    gpa: '3.7',
    major: 'Mathematics, Physics and Computer Science',
    degree_type: 'Advanced Level Certificate',
  };
  // A Rwandan A-level sitting with its subjects, and a test the platform has no rules for, as "other".
  const sittings = [
    {
      exam: 'rwanda_alevel',
      year: 2024,
      index_number: '0101-2024-0457',
      results: [
        { subject: 'mathematics', grade: 'A' },
        { subject: 'physics', grade: 'B' },
        { subject: 'computer_science', grade: 'A' },
        { subject: 'general_studies', grade: 'S' },
      ],
    },
    { exam: 'other', other_name: 'IELTS Academic', overall: '7.5', year: 2024 },
  ];
  const completion = profileCompletion(
    {
      ...profile,
      gender: 'female',
      education_level: 'high_school',
      school: {
        id: profile.last_school_id,
        name: profile.last_school,
        city: 'Kigali',
        state_province: null,
        country: 'RW',
        levels_offered: [],
      },
      exam_sittings: sittings,
      profile_picture: null,
    },
    0,
  );
  await db
    .update(students)
    .set({
      ...profile,
      is_complete: true,
      onboarding_step: LAST_ONBOARDING_STEP,
      profile_completion: completion,
    })
    .where(eq(students.id, student.id));
  await db.insert(examSittings).values(sittings.map((sitting) => ({ ...sitting, student_id: student.id })));
}
