import { z } from 'zod';
import { STANDINGS, type ExamSystem } from './schema.ts';
import { subjectName } from './results.ts';
import { checkSittings, examEligibility, type Check, type Eligibility, type Sitting } from './eligibility.ts';
import type { ExamRequirement } from './requirements.ts';

/*
 * Eligibility as the applicant and staff read it (issue 25): the answer of `eligibility()` with names in
 * place of ids (the examination, its subjects), so a screen can say each reason in plain words without
 * carrying the examination systems' data.
 */

const OUTCOMES = ['met', 'unmet', 'unknown'] as const;
export const ELIGIBILITY_STATUSES = ['eligible', 'needs_review', 'not_eligible'] as const;
export const ELIGIBILITY_BASES = ['no_requirements', 'rules', 'no_results', 'exam_not_listed', 'unknown_exam'] as const;

export const CheckViewSchema = z.discriminatedUnion('rule', [
  z.object({
    rule: z.literal('standing_count'),
    outcome: z.enum(OUTCOMES),
    standing: z.enum(STANDINGS),
    needed: z.number(),
    have: z.number(),
  }),
  z.object({
    rule: z.literal('subject_grade'),
    outcome: z.enum(OUTCOMES),
    subjects: z.array(z.string()),
    needed: z.string(),
    have: z.string().nullable(),
  }),
  z.object({
    rule: z.literal('aggregate'),
    outcome: z.enum(OUTCOMES),
    label: z.string(),
    needed: z.number(),
    have: z.number().nullable(),
  }),
  z.object({
    rule: z.literal('class'),
    outcome: z.enum(OUTCOMES),
    label: z.string(),
    needed: z.string(),
    have: z.string().nullable(),
  }),
]);
export type CheckView = z.infer<typeof CheckViewSchema>;

export const EligibilityViewSchema = z.object({
  status: z.enum(ELIGIBILITY_STATUSES),
  basis: z.enum(ELIGIBILITY_BASES),
  /** The examination whose rules decided (its short name), with the aggregate they computed. */
  exam: z.string().nullable(),
  aggregate: z.number().nullable(),
  checks: z.array(CheckViewSchema),
  /** Requirements a person checks, as the program states them. */
  other: z.string().nullable(),
  /** The examinations the program accepts, by short name. */
  accepted: z.array(z.string()),
});
export type EligibilityView = z.infer<typeof EligibilityViewSchema>;

/** A check with its subjects named as their examination calls them. */
function checkView(check: Check, system: ExamSystem | null): CheckView {
  return check.rule === 'subject_grade' && system
    ? { ...check, subjects: check.subjects.map((subject) => subjectName(system, subject)) }
    : check;
}

/** The answer with names: subjects as their examination calls them, examinations by their short names. */
export function eligibilityView(result: Eligibility, systemOf: (id: string) => ExamSystem | null): EligibilityView {
  const decided = result.decided_by;
  const system = decided ? systemOf(decided.exam) : null;
  return {
    status: result.status,
    basis: result.basis,
    exam: system?.short_name ?? null,
    aggregate: decided?.aggregate ?? null,
    checks: (decided?.checks ?? []).map((check) => checkView(check, system)),
    other: result.other,
    accepted: result.accepted.map((id) => systemOf(id)?.short_name ?? id),
  };
}

/** A program of an institution with the signed-in student's eligibility for it. */
export const ProgramEligibilitySchema = z.object({
  program_id: z.uuid(),
  name: z.string(),
  level: z.string(),
  eligibility: EligibilityViewSchema,
});
export type ProgramEligibility = z.infer<typeof ProgramEligibilitySchema>;

export const EligibilityQuerySchema = z.object({ partner_id: z.uuid() });

/**
 * An aggregate as points out of 100, higher better, so applicants of different examinations sort on one
 * scale in the queue: where the aggregate falls in its examination's range (WASSCE's best aggregate, 6,
 * is 100; KCSE's 84 is 100).
 */
export function pointsScore(system: ExamSystem, aggregate: number | null): number | null {
  if (aggregate === null) return null;
  const [min, max] = system.aggregate.range;
  if (max <= min) return null;
  const share =
    system.aggregate.better === 'higher' ? (aggregate - min) / (max - min) : (max - aggregate) / (max - min);
  return Math.round(Math.min(1, Math.max(0, share)) * 10_000) / 100;
}

/** Eligibility as a submission keeps it: the view at the moment of submitting, with its points out of 100. */
export const SubmissionEligibilitySchema = EligibilityViewSchema.extend({ points: z.number().nullable() });
export type SubmissionEligibility = z.infer<typeof SubmissionEligibilitySchema>;

export function submissionEligibility(
  result: Eligibility,
  systemOf: (id: string) => ExamSystem | null,
): SubmissionEligibility {
  const system = result.decided_by ? systemOf(result.decided_by.exam) : null;
  return {
    ...eligibilityView(result, systemOf),
    points: system ? pointsScore(system, result.decided_by!.aggregate) : null,
  };
}

/**
 * An offer's examination condition (issue 26) against the applicant's results as they stand: each rule
 * with what it needs and what the applicant has. Without results in that examination, every rule shows
 * what it needs, unmet. `met` only when every rule is met; `unknown` when a rule cannot be read from the
 * results (a person decides).
 */
export const ConditionViewSchema = z.object({
  exam: z.string(),
  outcome: z.enum(OUTCOMES),
  has_results: z.boolean(),
  checks: z.array(CheckViewSchema),
});
export type ConditionView = z.infer<typeof ConditionViewSchema>;

const OUTCOME_OF = { eligible: 'met', not_eligible: 'unmet', needs_review: 'unknown' } as const;

export function conditionView(
  requirement: ExamRequirement,
  sittings: readonly Sitting[],
  systemOf: (id: string) => ExamSystem | null,
): ConditionView {
  const system = systemOf(requirement.exam);
  if (!system) return { exam: requirement.exam, outcome: 'unknown', has_results: false, checks: [] };
  const result = examEligibility(system, requirement, sittings);
  const checks = (result ?? checkSittings(system, requirement, [])).checks;
  return {
    exam: system.short_name,
    outcome: result ? OUTCOME_OF[result.status] : 'unmet',
    has_results: result !== null,
    checks: checks.map((check) => checkView(check, system)),
  };
}
