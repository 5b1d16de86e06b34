import { describe, expect, it } from 'vitest';
import { SETUP_MESSAGES, type Program } from '@kaminuza/shared';
import {
  ProgramFormSchema,
  programFormValues,
  ruleFieldOf,
  ruleFormValues,
  toExamRequirement,
  toProgramInput,
} from './program-form.ts';

const campusId = '00000000-0000-4000-8000-000000000001';

describe('the program form', () => {
  it('turns years and months into months, and "not capped" into no seats', () => {
    const form = {
      ...programFormValues(null, [campusId]),
      name: 'Nursing',
      duration_years: 1,
      duration_extra_months: 6,
    };
    expect(form.campus_ids).toEqual([campusId]);
    const input = toProgramInput(ProgramFormSchema.parse({ ...form, seats: 40 }));
    expect(input).toMatchObject({ duration_months: 18, seats: null, campus_ids: [campusId] });
    expect(toProgramInput({ ...form, seats_unlimited: false, seats: 40 }).seats).toBe(40);
  });

  it('reads a stored program back into the same form', () => {
    const program: Program = {
      id: '00000000-0000-4000-8000-000000000002',
      name: 'Law',
      level: 'graduate',
      field: 'law',
      duration_months: 21,
      language: 'fr',
      tuition_amount: 900,
      tuition_currency: 'RWF',
      requirements: '',
      entry_rules: { exams: [] },
      seats: 25,
      campus_ids: [campusId],
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const form = programFormValues(program, []);
    expect(form).toMatchObject({ duration_years: 1, duration_extra_months: 9, seats_unlimited: false, seats: 25 });
    const { id: _id, created_at: _c, updated_at: _u, ...input } = program;
    expect(toProgramInput(form)).toEqual(input);
  });

  it('refuses a zero duration and a capped program without a number of places', () => {
    const form = {
      ...programFormValues(null, [campusId]),
      name: 'Nursing',
      duration_years: 0,
      duration_extra_months: 0,
    };
    const result = ProgramFormSchema.safeParse({ ...form, seats_unlimited: false, seats: null });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(issues).toEqual([
      ['duration_years', SETUP_MESSAGES.number_invalid],
      ['seats', SETUP_MESSAGES.number_invalid],
    ]);
  });

  it("turns an examination's rules into the api's and back, blank fields being rules not set", () => {
    const rule = {
      exam: 'waec_wassce',
      standing: 'credit' as const,
      standing_count: 5,
      subjects: [
        { first: 'mathematics', second: 'further_mathematics', min_grade: ' C6 ' },
        { first: 'english_language', second: '', min_grade: 'C6' },
      ],
      min_aggregate: 24,
      min_class: '',
      max_sittings: '2' as const,
    };
    const requirement = toExamRequirement(rule);
    expect(requirement).toEqual({
      exam: 'waec_wassce',
      min_standing: { standing: 'credit', count: 5 },
      subjects: [
        { any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' },
        { any_of: ['english_language'], min_grade: 'C6' },
      ],
      min_aggregate: 24,
      max_sittings: 2,
    });
    expect(toExamRequirement(ruleFormValues(requirement))).toEqual(requirement);
    // A count without what it counts, or an emptied number, is no rule.
    expect(toExamRequirement({ ...rule, standing: '', min_aggregate: Number.NaN, max_sittings: '' })).toEqual({
      exam: 'waec_wassce',
      subjects: requirement.subjects,
    });
  });

  it("shows the api's issues about entry rules at their fields", () => {
    expect(ruleFieldOf('entry_rules.exams.1.subjects.0.any_of')).toBe('rules.1.subjects.0.first');
    expect(ruleFieldOf('entry_rules.exams.1.subjects.0.min_grade')).toBe('rules.1.subjects.0.min_grade');
    expect(ruleFieldOf('entry_rules.exams.0.min_standing.standing')).toBe('rules.0.standing');
    expect(ruleFieldOf('entry_rules.exams.0.min_standing.count')).toBe('rules.0.standing_count');
    expect(ruleFieldOf('entry_rules.exams.2.min_class')).toBe('rules.2.min_class');
  });
});
