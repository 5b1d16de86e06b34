import { z } from 'zod';

/*
 * National examinations as data (issue 25). Each system is one JSON file in ./systems, checked against
 * ExamSystemSchema by the data test, with worked examples from its sources that the aggregate must
 * reproduce. A file changes when its examining body changes its rules: `version` goes up and `updated`
 * says when; results already entered keep the system's id, so they are read with the current rules.
 */

const Id = z.string().regex(/^[a-z][a-z0-9_]*$/, 'lower-case letters, digits and underscores');

/** What a grade counts as, in the words admissions rules use. */
export const STANDINGS = ['pass', 'credit', 'distinction', 'principal', 'subsidiary'] as const;
export type Standing = (typeof STANDINGS)[number];

export const GradeSchema = z.object({
  /** As printed on the result slip: `A1`, `B+`, `7`. */
  grade: z.string().min(1).max(4),
  /** What the aggregate adds up. */
  points: z.number(),
  /** The marks the grade stands for, where the source gives them. */
  marks: z.tuple([z.number(), z.number()]).optional(),
  /** What the grade counts as (none: a fail). */
  standings: z.array(z.enum(STANDINGS)),
  /** The source's word for the grade: "Excellent", "Credit". */
  description: z.string().optional(),
});
export type Grade = z.infer<typeof GradeSchema>;

/** Letter or number grades, best first. */
const GradeScaleSchema = z.object({
  kind: z.literal('grades'),
  grades: z.array(GradeSchema).min(2),
});

/**
 * Marks on a range (a Baccalauréat's marks out of 20, an examination scored out of 100): the standings
 * from their thresholds (`pass: 10` means 10 and above is a pass).
 */
const MarkScaleSchema = z.object({
  kind: z.literal('marks'),
  min: z.number(),
  max: z.number(),
  /** The smallest step a mark takes (0.01: two decimals). */
  step: z.number().positive(),
  thresholds: z.partialRecord(z.enum(STANDINGS), z.number()),
});

export const ScaleSchema = z.discriminatedUnion('kind', [GradeScaleSchema, MarkScaleSchema]);
export type Scale = z.infer<typeof ScaleSchema>;

export const SubjectSchema = z.object({
  id: Id,
  name: z.string().min(2),
  /** Other names the subject goes by, for the searchable list. */
  aliases: z.array(z.string()).default([]),
  /** The scale it is graded on, when not `main` (UACE's subsidiary subjects). */
  scale: Id.default('main'),
});
export type Subject = z.infer<typeof SubjectSchema>;

/**
 * One pick of the aggregate: the best `count` results among `from` (any subject not yet taken when
 * absent), leaving out `exclude`, counting only grades with `standing` when given. Picks are taken in
 * order and a result counts once: WASSCE's aggregate is English, Mathematics, then the better of
 * Integrated Science and Social Studies, then the best three others.
 */
export const PickSchema = z.object({
  from: z.array(Id).optional(),
  exclude: z.array(Id).default([]),
  count: z.number().int().positive(),
  standing: z.enum(STANDINGS).optional(),
});

export const AggregateSchema = z.object({
  /** What the examining body calls it: "Aggregate", "Mean grade", "APS", "Average". */
  label: z.string(),
  /**
   * `sum` or `mean` of the picked results' points (or marks); `declared`: the official figure as printed
   * on the certificate (a Baccalauréat average weighs subjects by the série's coefficients), entered by
   * the applicant within `range`.
   */
  method: z.enum(['sum', 'mean', 'declared']),
  picks: z.array(PickSchema).default([]),
  /** Whether a lower figure is better (WASSCE: 6 is the best aggregate). */
  better: z.enum(['higher', 'lower']),
  range: z.tuple([z.number(), z.number()]),
  /** Classes of the aggregate, best first: KCSE's mean grades, divisions, mentions. */
  classes: z.array(z.object({ label: z.string(), min: z.number(), max: z.number() })).default([]),
  /** A rule of the source the aggregate leaves out, said plainly (shown to staff). */
  note: z.string().optional(),
});
export type Aggregate = z.infer<typeof AggregateSchema>;

export const ExampleSchema = z.object({
  title: z.string(),
  /** Where the example or the rule it follows is stated. */
  source: z.url(),
  results: z.array(z.object({ subject: Id, grade: z.string() })),
  /** For a `declared` aggregate: the figure entered. */
  declared: z.number().optional(),
  aggregate: z.number(),
  class: z.string().optional(),
  /** How many results count as each standing. */
  standings: z.partialRecord(z.enum(STANDINGS), z.number().int().nonnegative()).default({}),
});

export const ExamSystemSchema = z
  .object({
    id: Id,
    version: z.number().int().positive(),
    updated: z.iso.date(),
    name: z.string(),
    short_name: z.string().max(24),
    /** The examining body. */
    body: z.string(),
    /** Where it is sat (ISO 3166-1 alpha-2). */
    countries: z.array(z.string().regex(/^[A-Z]{2}$/)).min(1),
    level: z.enum(['secondary', 'advanced']),
    sources: z.array(z.object({ title: z.string(), url: z.url() })).min(1),
    scales: z.record(Id, ScaleSchema).refine((scales) => 'main' in scales, 'a `main` scale'),
    subjects: z.array(SubjectSchema).min(1),
    /** The applicant may enter a subject not on the list (graded on the main scale). */
    other_subjects: z.boolean(),
    aggregate: AggregateSchema,
    examples: z.array(ExampleSchema).min(2),
  })
  .superRefine((system, ctx) => {
    const subjects = new Set<string>();
    for (const [index, subject] of system.subjects.entries()) {
      if (subjects.has(subject.id))
        ctx.addIssue({ code: 'custom', path: ['subjects', index, 'id'], message: 'repeated' });
      subjects.add(subject.id);
      if (!(subject.scale in system.scales))
        ctx.addIssue({ code: 'custom', path: ['subjects', index, 'scale'], message: 'no such scale' });
    }
    for (const [index, pick] of system.aggregate.picks.entries()) {
      for (const id of [...(pick.from ?? []), ...pick.exclude])
        if (!subjects.has(id))
          ctx.addIssue({ code: 'custom', path: ['aggregate', 'picks', index], message: `unknown subject ${id}` });
    }
    for (const [name, scale] of Object.entries(system.scales)) {
      if (scale.kind !== 'grades') continue;
      const grades = new Set(scale.grades.map((grade) => grade.grade));
      if (grades.size !== scale.grades.length)
        ctx.addIssue({ code: 'custom', path: ['scales', name], message: 'a grade is repeated' });
    }
    for (const [index, example] of system.examples.entries()) {
      for (const result of example.results)
        if (!subjects.has(result.subject))
          ctx.addIssue({ code: 'custom', path: ['examples', index], message: `unknown subject ${result.subject}` });
    }
  });
export type ExamSystem = z.infer<typeof ExamSystemSchema>;
export type ExamSystemInput = z.input<typeof ExamSystemSchema>;
