import { z } from 'zod';
import { STANDINGS } from './schema.ts';

/*
 * A program's entry requirements (issue 25): for each examination it accepts, what the applicant's
 * results must show; several examinations side by side (WASSCE and KCSE rules for one program), any one
 * of them satisfied being enough. What a rule cannot say goes in `other`, read by a person.
 */

const SystemId = z.string().regex(/^[a-z][a-z0-9_]*$/);
const SubjectId = z.string().min(1).max(80);

/** A subject at a minimum grade; several subjects are alternatives ("Mathematics or Further Mathematics"). */
export const SubjectRequirementSchema = z.object({
  any_of: z.array(SubjectId).min(1).max(5),
  /** On the subjects' scale, as printed (`C6`, `B+`, `5`, `12.5`). */
  min_grade: z.string().trim().min(1).max(6),
});
export type SubjectRequirement = z.infer<typeof SubjectRequirementSchema>;

export const ExamRequirementSchema = z.object({
  exam: SystemId,
  /** At least `count` results that count as `standing` ("five credits", "two principal passes"). */
  min_standing: z.object({ standing: z.enum(STANDINGS), count: z.number().int().min(1).max(15) }).optional(),
  subjects: z.array(SubjectRequirementSchema).max(10).default([]),
  /** The aggregate at least this good, in the system's own direction (WASSCE: 24 or lower). */
  min_aggregate: z.number().optional(),
  /** The aggregate's class at least this good (KCSE's mean grade C+). */
  min_class: z.string().trim().min(1).max(40).optional(),
  /** Results from at most this many sittings combined ("in not more than two sittings"). */
  max_sittings: z.number().int().min(1).max(3).optional(),
});
export type ExamRequirement = z.infer<typeof ExamRequirementSchema>;

/** The rules a program states per examination (the program's free-text requirements are the `other`). */
export const EntryRulesSchema = z.object({
  exams: z.array(ExamRequirementSchema).max(12).default([]),
});
export type EntryRules = z.infer<typeof EntryRulesSchema>;

export const EntryRequirementsSchema = z.object({
  exams: z.array(ExamRequirementSchema).max(12).default([]),
  /** Requirements a person checks (an interview, a portfolio, an equivalence). */
  other: z.string().trim().max(1000).default(''),
});
export type EntryRequirements = z.infer<typeof EntryRequirementsSchema>;
export type EntryRequirementsInput = z.input<typeof EntryRequirementsSchema>;
