import { and, asc, eq, or, sql } from 'drizzle-orm';
import type {
  DecisionState,
  OfferCondition,
  PartnerAdmissionsSettings,
  ProgramEligibility,
  SubmissionEligibility,
} from '@kaminuza/shared';
import {
  conditionView,
  eligibility,
  eligibilityView,
  type ConditionView,
  examSystem,
  submissionEligibility,
  type Eligibility,
  type EntryRules,
  type Sitting,
} from '@kaminuza/shared/exams';
import type { DbOrTx } from '../../db/client.ts';
import { programs } from '../../db/schema/index.ts';
import { findStudent, sittingsOf } from '../students/index.ts';

/*
 * Eligibility (issue 25, ADR 049): a student's examination sittings against programs' entry requirements,
 * computed by the one pure function every screen, the queue and the automatic decisions share.
 */

/** What a program's requirements are made of: its rules per examination, and the text a person reads. */
export interface ProgramRequirements {
  entry_rules: EntryRules;
  requirements: string;
}

/** The sittings as the eligibility function reads them. */
export function sittingsForEligibility(
  sittings: ReadonlyArray<Pick<Sitting, 'exam' | 'year' | 'results'> & { declared: number | null }>,
): Sitting[] {
  return sittings.map(({ exam, year, results, declared }) => ({ exam, year, results, declared }));
}

/** One program's answer for these sittings. */
export function programEligibility(program: ProgramRequirements, sittings: readonly Sitting[]): Eligibility {
  return eligibility({ exams: program.entry_rules.exams, other: program.requirements }, sittings, examSystem);
}

/** Eligibility as a submission keeps it: explained, with its points out of 100 for the queue. */
export function eligibilityOfSubmission(
  program: ProgramRequirements,
  sittings: Parameters<typeof sittingsForEligibility>[0],
): SubmissionEligibility {
  return submissionEligibility(programEligibility(program, sittingsForEligibility(sittings)), examSystem);
}

/**
 * An offer's conditions against the applicant's results as they stand (issue 26): a view for each
 * examination condition, null for a written one. Results are read only when a condition needs them.
 */
export async function offerConditionViews(
  db: DbOrTx,
  studentId: string | null,
  conditions: readonly OfferCondition[],
): Promise<(ConditionView | null)[]> {
  if (!conditions.some((condition) => condition.kind === 'exam')) return conditions.map(() => null);
  const sittings = studentId ? sittingsForEligibility(await sittingsOf(db, studentId)) : [];
  return conditions.map((condition) =>
    condition.kind === 'exam' ? conditionView(condition.requirement, sittings, examSystem) : null,
  );
}

type AutomaticSettings = Pick<
  PartnerAdmissionsSettings,
  | 'auto_decision_basis'
  | 'auto_accept_enabled'
  | 'auto_accept_threshold'
  | 'auto_reject_enabled'
  | 'auto_reject_threshold'
>;

/**
 * The automatic decision of an institution that decides on entry requirements, its thresholds read on
 * the points out of 100 the results earn: accepted when eligible with points at or above the accept
 * threshold; rejected when the rules are clearly unmet, or when eligible with points at or below the
 * reject threshold. Never for a case that needs review: a person decides those.
 */
export function eligibilityDecision(
  settings: AutomaticSettings,
  eligibility: Pick<SubmissionEligibility, 'status' | 'points'> | null,
): Extract<DecisionState, 'accepted' | 'rejected'> | null {
  if (settings.auto_decision_basis !== 'entry_requirements' || !eligibility) return null;
  const { status, points } = eligibility;
  if (status === 'not_eligible') return settings.auto_reject_enabled ? 'rejected' : null;
  if (status !== 'eligible' || points === null) return null;
  if (settings.auto_accept_enabled && points >= settings.auto_accept_threshold) return 'accepted';
  if (settings.auto_reject_enabled && points <= settings.auto_reject_threshold) return 'rejected';
  return null;
}

/**
 * The signed-in student's eligibility for each program of an institution (the university page's
 * Academics tab, the choice of a program before paying, the form's Review step), in name order.
 */
export async function institutionEligibility(
  db: DbOrTx,
  userId: string,
  partnerId: string,
): Promise<ProgramEligibility[]> {
  const student = await findStudent(db, userId);
  const [sittings, rows] = await Promise.all([
    sittingsOf(db, student.id),
    db
      .select({
        id: programs.id,
        name: programs.name,
        level: programs.level,
        entry_rules: programs.entry_rules,
        requirements: programs.requirements,
      })
      .from(programs)
      .where(eq(programs.partner_id, partnerId))
      .orderBy(asc(programs.name), asc(programs.level)),
  ]);
  const read = sittingsForEligibility(sittings);
  return rows.map((program) => ({
    program_id: program.id,
    name: program.name,
    level: program.level,
    eligibility: eligibilityView(programEligibility(program, read), examSystem),
  }));
}

/**
 * The institutions with a program whose entry rules the student's results meet with nothing left for a
 * person to check. Read only among the programs naming an examination the student sat (an index on their
 * examinations finds them), one answer per distinct set of rules (programs often share them), each by the
 * same function as everywhere else. Programs stating no requirements at all are met by anyone: the
 * search finds those itself.
 */
export async function institutionsMetBy(db: DbOrTx, userId: string): Promise<string[]> {
  const student = await findStudent(db, userId);
  const sittings = await sittingsOf(db, student.id);
  const exams = [...new Set(sittings.map((sitting) => sitting.exam))].filter((exam) => examSystem(exam) !== null);
  if (exams.length === 0) return [];
  const naming = exams.map((exam) => sql`${programs.entry_rules} -> 'exams' @> ${JSON.stringify([{ exam }])}::jsonb`);
  const groups = await db
    .select({
      entry_rules: programs.entry_rules,
      partners: sql<string[]>`array_agg(distinct ${programs.partner_id})`,
    })
    .from(programs)
    .where(and(eq(programs.requirements, ''), or(...naming)))
    .groupBy(programs.entry_rules);
  const read = sittingsForEligibility(sittings);
  const met = new Set<string>();
  for (const group of groups) {
    if (programEligibility({ entry_rules: group.entry_rules, requirements: '' }, read).status !== 'eligible') continue;
    for (const partner of group.partners) met.add(partner);
  }
  return [...met];
}
