import type { ExamSystem, Scale, Standing } from './schema.ts';
import { STANDINGS } from './schema.ts';

/** One subject of a sitting: its id in the system (or `other:<name>`), and the grade or mark as printed. */
export interface SubjectResult {
  subject: string;
  grade: string;
}

/** A grade read on its scale: its points, what it counts as, and its rank (0 is the scale's best). */
export interface ReadGrade {
  points: number;
  standings: readonly Standing[];
  rank: number;
  /** The grade as the scale writes it (`b+` is read as `B+`; a mark keeps its digits). */
  grade: string;
}

/** Subjects outside the system's list are entered as `other:<name>` and graded on the main scale. */
export const OTHER_SUBJECT_PREFIX = 'other:';

export function scaleOf(system: ExamSystem, subject: string): Scale {
  const known = system.subjects.find((candidate) => candidate.id === subject);
  return system.scales[known?.scale ?? 'main']!;
}

/** The subject's name: from the list, or as the applicant wrote it. */
export function subjectName(system: ExamSystem, subject: string): string {
  if (subject.startsWith(OTHER_SUBJECT_PREFIX)) return subject.slice(OTHER_SUBJECT_PREFIX.length);
  return system.subjects.find((candidate) => candidate.id === subject)?.name ?? subject;
}

export function isKnownSubject(system: ExamSystem, subject: string): boolean {
  if (subject.startsWith(OTHER_SUBJECT_PREFIX))
    return system.other_subjects && subject.length > OTHER_SUBJECT_PREFIX.length;
  return system.subjects.some((candidate) => candidate.id === subject);
}

function decimals(step: number): number {
  const text = String(step);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/** A grade or mark read on a scale; null when the scale has no such grade. */
export function readGrade(scale: Scale, grade: string): ReadGrade | null {
  const written = grade.trim();
  if (scale.kind === 'grades') {
    const rank = scale.grades.findIndex((candidate) => candidate.grade.toUpperCase() === written.toUpperCase());
    if (rank === -1) return null;
    const found = scale.grades[rank]!;
    return { points: found.points, standings: found.standings, rank, grade: found.grade };
  }
  if (!/^\d+([.,]\d+)?$/.test(written)) return null;
  const mark = Number(written.replace(',', '.'));
  if (mark < scale.min || mark > scale.max) return null;
  // On the scale's steps (0.01 for marks out of 20 with two decimals), allowing for binary fractions.
  const steps = (mark - scale.min) / scale.step;
  if (Math.abs(steps - Math.round(steps)) > 1e-6) return null;
  const standings = STANDINGS.filter((standing) => {
    const threshold = scale.thresholds[standing];
    return threshold !== undefined && mark >= threshold;
  });
  return { points: mark, standings, rank: scale.max - mark, grade: mark.toFixed(decimals(scale.step)) };
}

/** The grade of a result in its system; null for an unknown subject or a grade not on its scale. */
export function readResult(system: ExamSystem, result: SubjectResult): ReadGrade | null {
  if (!isKnownSubject(system, result.subject)) return null;
  return readGrade(scaleOf(system, result.subject), result.grade);
}

/** How many results count as each standing (a subject entered twice counts once, at its better grade). */
export function standingCounts(system: ExamSystem, results: readonly SubjectResult[]): Record<Standing, number> {
  const counts = Object.fromEntries(STANDINGS.map((standing) => [standing, 0])) as Record<Standing, number>;
  for (const { read } of bestPerSubject(system, results)) for (const standing of read.standings) counts[standing] += 1;
  return counts;
}

interface Read {
  subject: string;
  read: ReadGrade;
}

/**
 * Each subject once, at its best grade: several sittings may be combined, and a subject resat counts at
 * the better of its grades.
 */
export function bestPerSubject(system: ExamSystem, results: readonly SubjectResult[]): Read[] {
  const best = new Map<string, ReadGrade>();
  for (const result of results) {
    const read = readResult(system, result);
    if (!read) continue;
    const earlier = best.get(result.subject);
    if (!earlier || read.rank < earlier.rank) best.set(result.subject, read);
  }
  return [...best].map(([subject, read]) => ({ subject, read }));
}

/**
 * The system's aggregate of these results (its picks, in order, each result counted once); for a
 * `declared` aggregate, the figure declared if it is within range. Null when it cannot be computed: a
 * required subject is missing, or there are fewer results than the picks take.
 */
export function aggregateOf(
  system: ExamSystem,
  results: readonly SubjectResult[],
  declared?: number | null,
): number | null {
  const { aggregate } = system;
  if (aggregate.method === 'declared') {
    if (declared === undefined || declared === null || !Number.isFinite(declared)) return null;
    return declared >= aggregate.range[0] && declared <= aggregate.range[1] ? declared : null;
  }
  const remaining = bestPerSubject(system, results);
  const better = (a: Read, b: Read) =>
    aggregate.better === 'lower' ? a.read.points - b.read.points : b.read.points - a.read.points;
  let total = 0;
  let counted = 0;
  for (const pick of aggregate.picks) {
    const candidates = remaining
      .filter(
        ({ subject, read }) =>
          (!pick.from || pick.from.includes(subject)) &&
          !pick.exclude.includes(subject) &&
          (!pick.standing || read.standings.includes(pick.standing)),
      )
      .sort(better)
      .slice(0, pick.count);
    if (candidates.length < pick.count) return null;
    for (const taken of candidates) {
      total += taken.read.points;
      counted += 1;
      remaining.splice(remaining.indexOf(taken), 1);
    }
  }
  if (counted === 0) return null;
  const value = aggregate.method === 'mean' ? total / counted : total;
  return Math.round(value * 100) / 100;
}

/** The class an aggregate falls in (KCSE's mean grade, a division, a mention), if the system has classes. */
export function classOf(system: ExamSystem, aggregate: number | null): string | null {
  if (aggregate === null) return null;
  return system.aggregate.classes.find((entry) => aggregate >= entry.min && aggregate <= entry.max)?.label ?? null;
}

/** Whether aggregate `a` is at least as good as `b` in this system. */
export function atLeastAsGood(system: ExamSystem, a: number, b: number): boolean {
  return system.aggregate.better === 'lower' ? a <= b : a >= b;
}
