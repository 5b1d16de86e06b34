import { z } from 'zod';
import { ProgramInputSchema, SETUP_MESSAGES as S, type Program, type ProgramInput } from '@kaminuza/shared';
import { STANDINGS, type ExamRequirement } from '@kaminuza/shared/exams';

/** Currencies institutions on the continent charge tuition in, then the common international ones. */
export const TUITION_CURRENCIES = [
  'RWF',
  'KES',
  'UGX',
  'TZS',
  'BIF',
  'CDF',
  'ETB',
  'NGN',
  'GHS',
  'XOF',
  'XAF',
  'ZAR',
  'EGP',
  'MAD',
  'USD',
  'EUR',
  'GBP',
] as const;

const count = (max: number) => z.int(S.number_invalid).min(0, S.number_invalid).max(max, S.number_invalid);
/** An optional number field: empty (NaN from the input) is none. */
const optionalNumber = z.number().nullable();

/**
 * One examination's rules as the dialog edits them: a subject rule names a subject and, optionally, an
 * alternative; blank fields are rules not set. toProgramInput turns them into the api's ExamRequirement.
 */
export const RuleFormSchema = z
  .object({
    exam: z.string().min(1, S.exam_unknown),
    standing: z.enum(STANDINGS).or(z.literal('')),
    standing_count: optionalNumber,
    subjects: z
      .array(
        z.object({
          first: z.string().min(1, S.exam_subject_unknown),
          second: z.string(),
          min_grade: z.string().trim().min(1, S.exam_grade_unknown).max(6, S.exam_grade_unknown),
        }),
      )
      .max(10),
    min_aggregate: optionalNumber,
    min_class: z.string(),
    max_sittings: z.enum(['', '1', '2', '3']),
  })
  .superRefine((rule, ctx) => {
    const counted = rule.standing_count;
    if (counted !== null && !Number.isNaN(counted) && !(Number.isInteger(counted) && counted >= 1 && counted <= 15))
      ctx.addIssue({ code: 'custom', path: ['standing_count'], message: S.number_invalid });
    if (rule.min_aggregate !== null && Number.isNaN(rule.min_aggregate))
      ctx.addIssue({ code: 'custom', path: ['min_aggregate'], message: S.exam_aggregate_range });
  });
export type RuleForm = z.infer<typeof RuleFormSchema>;

const present = (value: number | null): value is number => value !== null && !Number.isNaN(value);

export function toExamRequirement(rule: RuleForm): ExamRequirement {
  return {
    exam: rule.exam,
    ...(rule.standing && present(rule.standing_count)
      ? { min_standing: { standing: rule.standing, count: rule.standing_count } }
      : {}),
    subjects: rule.subjects.map((subject) => ({
      any_of: subject.second && subject.second !== subject.first ? [subject.first, subject.second] : [subject.first],
      min_grade: subject.min_grade.trim(),
    })),
    ...(present(rule.min_aggregate) ? { min_aggregate: rule.min_aggregate } : {}),
    ...(rule.min_class ? { min_class: rule.min_class } : {}),
    ...(rule.max_sittings ? { max_sittings: Number(rule.max_sittings) } : {}),
  };
}

export function ruleFormValues(requirement: ExamRequirement): RuleForm {
  return {
    exam: requirement.exam,
    standing: requirement.min_standing?.standing ?? '',
    standing_count: requirement.min_standing?.count ?? null,
    subjects: requirement.subjects.map((subject) => ({
      first: subject.any_of[0] ?? '',
      second: subject.any_of[1] ?? '',
      min_grade: subject.min_grade,
    })),
    min_aggregate: requirement.min_aggregate ?? null,
    min_class: requirement.min_class ?? '',
    max_sittings: requirement.max_sittings ? (String(requirement.max_sittings) as '1' | '2' | '3') : '',
  };
}

/** A new examination's rules: nothing set yet. */
export const emptyRule = (exam = ''): RuleForm => ({
  exam,
  standing: '',
  standing_count: null,
  subjects: [],
  min_aggregate: null,
  min_class: '',
  max_sittings: '',
});

/** Where the api's issue about an entry rule shows in the dialog (`entry_rules.exams.0.subjects.1.any_of`). */
export function ruleFieldOf(path: string): string {
  return path
    .replace(/^entry_rules\.exams\./, 'rules.')
    .replace(/\.any_of(\.\d+)?$/, '.first')
    .replace(/\.min_standing\.(standing|count)$/, (_, part: string) =>
      part === 'count' ? '.standing_count' : '.standing',
    );
}

/**
 * The program dialog's form: the duration as years and months, and the seats as "not capped" or a
 * number. It turns into a ProgramInput, which the api validates again.
 */
export const ProgramFormSchema = ProgramInputSchema.omit({ duration_months: true, seats: true, entry_rules: true })
  .extend({
    rules: z.array(RuleFormSchema).max(12),
    duration_years: count(10),
    duration_extra_months: count(11),
    seats_unlimited: z.boolean(),
    /** Only read when the places are limited. */
    seats: z.number().nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.duration_years * 12 + value.duration_extra_months < 1) {
      ctx.addIssue({ code: 'custom', path: ['duration_years'], message: S.number_invalid });
    }
    const seats = value.seats ?? Number.NaN;
    if (!value.seats_unlimited && !(Number.isInteger(seats) && seats >= 1 && seats <= 1_000_000)) {
      ctx.addIssue({ code: 'custom', path: ['seats'], message: S.number_invalid });
    }
  });
export type ProgramForm = z.infer<typeof ProgramFormSchema>;

export function toProgramInput({
  duration_years,
  duration_extra_months,
  seats_unlimited,
  seats,
  rules,
  ...rest
}: ProgramForm): ProgramInput {
  return {
    ...rest,
    entry_rules: { exams: rules.map(toExamRequirement) },
    duration_months: duration_years * 12 + duration_extra_months,
    seats: seats_unlimited ? null : seats,
  };
}

/** The form's values for a program, or a new program's defaults. */
export function programFormValues(program: Program | null, campusIds: string[]): ProgramForm {
  if (!program) {
    return {
      name: '',
      level: 'undergraduate',
      field: 'technology',
      duration_years: 4,
      duration_extra_months: 0,
      language: 'en',
      tuition_amount: 0,
      tuition_currency: 'RWF',
      requirements: '',
      rules: [],
      seats_unlimited: true,
      seats: null,
      // With one campus there is nothing to choose: the program is taught there.
      campus_ids: campusIds.length === 1 ? campusIds : [],
    };
  }
  const { duration_months, seats, ...rest } = program;
  return {
    name: rest.name,
    level: rest.level,
    field: rest.field,
    language: rest.language,
    tuition_amount: rest.tuition_amount,
    tuition_currency: rest.tuition_currency,
    requirements: rest.requirements,
    rules: rest.entry_rules.exams.map(ruleFormValues),
    campus_ids: rest.campus_ids,
    duration_years: Math.floor(duration_months / 12),
    duration_extra_months: duration_months % 12,
    seats_unlimited: seats === null,
    seats,
  };
}

/** A duration in months as the reader says it: "4 years", "1 year 6 months", "9 months". */
export function durationParts(months: number): { years: number; months: number } {
  return { years: Math.floor(months / 12), months: months % 12 };
}
