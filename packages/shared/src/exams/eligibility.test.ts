import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eligibility, type Sitting } from './eligibility.ts';
import { examSystem } from './index.ts';
import { EntryRequirementsSchema, type EntryRequirementsInput, type ExamRequirement } from './requirements.ts';
import { ExamSystemSchema, type ExamSystem, type ExamSystemInput } from './schema.ts';

const wassce = examSystem('waec_wassce')!;

/** A small system of our own, higher points better, with a mean and classes, for the rules and properties. */
const points: ExamSystem = ExamSystemSchema.parse({
  id: 'points_test',
  version: 1,
  updated: '2026-11-27',
  name: 'Points test certificate',
  short_name: 'PTC',
  body: 'Test board',
  countries: ['KE'],
  level: 'secondary',
  sources: [{ title: 'Test', url: 'https://example.org/ptc' }],
  scales: {
    main: {
      kind: 'grades',
      grades: [
        { grade: 'A', points: 4, standings: ['pass', 'credit', 'distinction'] },
        { grade: 'B', points: 3, standings: ['pass', 'credit'] },
        { grade: 'C', points: 2, standings: ['pass'] },
        { grade: 'D', points: 1, standings: [] },
      ],
    },
  },
  subjects: ['english_language', 'mathematics', 'physics', 'chemistry', 'biology', 'history'].map((id) => ({
    id,
    name: id,
  })),
  other_subjects: true,
  aggregate: {
    label: 'Total',
    method: 'sum',
    picks: [{ from: ['english_language'], count: 1 }, { count: 3 }],
    better: 'higher',
    range: [4, 16],
    classes: [
      { label: 'First', min: 13, max: 16 },
      { label: 'Second', min: 9, max: 12 },
      { label: 'Third', min: 4, max: 8 },
    ],
  },
  examples: [
    { title: 'a', source: 'https://example.org/ptc', results: [], aggregate: 0 },
    { title: 'b', source: 'https://example.org/ptc', results: [], aggregate: 0 },
  ],
} satisfies ExamSystemInput);

const systems = new Map([wassce, points].map((system) => [system.id, system]));
const systemOf = (id: string) => systems.get(id) ?? null;
const requirements = (input: EntryRequirementsInput) => EntryRequirementsSchema.parse(input);
const sitting = (exam: string, year: number, results: Record<string, string>): Sitting => ({
  exam,
  year,
  results: Object.entries(results).map(([subject, grade]) => ({ subject, grade })),
});

/** Five WASSCE credits including English and Mathematics, aggregate 24 or better (a common rule in Ghana). */
const ghanaRule: ExamRequirement = {
  exam: 'waec_wassce',
  min_standing: { standing: 'credit', count: 5 },
  subjects: [
    { any_of: ['english_language'], min_grade: 'C6' },
    { any_of: ['mathematics', 'further_mathematics'], min_grade: 'C6' },
  ],
  min_aggregate: 24,
};

const strong = sitting('waec_wassce', 2025, {
  english_language: 'B2',
  mathematics: 'C4',
  integrated_science: 'B3',
  social_studies: 'C5',
  physics: 'B3',
  chemistry: 'C4',
  biology: 'C6',
});

describe('eligibility', () => {
  it('is eligible when every rule of an accepted examination is met, each rule shown as met', () => {
    const answer = eligibility(requirements({ exams: [ghanaRule] }), [strong], systemOf);
    expect(answer.status).toBe('eligible');
    expect(answer.basis).toBe('rules');
    expect(answer.decided_by?.aggregate).toBe(2 + 4 + 3 + 3 + 4 + 5);
    expect(answer.decided_by?.checks.map((check) => [check.rule, check.outcome])).toEqual([
      ['standing_count', 'met'],
      ['subject_grade', 'met'],
      ['subject_grade', 'met'],
      ['aggregate', 'met'],
    ]);
  });

  it('says which rule is unmet, what is needed and what the applicant has', () => {
    const weak = sitting('waec_wassce', 2025, {
      ...Object.fromEntries(strong.results.map((r) => [r.subject, r.grade])),
      mathematics: 'D7',
    });
    const answer = eligibility(requirements({ exams: [ghanaRule] }), [weak], systemOf);
    expect(answer.status).toBe('not_eligible');
    expect(answer.decided_by?.checks).toContainEqual({
      rule: 'subject_grade',
      outcome: 'unmet',
      subjects: ['mathematics', 'further_mathematics'],
      needed: 'C6',
      have: 'D7',
    });
  });

  it('takes the better of alternative subjects ("Mathematics or Further Mathematics")', () => {
    const withFurther = sitting('waec_wassce', 2025, {
      ...Object.fromEntries(strong.results.map((r) => [r.subject, r.grade])),
      mathematics: 'D7',
      further_mathematics: 'B2',
    });
    const answer = eligibility(requirements({ exams: [ghanaRule] }), [withFurther], systemOf);
    expect(answer.decided_by?.checks[2]).toMatchObject({ outcome: 'met', have: 'B2' });
  });

  it('combines sittings up to the limit, at the better grade of a subject resat', () => {
    const rule: ExamRequirement = { ...ghanaRule, max_sittings: 2 };
    const first = sitting('waec_wassce', 2024, { english_language: 'B2', mathematics: 'E8', physics: 'C4' });
    const resit = sitting('waec_wassce', 2025, { mathematics: 'C5', chemistry: 'C4', biology: 'C6' });
    const other = sitting('waec_wassce', 2023, { integrated_science: 'A1', social_studies: 'B2' });
    const two = eligibility(requirements({ exams: [rule] }), [first, resit], systemOf);
    expect(two.decided_by?.checks[2]).toMatchObject({ outcome: 'met', have: 'C5' });
    // Neither Integrated Science nor Social Studies: the aggregate cannot be computed, a person looks.
    expect(two.status).toBe('needs_review');
    // Three sittings, two at most: the best pair is weighed, and no pair holds the aggregate's core subjects.
    const three = eligibility(requirements({ exams: [rule] }), [first, resit, other], systemOf);
    expect(three.decided_by?.sittings).toHaveLength(2);
    const all = eligibility(requirements({ exams: [{ ...rule, max_sittings: 3 }] }), [first, resit, other], systemOf);
    expect(all.status).toBe('eligible');
    expect(all.decided_by?.sittings.sort()).toEqual([2023, 2024, 2025]);
  });

  it('needs review when an aggregate cannot be computed from the results', () => {
    const partial = sitting('waec_wassce', 2025, { english_language: 'A1', mathematics: 'A1' });
    const answer = eligibility(
      requirements({ exams: [{ exam: 'waec_wassce', min_aggregate: 24 }] }),
      [partial],
      systemOf,
    );
    expect(answer.status).toBe('needs_review');
    expect(answer.decided_by?.checks).toEqual([
      { rule: 'aggregate', outcome: 'unknown', label: 'Aggregate', needed: 24, have: null },
    ]);
  });

  it("reads classes in the aggregate's direction", () => {
    const rule = { exam: 'points_test', min_class: 'Second' };
    const second = sitting('points_test', 2025, {
      english_language: 'B',
      mathematics: 'B',
      physics: 'C',
      history: 'C',
    });
    const third = sitting('points_test', 2025, { english_language: 'C', mathematics: 'C', physics: 'C', history: 'D' });
    expect(eligibility(requirements({ exams: [rule] }), [second], systemOf).decided_by?.checks).toEqual([
      { rule: 'class', outcome: 'met', label: 'Total', needed: 'Second', have: 'Second' },
    ]);
    expect(eligibility(requirements({ exams: [rule] }), [third], systemOf).decided_by?.checks).toEqual([
      { rule: 'class', outcome: 'unmet', label: 'Total', needed: 'Second', have: 'Third' },
    ]);
  });

  it('is met by any one accepted examination, side by side', () => {
    const both = requirements({ exams: [ghanaRule, { exam: 'points_test', min_aggregate: 10 }] });
    const kenyan = sitting('points_test', 2025, {
      english_language: 'A',
      mathematics: 'B',
      physics: 'B',
      history: 'C',
    });
    expect(eligibility(both, [kenyan], systemOf)).toMatchObject({
      status: 'eligible',
      decided_by: { exam: 'points_test' },
    });
  });

  it('leaves to a person what rules cannot decide: other requirements, unlisted examinations, no results', () => {
    const withInterview = requirements({ exams: [ghanaRule], other: 'An interview with the department.' });
    expect(eligibility(withInterview, [strong], systemOf)).toMatchObject({
      status: 'needs_review',
      basis: 'rules',
      other: 'An interview with the department.',
    });
    const kenyan = sitting('points_test', 2025, { english_language: 'A' });
    expect(eligibility(requirements({ exams: [ghanaRule] }), [kenyan], systemOf)).toMatchObject({
      status: 'needs_review',
      basis: 'exam_not_listed',
      accepted: ['waec_wassce'],
    });
    expect(eligibility(requirements({ exams: [ghanaRule] }), [], systemOf).basis).toBe('no_results');
    expect(eligibility(requirements({}), [strong], systemOf)).toMatchObject({
      status: 'eligible',
      basis: 'no_requirements',
    });
  });

  it('needs review for a minimum grade that is on no scale of the subjects', () => {
    const odd = requirements({
      exams: [{ exam: 'waec_wassce', subjects: [{ any_of: ['mathematics'], min_grade: 'Z9' }] }],
    });
    expect(eligibility(odd, [strong], systemOf).status).toBe('needs_review');
  });
});

/* ---------------------------------------------------------------- properties */

const SUBJECTS = points.subjects.map((subject) => subject.id);
const GRADES = ['A', 'B', 'C', 'D'];

const resultsArb = fc.dictionary(fc.constantFrom(...SUBJECTS), fc.constantFrom(...GRADES), {
  maxKeys: SUBJECTS.length,
});
const requirementArb: fc.Arbitrary<ExamRequirement> = fc.record(
  {
    exam: fc.constant('points_test'),
    min_standing: fc.record({
      standing: fc.constantFrom('pass' as const, 'credit' as const, 'distinction' as const),
      count: fc.integer({ min: 1, max: 6 }),
    }),
    subjects: fc.array(
      fc.record({
        any_of: fc.uniqueArray(fc.constantFrom(...SUBJECTS), { minLength: 1, maxLength: 3 }),
        min_grade: fc.constantFrom(...GRADES),
      }),
      { maxLength: 3 },
    ),
    min_aggregate: fc.integer({ min: 4, max: 16 }),
    min_class: fc.constantFrom('First', 'Second', 'Third'),
  },
  { requiredKeys: ['exam', 'subjects'] },
);
const statusOf = (requirement: ExamRequirement, results: Record<string, string>) =>
  eligibility(requirements({ exams: [requirement] }), [sitting('points_test', 2025, results)], systemOf).status;

describe('eligibility, for any results and requirements', () => {
  it('never turns an eligible applicant ineligible for a better grade or one more subject', () => {
    fc.assert(
      fc.property(
        requirementArb,
        resultsArb,
        fc.constantFrom(...SUBJECTS),
        fc.constantFrom(...GRADES),
        (requirement, results, subject, grade) => {
          const before = statusOf(requirement, results);
          const current = results[subject];
          // Only an improvement: a new subject, or a better grade (earlier in GRADES).
          if (current !== undefined && GRADES.indexOf(grade) >= GRADES.indexOf(current)) return;
          const after = statusOf(requirement, { ...results, [subject]: grade });
          // (A case that needs review may be decided either way once the results say more.)
          if (before === 'eligible') expect(after).toBe('eligible');
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('never admits more applicants under requirements that add a rule', () => {
    fc.assert(
      fc.property(requirementArb, requirementArb, resultsArb, (base, extra, results) => {
        const stricter: ExamRequirement = {
          ...base,
          subjects: [...base.subjects, ...extra.subjects],
          min_standing: base.min_standing ?? extra.min_standing,
          min_aggregate: base.min_aggregate ?? extra.min_aggregate,
          min_class: base.min_class ?? extra.min_class,
        };
        if (statusOf(stricter, results) === 'eligible') expect(statusOf(base, results)).toBe('eligible');
      }),
      { numRuns: 2_000 },
    );
  });

  it('never admits more applicants under stricter thresholds', () => {
    fc.assert(
      fc.property(requirementArb, resultsArb, fc.integer({ min: 0, max: 4 }), (base, results, raise) => {
        const stricter: ExamRequirement = {
          ...base,
          ...(base.min_standing
            ? { min_standing: { ...base.min_standing, count: base.min_standing.count + raise } }
            : {}),
          ...(base.min_aggregate !== undefined ? { min_aggregate: base.min_aggregate + raise } : {}),
          subjects: base.subjects.map((rule) => ({
            ...rule,
            min_grade: GRADES[Math.max(0, GRADES.indexOf(rule.min_grade) - raise)]!,
          })),
        };
        if (statusOf(stricter, results) === 'eligible') expect(statusOf(base, results)).toBe('eligible');
      }),
      { numRuns: 2_000 },
    );
  });
});
