import { examSystem, readResult, type ExamSystem } from '@kaminuza/shared/exams';

/*
 * The demo applicants' examination results (issue 25): each sat their country's national examination,
 * with grades that follow their secondary school average, so the queue shows eligibility as it would be.
 */

/** The examination an applicant of each country sat. */
const EXAM_OF_COUNTRY: Readonly<Record<string, string>> = {
  GH: 'waec_wassce',
  NG: 'neco_ssce',
  SN: 'baccalaureat',
  ML: 'baccalaureat',
  KE: 'knec_kcse',
  ZA: 'za_nsc',
  RW: 'rwanda_alevel',
  ET: 'ethiopia_esslce',
  TZ: 'necta_csee',
  UG: 'uneb_uce',
  CM: 'cameroon_gce_ol',
};

/** Subjects a science applicant takes, in the order they are picked where the examination has them. */
const SCIENCE_SUBJECTS = [
  'english_language',
  'mathematics',
  'kiswahili',
  'integrated_science',
  'physics',
  'chemistry',
  'biology',
  'physical_sciences',
  'computer_science',
  'scholastic_aptitude',
  'french',
  'geography',
  'economics',
  'life_orientation',
];

/** The grade a mark out of 100 earns on the subject's scale (its marks ranges, else its place on the scale). */
function gradeFor(system: ExamSystem, subject: string, mark: number): string {
  const scale = system.scales[system.subjects.find((entry) => entry.id === subject)?.scale ?? 'main']!;
  if (scale.kind === 'marks') {
    const value = scale.min + ((scale.max - scale.min) * mark) / 100;
    return String(Math.round(value / scale.step) * scale.step);
  }
  const ranged = scale.grades.find((grade) => grade.marks && mark >= grade.marks[0] && mark <= grade.marks[1]);
  if (ranged) return ranged.grade;
  const index = Math.min(scale.grades.length - 1, Math.floor(((100 - mark) / 100) * scale.grades.length));
  return scale.grades[Math.max(0, index)]!.grade;
}

/** A sitting of the applicant's national examination, with grades around their average (no two alike). */
export function demoSitting(country: string, average: number, seed: number) {
  const system = examSystem(EXAM_OF_COUNTRY[country] ?? 'waec_wassce')!;
  const subjects = SCIENCE_SUBJECTS.filter((id) => system.subjects.some((subject) => subject.id === id)).slice(0, 7);
  for (const subject of system.subjects) {
    if (subjects.length >= 7) break;
    if (!subjects.includes(subject.id) && subject.scale === 'main') subjects.push(subject.id);
  }
  const results = subjects.map((subject, index) => {
    // A spread of ±6 marks around the average, different for each applicant and subject.
    const mark = Math.max(0, Math.min(100, average + (((seed * 7 + index * 5) % 13) - 6)));
    return { subject, grade: gradeFor(system, subject, mark) };
  });
  const { range } = system.aggregate;
  return {
    exam: system.id,
    year: 2024,
    index_number: `${2024}${String(1000 + seed * 37).slice(-4)}`,
    results: results.filter((result) => readResult(system, result)),
    declared:
      system.aggregate.method === 'declared'
        ? Math.round((range[0] + ((range[1] - range[0]) * average) / 100) * 100) / 100
        : null,
  };
}
