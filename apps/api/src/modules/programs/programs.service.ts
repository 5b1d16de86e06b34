import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import {
  VALIDATION_MESSAGES,
  SETUP_MESSAGES,
  type Campus,
  type CampusInput,
  type Program,
  type ProgramInput,
  type ProgramListQuery,
} from '@kaminuza/shared';
import { entryRulesIssues, examSystem } from '@kaminuza/shared/exams';
import type { Db } from '../../db/client.ts';
import { applications, campuses, programCampuses, programs, submissions } from '../../db/schema/index.ts';
import { uniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { containsPattern, folded } from '../../lib/text-search.ts';
import type { DbOrTx } from '../../db/client.ts';
import { setProgramCount } from '../partners/index.ts';

/** Refuses (404) any program id that is not one of this institution's programs. */
export async function assertProgramsOfPartner(db: DbOrTx, partnerId: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: programs.id })
    .from(programs)
    .where(and(eq(programs.partner_id, partnerId), inArray(programs.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND', SETUP_MESSAGES.program_not_found);
}

/** Refuses (404) any campus id that is not one of this institution's campuses. */
export async function assertCampusesOfPartner(db: DbOrTx, partnerId: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: campuses.id })
    .from(campuses)
    .where(and(eq(campuses.partner_id, partnerId), inArray(campuses.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND', SETUP_MESSAGES.campus_not_found);
}

/** Runs a write, answering 409 with `message` when it collides with the named unique index. */
async function uniquely<T>(index: string, message: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error) === index) throw new AppError('ABORTED', message);
    throw error;
  }
}

/** Submitted applications keep the ids they were made for, so what they name cannot be deleted. */
async function assertNotSubmittedTo(
  tx: DbOrTx,
  partnerId: string,
  column: typeof submissions.campus_id | typeof submissions.program_id,
  id: string,
): Promise<void> {
  const [used] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.partner_id, partnerId), eq(column, id)))
    .limit(1);
  if (used) throw new AppError('ABORTED', SETUP_MESSAGES.in_use);
}

/** An application in progress names its campus and program too: deleting them would strand the applicant. */
async function assertNoDraftFor(
  tx: DbOrTx,
  partnerId: string,
  column: typeof applications.campus_id | typeof applications.program_id,
  id: string,
): Promise<void> {
  const [used] = await tx
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.partner_id, partnerId), eq(column, id), eq(applications.status, 'in_progress')))
    .limit(1);
  if (used) throw new AppError('ABORTED', SETUP_MESSAGES.in_use_drafts);
}

/* ---------------------------------------------------------------- campuses */

const campusColumns = {
  id: campuses.id,
  name: campuses.name,
  address: campuses.address,
  city: campuses.city,
  country: campuses.country,
  created_at: campuses.created_at,
  updated_at: campuses.updated_at,
};

/** The institution's campuses by name, each with the number of programs offered there. */
export async function listCampuses(db: DbOrTx, partnerId: string, campusId?: string): Promise<Campus[]> {
  return db
    .select({ ...campusColumns, program_count: count(programCampuses.program_id) })
    .from(campuses)
    .leftJoin(programCampuses, eq(programCampuses.campus_id, campuses.id))
    .where(and(eq(campuses.partner_id, partnerId), campusId ? eq(campuses.id, campusId) : undefined))
    .groupBy(campuses.id)
    .orderBy(asc(sql`lower(${campuses.name})`), asc(campuses.id));
}

async function getCampus(db: DbOrTx, partnerId: string, campusId: string): Promise<Campus> {
  const [campus] = await listCampuses(db, partnerId, campusId);
  if (!campus) throw new AppError('NOT_FOUND', SETUP_MESSAGES.campus_not_found);
  return campus;
}

export async function createCampus(db: Db, partnerId: string, input: CampusInput): Promise<Campus> {
  return uniquely('campuses_partner_name_unique', SETUP_MESSAGES.campus_exists, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(campuses)
        .values({ ...input, partner_id: partnerId })
        .returning({ id: campuses.id });
      return getCampus(tx, partnerId, row!.id);
    }),
  );
}

export async function updateCampus(db: Db, partnerId: string, campusId: string, input: CampusInput): Promise<Campus> {
  return uniquely('campuses_partner_name_unique', SETUP_MESSAGES.campus_exists, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(campuses)
        .set(input)
        .where(and(eq(campuses.id, campusId), eq(campuses.partner_id, partnerId)))
        .returning({ id: campuses.id });
      if (!row) throw new AppError('NOT_FOUND', SETUP_MESSAGES.campus_not_found);
      return getCampus(tx, partnerId, campusId);
    }),
  );
}

/**
 * Deletes a campus no application was submitted for and that is not the last campus of a program
 * (every program is offered somewhere, so applicants can always choose a campus).
 */
export async function deleteCampus(db: Db, partnerId: string, campusId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getCampus(tx, partnerId, campusId);
    await assertNotSubmittedTo(tx, partnerId, submissions.campus_id, campusId);
    await assertNoDraftFor(tx, partnerId, applications.campus_id, campusId);
    const offeredHere = tx
      .select({ program_id: programCampuses.program_id })
      .from(programCampuses)
      .where(eq(programCampuses.campus_id, campusId));
    const [onlyCampus] = await tx
      .select({ program_id: programCampuses.program_id })
      .from(programCampuses)
      .where(inArray(programCampuses.program_id, offeredHere))
      .groupBy(programCampuses.program_id)
      .having(sql`count(*) = 1`)
      .limit(1);
    if (onlyCampus) throw new AppError('ABORTED', SETUP_MESSAGES.campus_only_one_of_program);
    await tx.delete(campuses).where(and(eq(campuses.id, campusId), eq(campuses.partner_id, partnerId)));
  });
}

/* ---------------------------------------------------------------- programs */

const programColumns = {
  id: programs.id,
  name: programs.name,
  level: programs.level,
  field: programs.field,
  duration_months: programs.duration_months,
  language: programs.language,
  tuition_amount: programs.tuition_amount,
  tuition_currency: programs.tuition_currency,
  requirements: programs.requirements,
  entry_rules: programs.entry_rules,
  seats: programs.seats,
  created_at: programs.created_at,
  updated_at: programs.updated_at,
};

/** The institution's programs by name then level, filtered (the name search ignores case and accents), each with its campuses (by campus name). */
export async function listPrograms(
  db: DbOrTx,
  partnerId: string,
  query: ProgramListQuery & { id?: string } = {},
): Promise<Program[]> {
  const rows = await db
    .select(programColumns)
    .from(programs)
    .where(
      and(
        eq(programs.partner_id, partnerId),
        query.id ? eq(programs.id, query.id) : undefined,
        query.q ? sql`${folded(sql`${programs.name}`)} like ${folded(containsPattern(query.q))}` : undefined,
        query.level ? eq(programs.level, query.level) : undefined,
        query.field ? eq(programs.field, query.field) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${programs.name})`), asc(programs.level), asc(programs.id));
  if (rows.length === 0) return [];
  const links = await db
    .select({ program_id: programCampuses.program_id, campus_id: programCampuses.campus_id })
    .from(programCampuses)
    .innerJoin(campuses, eq(campuses.id, programCampuses.campus_id))
    .where(
      inArray(
        programCampuses.program_id,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(sql`lower(${campuses.name})`), asc(campuses.id));
  return rows.map((row) => ({
    ...row,
    language: row.language as Program['language'],
    campus_ids: links.filter((link) => link.program_id === row.id).map((link) => link.campus_id),
  }));
}

export async function getProgram(db: DbOrTx, partnerId: string, programId: string): Promise<Program> {
  const [program] = await listPrograms(db, partnerId, { id: programId });
  if (!program) throw new AppError('NOT_FOUND', SETUP_MESSAGES.program_not_found);
  return program;
}

async function syncProgramCount(tx: DbOrTx, partnerId: string): Promise<void> {
  const [row] = await tx.select({ total: count() }).from(programs).where(eq(programs.partner_id, partnerId));
  await setProgramCount(tx, partnerId, row?.total ?? 0);
}

async function linkCampuses(tx: DbOrTx, programId: string, campusIds: readonly string[]): Promise<void> {
  await tx.delete(programCampuses).where(eq(programCampuses.program_id, programId));
  await tx
    .insert(programCampuses)
    .values([...new Set(campusIds)].map((campus_id) => ({ program_id: programId, campus_id })));
}

/** Entry rules that do not fit the examinations they name are refused, each issue at its field (400). */
function assertEntryRules(input: ProgramInput): void {
  const issues = entryRulesIssues(input.entry_rules, examSystem);
  if (issues.length > 0)
    throw new AppError(
      'INVALID_ARGUMENT',
      VALIDATION_MESSAGES.general,
      issues.map((issue) => ({ path: `entry_rules.${issue.path}`, message: issue.message })),
    );
}

export async function createProgram(db: Db, partnerId: string, input: ProgramInput): Promise<Program> {
  assertEntryRules(input);
  const { campus_ids, ...fields } = input;
  return uniquely('programs_partner_name_level_unique', SETUP_MESSAGES.program_exists, () =>
    db.transaction(async (tx) => {
      await assertCampusesOfPartner(tx, partnerId, campus_ids);
      const [row] = await tx
        .insert(programs)
        .values({ ...fields, partner_id: partnerId })
        .returning({ id: programs.id });
      await linkCampuses(tx, row!.id, campus_ids);
      await syncProgramCount(tx, partnerId);
      return getProgram(tx, partnerId, row!.id);
    }),
  );
}

export async function updateProgram(
  db: Db,
  partnerId: string,
  programId: string,
  input: ProgramInput,
): Promise<Program> {
  assertEntryRules(input);
  const { campus_ids, ...fields } = input;
  return uniquely('programs_partner_name_level_unique', SETUP_MESSAGES.program_exists, () =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(programs)
        .set(fields)
        .where(and(eq(programs.id, programId), eq(programs.partner_id, partnerId)))
        .returning({ id: programs.id });
      if (!row) throw new AppError('NOT_FOUND', SETUP_MESSAGES.program_not_found);
      await assertCampusesOfPartner(tx, partnerId, campus_ids);
      await linkCampuses(tx, programId, campus_ids);
      return getProgram(tx, partnerId, programId);
    }),
  );
}

/** Deletes a program no application was submitted for; it leaves the cycles that offered it. */
export async function deleteProgram(db: Db, partnerId: string, programId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await getProgram(tx, partnerId, programId);
    await assertNotSubmittedTo(tx, partnerId, submissions.program_id, programId);
    await assertNoDraftFor(tx, partnerId, applications.program_id, programId);
    await tx.delete(programs).where(and(eq(programs.id, programId), eq(programs.partner_id, partnerId)));
    await syncProgramCount(tx, partnerId);
  });
}
