import { count, eq, sql } from 'drizzle-orm';
import {
  EDUCATION_LEVELS,
  GENDERS,
  LANGUAGES,
  LAST_ONBOARDING_STEP,
  OnboardingStep0Schema,
  OnboardingStep1Schema,
  OnboardingStep2Schema,
  OnboardingStep3Schema,
  OnboardingStep4Schema,
  OnboardingStep5Schema,
  OnboardingStep6Schema,
  PROFILE_MESSAGES,
  profilePictureUrl,
  SCHOOL_LEVELS,
  VALIDATION_MESSAGES,
  normalizePhone,
  profileCompletion,
  type EducationProfile,
  type ExamSitting,
  type OnboardingState,
  type PersonalProfile,
  type ProfileUpdate,
  type SchoolChoice,
  type StudentProfile,
} from '@kaminuza/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { documents, schools, students } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { createSchool } from './schools.service.ts';
import { sittingsOf } from './exam-sittings.read.ts';

type StudentRow = typeof students.$inferSelect;
type SchoolRow = typeof schools.$inferSelect;

const pick = <T extends string>(values: readonly T[], value: string | null): T | null =>
  values.find((candidate) => candidate === value) ?? null;

function toProfile(row: StudentRow, school: SchoolRow | null, sittings: ExamSitting[]): StudentProfile {
  return {
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    preferred_name: row.preferred_name,
    phone: row.phone,
    language: pick(LANGUAGES, row.language) ?? 'en',
    date_of_birth: row.date_of_birth,
    gender: pick(GENDERS, row.gender),
    nationality: row.nationality,
    address: row.address,
    city: row.city,
    country: row.country,
    country_of_residence: row.country_of_residence,
    postal_code: row.postal_code,
    education_level: pick(EDUCATION_LEVELS, row.education_level),
    school: row.last_school
      ? {
          id: row.last_school_id,
          name: row.last_school,
          city: row.school_city,
          state_province: school?.state_province ?? null,
          country: row.school_country,
          levels_offered: (school?.levels_offered ?? []).flatMap((level) => pick(SCHOOL_LEVELS, level) ?? []),
        }
      : null,
    graduation_year: row.graduation_year,
    gpa: row.gpa,
    major: row.major,
    degree_type: row.degree_type,
    exam_sittings: sittings,
    profile_picture: profilePictureUrl(row.profile_picture),
    is_complete: row.is_complete,
    profile_completion: row.profile_completion,
    onboarding_step: Math.min(row.onboarding_step, LAST_ONBOARDING_STEP),
  };
}

/** The student record of a user, locked for update inside a transaction when `forUpdate`. */
export async function findStudent(db: DbOrTx, userId: string, forUpdate = false): Promise<StudentRow> {
  const query = db.select().from(students).where(eq(students.user_id, userId)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw new AppError('NOT_FOUND', PROFILE_MESSAGES.not_found);
  return row;
}

async function schoolOf(db: DbOrTx, row: StudentRow): Promise<SchoolRow | null> {
  if (!row.last_school_id) return null;
  const [school] = await db.select().from(schools).where(eq(schools.id, row.last_school_id)).limit(1);
  return school ?? null;
}

async function documentCount(db: DbOrTx, studentId: string): Promise<number> {
  const [row] = await db.select({ value: count() }).from(documents).where(eq(documents.student_id, studentId));
  return row?.value ?? 0;
}

export async function readProfile(db: DbOrTx, row: StudentRow): Promise<StudentProfile> {
  const [school, sittings] = await Promise.all([schoolOf(db, row), sittingsOf(db, row.id)]);
  return toProfile(row, school, sittings);
}

export async function getProfile(db: Db, userId: string): Promise<StudentProfile> {
  return readProfile(db, await findStudent(db, userId));
}

export async function getOnboarding(db: Db, userId: string): Promise<OnboardingState> {
  const profile = await getProfile(db, userId);
  return { step: profile.onboarding_step, is_complete: profile.is_complete, profile };
}

/**
 * The school columns of a choice: a listed school by id (its own name and place, whatever the client
 * sent), or a hand-entered one, saved to `schools` for others to find — once per student and place.
 */
async function schoolColumns(tx: Tx, userId: string, choice: SchoolChoice) {
  let school: SchoolRow | undefined;
  if (choice.id) {
    [school] = await tx.select().from(schools).where(eq(schools.id, choice.id)).limit(1);
    if (!school) throw new AppError('NOT_FOUND', undefined, [{ path: 'school.id', message: 'Not found' }]);
  } else {
    school = await createSchool(tx, userId, choice);
  }
  return {
    last_school_id: school.id,
    last_school: school.name,
    school_city: school.city,
    school_country: school.country,
  };
}

type StudentChanges = Partial<typeof students.$inferInsert>;

/** Writes changes to the student (and the completion they lead to) and returns the new profile. */
async function update(tx: Tx, row: StudentRow, changes: StudentChanges): Promise<StudentProfile> {
  const [next] = await tx
    .update(students)
    .set({ ...changes, last_activity: sql`now()`, updated_at: sql`now()` })
    .where(eq(students.id, row.id))
    .returning();
  if (!next) throw new AppError('NOT_FOUND', PROFILE_MESSAGES.not_found);
  const profile = await readProfile(tx, next);
  const completion = profileCompletion(profile, await documentCount(tx, row.id));
  if (completion !== next.profile_completion) {
    await tx.update(students).set({ profile_completion: completion }).where(eq(students.id, row.id));
  }
  return { ...profile, profile_completion: completion };
}

/** A body checked against a schema, or a 400 with the field issues in the API's `details` form. */
export function validate<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.general, details);
}

/** The columns one onboarding step writes, from its body checked against that step's schema. */
async function stepColumns(tx: Tx, userId: string, step: number, body: unknown): Promise<StudentChanges> {
  switch (step) {
    case 0:
      return { language: validate(OnboardingStep0Schema, body).language };
    case 1: {
      const value = validate(OnboardingStep1Schema, body);
      return { first_name: value.first_name, last_name: value.last_name, preferred_name: value.preferred_name || null };
    }
    case 2:
      return validate(OnboardingStep2Schema, body);
    case 3: {
      const value = validate(OnboardingStep3Schema, body);
      return { phone: normalizePhone(value.phone, value.phone_country) };
    }
    case 4: {
      const value = validate(OnboardingStep4Schema, body);
      return {
        country_of_residence: value.country_of_residence,
        // The address is in the country of residence; the profile can tell them apart later.
        country: value.country_of_residence,
        address: value.address,
        city: value.city,
        postal_code: value.postal_code || null,
      };
    }
    case 5: {
      const value = validate(OnboardingStep5Schema, body);
      return { education_level: value.education_level, ...(await schoolColumns(tx, userId, value.school)) };
    }
    default:
      validate(OnboardingStep6Schema, body);
      return {};
  }
}

/**
 * Saves one onboarding step (its body is checked against that step's schema) and moves the resume
 * point past it; going back and saving an earlier step never moves the resume point back.
 */
export async function saveOnboardingStep(
  db: Db,
  userId: string,
  step: number,
  body: unknown,
): Promise<OnboardingState> {
  return db.transaction(async (tx) => {
    const row = await findStudent(tx, userId, true);
    const changes = await stepColumns(tx, userId, step, body);
    const next = Math.max(row.onboarding_step, Math.min(step + 1, LAST_ONBOARDING_STEP));
    const profile = await update(tx, row, { ...changes, onboarding_step: next });
    return { step: profile.onboarding_step, is_complete: profile.is_complete, profile };
  });
}

/** The required fields of a finished onboarding, with the spec message each one answers when missing. */
const REQUIRED_FOR_COMPLETION: ReadonlyArray<[keyof StudentProfile, string]> = [
  ['first_name', VALIDATION_MESSAGES.first_name_required],
  ['last_name', VALIDATION_MESSAGES.last_name_required],
  ['date_of_birth', VALIDATION_MESSAGES.date_of_birth_required],
  ['gender', VALIDATION_MESSAGES.gender_required],
  ['nationality', VALIDATION_MESSAGES.nationality_required],
  ['phone', VALIDATION_MESSAGES.phone_required],
  ['country_of_residence', VALIDATION_MESSAGES.country_required],
  ['address', VALIDATION_MESSAGES.address_required],
  ['city', VALIDATION_MESSAGES.city_required],
  ['education_level', VALIDATION_MESSAGES.education_level_required],
  ['school', VALIDATION_MESSAGES.school_required],
];

/** Finishes onboarding once every required field is saved; answers the missing ones otherwise. */
export async function completeOnboarding(db: Db, userId: string): Promise<OnboardingState> {
  return db.transaction(async (tx) => {
    const row = await findStudent(tx, userId, true);
    const current = await readProfile(tx, row);
    const missing = REQUIRED_FOR_COMPLETION.filter(([field]) => current[field] === null || current[field] === '').map(
      ([path, message]) => ({ path, message }),
    );
    if (missing.length > 0) throw new AppError('INVALID_ARGUMENT', VALIDATION_MESSAGES.general, missing);
    const profile = await update(tx, row, { is_complete: true, onboarding_step: LAST_ONBOARDING_STEP });
    return { step: profile.onboarding_step, is_complete: true, profile };
  });
}

function personalColumns(value: PersonalProfile): StudentChanges {
  return {
    first_name: value.first_name,
    last_name: value.last_name,
    preferred_name: value.preferred_name || null,
    phone: normalizePhone(value.phone, value.phone_country),
    date_of_birth: value.date_of_birth,
    gender: value.gender,
    nationality: value.nationality,
    address: value.address,
    city: value.city,
    country: value.country,
    country_of_residence: value.country_of_residence,
    postal_code: value.postal_code || null,
  };
}

async function educationColumns(tx: Tx, userId: string, value: EducationProfile): Promise<StudentChanges> {
  return {
    education_level: value.education_level,
    ...(await schoolColumns(tx, userId, value.school)),
    graduation_year: value.graduation_year,
    gpa: value.gpa || null,
    major: value.major || null,
    degree_type: value.degree_type || null,
  };
}

/** Saves one tab of the profile. The email stays the account's: it is changed by the account flows only. */
export async function updateProfile(db: Db, userId: string, input: ProfileUpdate): Promise<StudentProfile> {
  return db.transaction(async (tx) => {
    const row = await findStudent(tx, userId, true);
    const changes =
      input.section === 'personal' ? personalColumns(input.values) : await educationColumns(tx, userId, input.values);
    return update(tx, row, changes);
  });
}

/**
 * Points the student's profile picture at `fileId` (null: none) and answers the file it replaced, so the
 * documents module, which owns the files, can drop it. The row is locked until the caller's transaction ends.
 */
export async function setProfilePicture(tx: Tx, studentId: string, fileId: string | null): Promise<string | null> {
  const [previous] = await tx
    .select({ profile_picture: students.profile_picture })
    .from(students)
    .where(eq(students.id, studentId))
    .for('update');
  await tx.update(students).set({ profile_picture: fileId }).where(eq(students.id, studentId));
  return previous?.profile_picture ?? null;
}

/**
 * Recomputes a student's profile_completion, for changes made outside this module (a document or the
 * profile picture uploaded or deleted). Returns the new value.
 */
export async function refreshProfileCompletion(db: DbOrTx, userId: string): Promise<number> {
  const row = await findStudent(db, userId);
  const completion = profileCompletion(await readProfile(db, row), await documentCount(db, row.id));
  if (completion !== row.profile_completion) {
    await db.update(students).set({ profile_completion: completion }).where(eq(students.id, row.id));
  }
  return completion;
}
