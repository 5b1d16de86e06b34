import { SETUP_MESSAGES as S } from '../messages.ts';
import type { EntryRules } from './requirements.ts';
import { isKnownSubject, OTHER_SUBJECT_PREFIX, readGrade, scaleOf } from './results.ts';
import { STANDINGS, type ExamSystem, type Standing } from './schema.ts';

/** The standings a system grades results as (a KCSE result is never a "principal pass"). */
export function standingsOf(system: ExamSystem): Standing[] {
  return STANDINGS.filter((standing) =>
    Object.values(system.scales).some((scale) =>
      scale.kind === 'grades'
        ? scale.grades.some((grade) => grade.standings.includes(standing))
        : scale.thresholds[standing] !== undefined,
    ),
  );
}

export interface RuleIssue {
  /** Where, from the rules: `exams.0.subjects.1.min_grade`. */
  path: string;
  message: string;
}

/**
 * What in a program's entry rules does not fit its examinations: an unknown examination or one stated
 * twice, a subject not in the examination's list, a grade on none of the subjects' scales, a class or a
 * standing the examination does not have, an aggregate outside its range. Empty when the rules can be
 * applied as written.
 */
export function entryRulesIssues(rules: EntryRules, systemOf: (id: string) => ExamSystem | null): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const seen = new Set<string>();
  for (const [index, requirement] of rules.exams.entries()) {
    const at = (path: string) => `exams.${index}.${path}`;
    const system = systemOf(requirement.exam);
    if (!system) {
      issues.push({ path: at('exam'), message: S.exam_unknown });
      continue;
    }
    if (seen.has(system.id)) issues.push({ path: at('exam'), message: S.exam_repeated });
    seen.add(system.id);

    if (requirement.min_standing && !standingsOf(system).includes(requirement.min_standing.standing))
      issues.push({ path: at('min_standing.standing'), message: S.exam_standing_unknown });

    for (const [rule, subjectRule] of requirement.subjects.entries()) {
      const listed = subjectRule.any_of.every(
        (subject) => !subject.startsWith(OTHER_SUBJECT_PREFIX) && isKnownSubject(system, subject),
      );
      if (!listed) {
        issues.push({ path: at(`subjects.${rule}.any_of`), message: S.exam_subject_unknown });
        continue;
      }
      if (!subjectRule.any_of.every((subject) => readGrade(scaleOf(system, subject), subjectRule.min_grade)))
        issues.push({ path: at(`subjects.${rule}.min_grade`), message: S.exam_grade_unknown });
    }

    if (
      requirement.min_class !== undefined &&
      !system.aggregate.classes.some((entry) => entry.label === requirement.min_class)
    )
      issues.push({ path: at('min_class'), message: S.exam_class_unknown });

    if (requirement.min_aggregate !== undefined) {
      const [low, high] = system.aggregate.range;
      if (requirement.min_aggregate < low || requirement.min_aggregate > high)
        issues.push({ path: at('min_aggregate'), message: S.exam_aggregate_range });
    }
  }
  return issues;
}
