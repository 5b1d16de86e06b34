import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from '../messages.ts';
import { DOCUMENT_TYPES } from '../schemas/documents.ts';
import { isKnownSubject, readResult } from './results.ts';
import type { ExamSystem } from './schema.ts';

/*
 * An applicant's sitting of an examination (issue 25): the examination, the year, the index number, each
 * subject with its grade on the examination's scale, and the certificate or result slip from Documents.
 * An examination the platform does not know is entered as `other`, with its name and its overall grade
 * as written: a person reads it. Once staff verify a sitting against its document, it is locked.
 */

export const OTHER_EXAM = 'other';

export const SITTING_LIMITS = {
  sittings: 10,
  subjects: 20,
  index_number: 40,
  exam_name: 80,
  overall: 20,
  subject: 80,
  earliest_year: 1950,
} as const;

const currentYear = () => new Date().getUTCFullYear();

const YearSchema = z.coerce
  .number({ error: M.exam_year_invalid })
  .int(M.exam_year_invalid)
  .refine((year) => year >= SITTING_LIMITS.earliest_year && year <= currentYear(), M.exam_year_invalid);

const SubjectResultSchema = z.object({
  subject: z.string().trim().min(1, M.exam_subject_required).max(SITTING_LIMITS.subject, M.exam_subject_unknown),
  grade: z.string().trim().min(1, M.grade_required).max(SITTING_LIMITS.overall, M.grade_too_long),
});

/** What the applicant sends: the structure only; `sittingIssues` checks it against the examination. */
export const ExamSittingInputSchema = z.object({
  exam: z.string().trim().min(1, M.examination_required).max(40, M.examination_required),
  /** The examination's name, for an `other` examination. */
  other_name: z.string().trim().max(SITTING_LIMITS.exam_name, M.examination_name_too_long).default(''),
  year: YearSchema,
  index_number: z.string().trim().max(SITTING_LIMITS.index_number, M.index_number_too_long).default(''),
  results: z.array(SubjectResultSchema).max(SITTING_LIMITS.subjects, M.exam_subjects_over_limit).default([]),
  /** The certificate's own aggregate, for an examination whose aggregate is declared (a Baccalauréat's average). */
  declared: z
    .union([z.literal('').transform(() => null), z.null(), z.coerce.number({ error: M.exam_declared_range })])
    .default(null),
  /** The overall grade as written, for an `other` examination. */
  overall: z.string().trim().max(SITTING_LIMITS.overall, M.grade_too_long).default(''),
  /** The certificate or result slip: the applicant's document of this type (Documents keeps one per type). */
  document_type: z
    .union([z.literal('').transform(() => null), z.null(), z.enum(DOCUMENT_TYPES, M.exam_document_invalid)])
    .default(null),
});
export type ExamSittingInput = z.infer<typeof ExamSittingInputSchema>;
export type ExamSittingFormValues = z.input<typeof ExamSittingInputSchema>;

/** A sitting as the profile shows it. */
export const ExamSittingSchema = z.object({
  id: z.uuid(),
  exam: z.string(),
  other_name: z.string(),
  year: z.number().int(),
  index_number: z.string(),
  results: z.array(z.object({ subject: z.string(), grade: z.string() })),
  declared: z.number().nullable(),
  overall: z.string(),
  document_type: z.enum(DOCUMENT_TYPES).nullable(),
  /** When staff verified it against its document (it can no longer be changed), and which institution. */
  verified: z.object({ at: z.string(), by: z.string() }).nullable(),
});
export type ExamSitting = z.infer<typeof ExamSittingSchema>;

export interface SittingIssue {
  path: (string | number)[];
  message: string;
}

/**
 * What is wrong with a sitting against its examination's rules: an examination the platform does not
 * know, a subject outside its list (or entered twice), a grade not on the subject's scale, a declared
 * aggregate out of range; an `other` examination needs its name and overall grade.
 */
export function sittingIssues(input: ExamSittingInput, systemOf: (id: string) => ExamSystem | null): SittingIssue[] {
  const issues: SittingIssue[] = [];
  if (input.exam === OTHER_EXAM) {
    if (!input.other_name) issues.push({ path: ['other_name'], message: M.examination_name_required });
    if (!input.overall) issues.push({ path: ['overall'], message: M.grade_required });
    return issues;
  }
  const system = systemOf(input.exam);
  if (!system) return [{ path: ['exam'], message: M.examination_required }];
  if (input.results.length === 0) issues.push({ path: ['results'], message: M.exam_results_required });
  const seen = new Set<string>();
  input.results.forEach((result, index) => {
    // A blank subject or grade is the structure's issue ("is required"), not the examination's.
    if (!result.subject || !result.grade) return;
    if (!isKnownSubject(system, result.subject)) {
      issues.push({ path: ['results', index, 'subject'], message: M.exam_subject_unknown });
      return;
    }
    if (seen.has(result.subject))
      issues.push({ path: ['results', index, 'subject'], message: M.exam_subject_repeated });
    seen.add(result.subject);
    if (!readResult(system, result)) issues.push({ path: ['results', index, 'grade'], message: M.exam_grade_unknown });
  });
  if (input.declared !== null) {
    const [min, max] = system.aggregate.range;
    if (system.aggregate.method !== 'declared' || input.declared < min || input.declared > max)
      issues.push({ path: ['declared'], message: M.exam_declared_range });
  }
  return issues;
}

/** The sitting as stored: grades as the scale writes them, `other` fields cleared for a known examination. */
export function normalizeSitting(input: ExamSittingInput, system: ExamSystem | null): ExamSittingInput {
  if (!system) return { ...input, results: [], declared: null };
  return {
    ...input,
    other_name: '',
    overall: '',
    results: input.results.map((result) => ({
      subject: result.subject,
      grade: readResult(system, result)?.grade ?? result.grade,
    })),
  };
}

/** The input schema with the examination's rules: what the form resolves and the api parses. */
export function examSittingInputSchema(systemOf: (id: string) => ExamSystem | null) {
  return ExamSittingInputSchema.superRefine((value, ctx) => {
    for (const issue of sittingIssues(value, systemOf)) ctx.addIssue({ code: 'custom', ...issue });
  });
}

export const ExamSittingParamsSchema = z.object({ sittingId: z.uuid() });

/** A sitting as a submission keeps it: as it stood when the form was sent, and whether it was verified then. */
export const SubmittedSittingSchema = ExamSittingSchema.extend({ verified: z.boolean() });
export type SubmittedSitting = z.infer<typeof SubmittedSittingSchema>;

/** A sitting as a submission keeps it. */
export const submittedSitting = ({ verified, ...sitting }: ExamSitting): SubmittedSitting => ({
  ...sitting,
  verified: verified !== null,
});
