import type { ExamRequirement, EntryRequirements } from './requirements.ts';
import {
  aggregateOf,
  atLeastAsGood,
  bestPerSubject,
  classOf,
  readGrade,
  scaleOf,
  standingCounts,
  type SubjectResult,
} from './results.ts';
import type { ExamSystem, Standing } from './schema.ts';

/*
 * Eligibility (issue 25): an applicant's results against a program's entry requirements, answered as
 * eligible, not eligible or needs review, with every rule checked and said plainly. Pure: the same
 * results and requirements give the same answer on the applicant's screen, in the staff queue and in
 * the automatic decisions, which never reject a case that needs review.
 */

/** One sitting of an examination: the subjects with their grades, and the official aggregate if declared. */
export interface Sitting {
  exam: string;
  year: number;
  results: readonly SubjectResult[];
  /** For systems whose aggregate is the certificate's own figure (a Baccalauréat's average). */
  declared?: number | null;
}

export type EligibilityStatus = 'eligible' | 'not_eligible' | 'needs_review';
export type Outcome = 'met' | 'unmet' | 'unknown';

/** One rule checked, with what was needed and what the applicant has (null: nothing to show). */
export type Check =
  | { rule: 'standing_count'; outcome: Outcome; standing: Standing; needed: number; have: number }
  | { rule: 'subject_grade'; outcome: Outcome; subjects: string[]; needed: string; have: string | null }
  | { rule: 'aggregate'; outcome: Outcome; label: string; needed: number; have: number | null }
  | { rule: 'class'; outcome: Outcome; label: string; needed: string; have: string | null };

export interface ExamEligibility {
  exam: string;
  status: EligibilityStatus;
  checks: Check[];
  /** The aggregate of the sittings that were weighed (for sorting and automatic decisions). */
  aggregate: number | null;
  /** The years of the sittings weighed. */
  sittings: number[];
}

export interface Eligibility {
  status: EligibilityStatus;
  /** Why, in one word: the examination's rules, or what stopped them from deciding. */
  basis: 'no_requirements' | 'rules' | 'no_results' | 'exam_not_listed' | 'unknown_exam';
  /** The examination whose rules decided (the best of them when none is met), with its checks. */
  decided_by: ExamEligibility | null;
  /** The other requirements a person checks, when the program states any. */
  other: string | null;
  /** The examinations the program accepts. */
  accepted: string[];
}

const RANK: Record<EligibilityStatus, number> = { eligible: 0, needs_review: 1, not_eligible: 2 };

function worst(outcomes: Outcome[]): EligibilityStatus {
  if (outcomes.includes('unmet')) return 'not_eligible';
  if (outcomes.includes('unknown')) return 'needs_review';
  return 'eligible';
}

/** Every way of choosing between 1 and `most` of the sittings. */
function combinations<T>(items: readonly T[], most: number): T[][] {
  const out: T[][] = [];
  const walk = (start: number, chosen: T[]) => {
    if (chosen.length > 0) out.push([...chosen]);
    if (chosen.length === most) return;
    for (let index = start; index < items.length; index++) walk(index + 1, [...chosen, items[index]!]);
  };
  walk(0, []);
  return out;
}

/** The requirement's rules checked against these sittings combined (none: what each rule needs, unmet). */
export function checkSittings(
  system: ExamSystem,
  requirement: ExamRequirement,
  sittings: readonly Sitting[],
): ExamEligibility {
  const results = sittings.flatMap((sitting) => sitting.results);
  const declared = sittings.reduce<number | null>((best, sitting) => {
    const value = sitting.declared ?? null;
    if (value === null) return best;
    return best === null || atLeastAsGood(system, value, best) ? value : best;
  }, null);
  const aggregate = aggregateOf(system, results, declared);
  const checks: Check[] = [];

  if (requirement.min_standing) {
    const { standing, count } = requirement.min_standing;
    const have = standingCounts(system, results)[standing];
    checks.push({ rule: 'standing_count', outcome: have >= count ? 'met' : 'unmet', standing, needed: count, have });
  }

  const best = new Map(bestPerSubject(system, results).map(({ subject, read }) => [subject, read]));
  for (const subjectRule of requirement.subjects) {
    let outcome: Outcome = 'unmet';
    let have: { grade: string; rank: number } | null = null;
    let readable = false;
    for (const subject of subjectRule.any_of) {
      const needed = readGrade(scaleOf(system, subject), subjectRule.min_grade);
      if (!needed) continue;
      readable = true;
      const read = best.get(subject);
      if (!read) continue;
      if (read.rank <= needed.rank) {
        outcome = 'met';
        have = read;
        break;
      }
      // The best of the alternatives, to say what the applicant has.
      if (!have || read.rank < have.rank) have = read;
    }
    // A minimum grade that is on none of the subjects' scales: a rule only a person can read.
    if (!readable) outcome = 'unknown';
    checks.push({
      rule: 'subject_grade',
      outcome,
      subjects: [...subjectRule.any_of],
      needed: subjectRule.min_grade,
      have: have?.grade ?? null,
    });
  }

  if (requirement.min_aggregate !== undefined) {
    checks.push({
      rule: 'aggregate',
      outcome:
        aggregate === null ? 'unknown' : atLeastAsGood(system, aggregate, requirement.min_aggregate) ? 'met' : 'unmet',
      label: system.aggregate.label,
      needed: requirement.min_aggregate,
      have: aggregate,
    });
  }

  if (requirement.min_class !== undefined) {
    const needed = system.aggregate.classes.find((entry) => entry.label === requirement.min_class);
    const outcome: Outcome =
      !needed || aggregate === null
        ? 'unknown'
        : atLeastAsGood(system, aggregate, system.aggregate.better === 'lower' ? needed.max : needed.min)
          ? 'met'
          : 'unmet';
    checks.push({
      rule: 'class',
      outcome,
      label: system.aggregate.label,
      needed: requirement.min_class,
      have: classOf(system, aggregate),
    });
  }

  return {
    exam: system.id,
    status: worst(checks.map((check) => check.outcome)),
    checks,
    aggregate,
    sittings: sittings.map((sitting) => sitting.year),
  };
}

const unmetCount = (result: ExamEligibility) => result.checks.filter((check) => check.outcome !== 'met').length;

/** The better of two answers for the applicant: its status, then fewer rules missed, then the aggregate. */
function better(system: ExamSystem, a: ExamEligibility, b: ExamEligibility): ExamEligibility {
  if (RANK[a.status] !== RANK[b.status]) return RANK[a.status] < RANK[b.status] ? a : b;
  if (unmetCount(a) !== unmetCount(b)) return unmetCount(a) < unmetCount(b) ? a : b;
  if (a.aggregate !== null && b.aggregate !== null) return atLeastAsGood(system, a.aggregate, b.aggregate) ? a : b;
  return a.aggregate !== null ? a : b;
}

/**
 * One examination's requirement against the applicant's sittings of it: all sittings combined, or, when
 * the requirement limits them, the best choice of at most that many. Null when the applicant has none.
 */
export function examEligibility(
  system: ExamSystem,
  requirement: ExamRequirement,
  sittings: readonly Sitting[],
): ExamEligibility | null {
  const own = sittings.filter((sitting) => sitting.exam === system.id);
  if (own.length === 0) return null;
  const choices = requirement.max_sittings ? combinations(own, requirement.max_sittings) : [own];
  return choices
    .map((choice) => checkSittings(system, requirement, choice))
    .reduce((best, next) => better(system, best, next));
}

/**
 * The applicant's eligibility for a program. Any one accepted examination whose rules are all met makes
 * the applicant eligible (a person still checks `other` requirements: needs review); a rule that cannot
 * be decided from the results (an aggregate that cannot be computed) needs review; results only in
 * examinations the program does not list, or no results, need review too: an equivalence is a person's
 * call. Not eligible only when every accepted examination the applicant sat has a rule clearly unmet.
 */
export function eligibility(
  requirements: EntryRequirements,
  sittings: readonly Sitting[],
  systemOf: (id: string) => ExamSystem | null,
): Eligibility {
  const other = requirements.other.trim() || null;
  const accepted = requirements.exams.map((requirement) => requirement.exam);
  const answer = (status: EligibilityStatus, basis: Eligibility['basis'], decided_by: ExamEligibility | null) => ({
    status: status === 'eligible' && other ? 'needs_review' : status,
    basis,
    decided_by,
    other,
    accepted,
  });
  if (requirements.exams.length === 0) return answer('eligible', 'no_requirements', null);

  let best: { system: ExamSystem; result: ExamEligibility } | null = null;
  let unknownExam = false;
  for (const requirement of requirements.exams) {
    const system = systemOf(requirement.exam);
    if (!system) {
      unknownExam = true;
      continue;
    }
    const result = examEligibility(system, requirement, sittings);
    if (!result) continue;
    if (
      !best ||
      RANK[result.status] < RANK[best.result.status] ||
      (RANK[result.status] === RANK[best.result.status] && unmetCount(result) < unmetCount(best.result))
    )
      best = { system, result };
  }
  if (best) return answer(best.result.status, 'rules', best.result);
  if (unknownExam) return answer('needs_review', 'unknown_exam', null);
  return answer('needs_review', sittings.length === 0 ? 'no_results' : 'exam_not_listed', null);
}
