import { z } from 'zod';
import { REVIEW_MESSAGES as R } from '../messages.ts';

/* The review rubric, part of an institution's admissions settings (issue 8). */

/** A criterion of the institution's rubric: each reviewer scores it 0–100; weights set its share. */
export const RubricCriterionSchema = z.object({
  id: z
    .string()
    .min(1, R.criterion_ids_unique)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, R.criterion_ids_unique),
  name: z.string().trim().min(1, R.criterion_name_required).max(80, R.text_too_long),
  weight: z.int(R.weight_invalid).min(1, R.weight_invalid).max(100, R.weight_invalid),
});
export type RubricCriterion = z.infer<typeof RubricCriterionSchema>;
export const RUBRIC_MAX_CRITERIA = 12;
export const SCORE_MAX = 100;

/** One criterion, "Overall", until the institution writes its own. */
export const DEFAULT_RUBRIC: RubricCriterion[] = [{ id: 'overall', name: 'Overall', weight: 1 }];

export const RubricSchema = z
  .array(RubricCriterionSchema)
  .min(1, R.rubric_empty)
  .max(RUBRIC_MAX_CRITERIA, R.rubric_too_long)
  .superRefine((criteria, ctx) => {
    const ids = new Set<string>();
    criteria.forEach((criterion, index) => {
      if (ids.has(criterion.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: R.criterion_ids_unique });
      ids.add(criterion.id);
    });
  });

/**
 * The weighted score of one reviewer: Σ(weight × score) / Σ(weight), two decimals. Criteria missing from
 * `scores` count as not scored, which the api refuses before calling this.
 */
export function weightedScore(rubric: readonly RubricCriterion[], scores: Readonly<Record<string, number>>): number {
  const weights = rubric.reduce((sum, criterion) => sum + criterion.weight, 0);
  const total = rubric.reduce((sum, criterion) => sum + criterion.weight * (scores[criterion.id] ?? 0), 0);
  return weights === 0 ? 0 : Math.round((total / weights) * 100) / 100;
}
