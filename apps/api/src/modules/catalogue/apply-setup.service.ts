import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  APPLICATION_MESSAGES as A,
  cycleAcceptsApplications,
  DEFAULTS,
  type ApplicationFee,
  type ApplyCampus,
  type ApplyCycle,
  type ApplyProgram,
  type FormSection,
  type StoredPartnerSettings,
} from '@kaminuza/shared';
import { campuses, cyclePrograms, cycles, forms, partners, programCampuses, programs } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../../db/client.ts';

type CycleRow = typeof cycles.$inferSelect;

/*
 * The admissions setup an application is made against (shared by the student's application and a
 * submission on behalf): the institution students may see, its current cycle, the programs open in it,
 * the campuses offering each, and the form a program is answered with.
 */

export interface VisiblePartner {
  id: string;
  name: string;
  logo_url: string | null;
  city: string | null;
  country: string | null;
}

/** Students only ever see approved and published institutions: anything else is 404 'Not found'. */
export async function visiblePartner(db: DbOrTx, partnerId: string): Promise<VisiblePartner> {
  const [row] = await db
    .select({
      id: partners.id,
      name: partners.name,
      logo_url: partners.logo_url,
      city: partners.address_city,
      country: partners.address_country,
    })
    .from(partners)
    .where(and(eq(partners.id, partnerId), eq(partners.status, 'approved'), eq(partners.published, true)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export const feeOf = (settings: StoredPartnerSettings): ApplicationFee => ({
  amount: settings.admissions.application_fee,
  currency: settings.admissions.application_fee_currency,
});

/**
 * Whether an application made in `cycleId` may change today (start, save, pay, submit): the cycle is still
 * the institution's current one and takes applications today in the institution's time zone.
 */
export function applicationsOpen(
  general: { current_cycle_id?: string | null; timezone?: string },
  cycleId: string,
  cycle: Pick<CycleRow, 'status' | 'opens_on' | 'closes_on'>,
  now = new Date(),
): boolean {
  return (
    general.current_cycle_id === cycleId && cycleAcceptsApplications(cycle, general.timezone ?? DEFAULTS.timezone, now)
  );
}

/** A cycle as applicants see it, with whether it takes applications at `now` in the institution's time zone. */
export async function applyCycle(
  db: DbOrTx,
  partnerId: string,
  cycleId: string | null,
  timezone: string,
  now = new Date(),
): Promise<ApplyCycle | null> {
  if (!cycleId) return null;
  const [row] = await db
    .select({
      id: cycles.id,
      name: cycles.name,
      opens_on: cycles.opens_on,
      closes_on: cycles.closes_on,
      decision_release_on: cycles.decision_release_on,
      status: cycles.status,
    })
    .from(cycles)
    .where(and(eq(cycles.id, cycleId), eq(cycles.partner_id, partnerId)))
    .limit(1);
  if (!row) return null;
  const { status: _status, ...cycle } = row;
  return { ...cycle, timezone, accepting_applications: cycleAcceptsApplications(row, timezone, now) };
}

/** The institution's current cycle, refused with 409 cycle_closed unless it takes applications today. */
export async function openCurrentCycle(db: DbOrTx, partnerId: string, settings: StoredPartnerSettings) {
  const cycle = await applyCycle(db, partnerId, settings.general.current_cycle_id, settings.general.timezone);
  if (!cycle?.accepting_applications)
    throw new AppError('ABORTED', A.cycle_closed, undefined, { reason: 'cycle_closed' });
  return cycle;
}

/** The campuses offering each of these programs, by campus name. */
async function campusesOf(db: DbOrTx, programIds: readonly string[]): Promise<Map<string, ApplyCampus[]>> {
  const byProgram = new Map<string, ApplyCampus[]>();
  if (programIds.length === 0) return byProgram;
  const rows = await db
    .select({
      program_id: programCampuses.program_id,
      id: campuses.id,
      name: campuses.name,
      city: campuses.city,
      country: campuses.country,
    })
    .from(programCampuses)
    .innerJoin(campuses, eq(campuses.id, programCampuses.campus_id))
    .where(inArray(programCampuses.program_id, [...programIds]))
    .orderBy(asc(sql`lower(${campuses.name})`), asc(campuses.id));
  for (const { program_id, ...campus } of rows) {
    byProgram.set(program_id, [...(byProgram.get(program_id) ?? []), campus]);
  }
  return byProgram;
}

/** The programs open in the cycle (one of them when `programId` is given), each with its campuses. */
export async function openPrograms(
  db: DbOrTx,
  partnerId: string,
  cycleId: string,
  programId?: string,
): Promise<ApplyProgram[]> {
  const rows = await db
    .select({
      id: programs.id,
      name: programs.name,
      level: programs.level,
      field: programs.field,
      duration_months: programs.duration_months,
      language: programs.language,
    })
    .from(cyclePrograms)
    .innerJoin(programs, eq(programs.id, cyclePrograms.program_id))
    .where(
      and(
        eq(cyclePrograms.cycle_id, cycleId),
        eq(programs.partner_id, partnerId),
        programId ? eq(programs.id, programId) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${programs.name})`), asc(programs.level), asc(programs.id));
  const campusesByProgram = await campusesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, campuses: campusesByProgram.get(row.id) ?? [] }));
}

/** One program open in the cycle, else 400 program_not_open. */
export async function openProgram(db: DbOrTx, partnerId: string, cycleId: string, programId: string) {
  const [program] = await openPrograms(db, partnerId, cycleId, programId);
  if (!program) throw new AppError('INVALID_ARGUMENT', A.program_not_open);
  return program;
}

/**
 * The campus an application is made for: the one chosen, which must offer the program (else 400
 * campus_not_offered); none chosen, the program's only campus. A program taught at several campuses is
 * never given one silently: the applicant chooses (else 400 campus_required, the spec's submission
 * text, since this campus is the one the application will be submitted for).
 */
export function chosenCampus(program: ApplyProgram, campusId: string | null | undefined): string | null {
  if (campusId) {
    if (!program.campuses.some((campus) => campus.id === campusId)) {
      throw new AppError('INVALID_ARGUMENT', A.campus_not_offered);
    }
    return campusId;
  }
  if (program.campuses.length > 1) throw new AppError('INVALID_ARGUMENT', A.campus_required);
  return program.campuses[0]?.id ?? null;
}

export interface ApplicationFormDocument {
  id: string;
  name: string;
  version: number;
  sections: FormSection[];
}

const byOrder = <T extends { order: number }>(items: readonly T[]) => [...items].sort((a, b) => a.order - b.order);

/** Sections and questions in their order, whatever order the document stored them in. */
export const orderedSections = (sections: readonly FormSection[]): FormSection[] =>
  byOrder(sections).map((section) => ({ ...section, questions: byOrder(section.questions) }));

/**
 * The form a program is answered with in a cycle: the one attached to (cycle, program), else the
 * cycle's form for every program; none answers 409 no_form.
 */
export async function applicationForm(
  db: DbOrTx,
  partnerId: string,
  cycleId: string,
  programId: string,
): Promise<ApplicationFormDocument> {
  const [row] = await db
    .select({ id: forms.id, name: forms.name, version: forms.version, sections: forms.sections })
    .from(forms)
    .where(
      and(
        eq(forms.partner_id, partnerId),
        eq(forms.cycle_id, cycleId),
        or(eq(forms.program_id, programId), isNull(forms.program_id)),
      ),
    )
    // The program's own form first; among equals the oldest, so the choice never flips.
    .orderBy(sql`${forms.program_id} is null`, asc(forms.created_at), asc(forms.id))
    .limit(1);
  if (!row) throw new AppError('ABORTED', A.no_form, undefined, { reason: 'no_form' });
  return { ...row, sections: orderedSections(row.sections) };
}
