import {
  OTHER_EXAM,
  OTHER_SUBJECT_PREFIX,
  subjectName,
  type ExamSitting,
  type ExamSittingFormValues,
  type ExamSystem,
} from '@kaminuza/shared/exams';

/*
 * The sitting form's values and the api's input: subjects are typed and picked by name from the
 * examination's list (a name not on it is an "other" subject where the examination allows them).
 */

export interface ResultRow {
  subject: string;
  grade: string;
}

export interface SittingFormValues {
  exam: string;
  other_name: string;
  year: string;
  index_number: string;
  results: ResultRow[];
  declared: string;
  overall: string;
  document_type: string;
}

export const emptyResult = (): ResultRow => ({ subject: '', grade: '' });

export function emptySitting(): SittingFormValues {
  return {
    exam: '',
    other_name: '',
    year: '',
    index_number: '',
    results: [emptyResult(), emptyResult(), emptyResult()],
    declared: '',
    overall: '',
    document_type: '',
  };
}

export function sittingFormValues(sitting: ExamSitting, system: ExamSystem | null): SittingFormValues {
  return {
    exam: sitting.exam,
    other_name: sitting.other_name,
    year: String(sitting.year),
    index_number: sitting.index_number,
    results: sitting.results.map((result) => ({
      subject: system ? subjectName(system, result.subject) : result.subject,
      grade: result.grade,
    })),
    declared: sitting.declared === null ? '' : String(sitting.declared),
    overall: sitting.overall,
    document_type: sitting.document_type ?? '',
  };
}

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/** A name without what its brackets add: "Mathematics (Core)" is also "Mathematics". */
const bare = (name: string) => folded(name.replace(/\s*\([^)]*\)\s*/g, ' '));

/**
 * The subject's id for a typed name: the listed subject of that name or alias (or of that name without
 * its brackets, or the only one it begins), else an "other" subject with the name as typed.
 */
export function subjectIdOf(system: ExamSystem, typed: string): string {
  const name = folded(typed);
  if (!name) return '';
  const { subjects } = system;
  const only = (found: typeof subjects) => (found.length === 1 ? found[0] : undefined);
  const listed =
    subjects.find((subject) => [subject.name, ...subject.aliases].some((known) => folded(known) === name)) ??
    only(subjects.filter((subject) => bare(subject.name) === name)) ??
    (name.length >= 3 ? only(subjects.filter((subject) => folded(subject.name).startsWith(name))) : undefined);
  return listed ? listed.id : `${OTHER_SUBJECT_PREFIX}${typed.trim()}`;
}

/** What the form sends: rows left blank dropped, subjects by id, an other examination's fields only for it. */
export function toSittingInput(values: SittingFormValues, system: ExamSystem | null): ExamSittingFormValues {
  const rows = values.results.filter((row) => row.subject.trim() || row.grade.trim());
  return {
    exam: values.exam,
    other_name: values.exam === OTHER_EXAM ? values.other_name : '',
    year: values.year,
    index_number: values.index_number,
    results: system ? rows.map((row) => ({ subject: subjectIdOf(system, row.subject), grade: row.grade })) : [],
    declared: system?.aggregate.method === 'declared' ? values.declared.replace(',', '.') : '',
    overall: values.exam === OTHER_EXAM ? values.overall : '',
    document_type: values.document_type as ExamSittingFormValues['document_type'],
  };
}

/**
 * An issue's path in the input, as the form's field: a result's index counts the rows sent, so it is
 * mapped back to the row on screen (blank rows were dropped).
 */
export function formPathOf(path: string, values: SittingFormValues): string {
  const match = /^results\.(\d+)\.(subject|grade)$/.exec(path);
  if (!match) return path;
  const sent = values.results
    .map((row, index) => ({ row, index }))
    .filter(({ row }) => row.subject.trim() || row.grade.trim());
  const shown = sent[Number(match[1])]?.index ?? Number(match[1]);
  return `results.${shown}.${match[2]}`;
}
