import { z } from 'zod';
import { answersSchema, OnBehalfApplicantSchema, type Answers, type FormSection } from '@kaminuza/shared';
import { fieldIssues } from '../../../lib/error-messages.ts';

/*
 * The pure parts of submitting for an applicant: what the applicant form accepts, which questions staff
 * answer, and where each refusal of an answer belongs.
 */

/** Optional applicant details left empty are absent, not empty strings the API would refuse. */
const blankIsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const shape = OnBehalfApplicantSchema.shape;

export const ApplicantFormSchema = z.object({
  ...shape,
  phone: z.preprocess(blankIsAbsent, shape.phone),
  date_of_birth: z.preprocess(blankIsAbsent, shape.date_of_birth),
  nationality: z.preprocess(blankIsAbsent, shape.nationality),
});
export type ApplicantFormInput = z.input<typeof ApplicantFormSchema>;
export type ApplicantForm = z.output<typeof ApplicantFormSchema>;

export const emptyApplicant: ApplicantFormInput = {
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  date_of_birth: '',
  nationality: '',
};

/**
 * The sections staff fill: file questions ask for the applicant's own profile documents, which a staff
 * member does not hold, so they are left out (the server checks the answers the same way). A section
 * left without questions is left out too.
 */
export function staffSections(sections: readonly FormSection[]): FormSection[] {
  return sections
    .map((section) => ({ ...section, questions: section.questions.filter((question) => question.type !== 'file') }))
    .filter((section) => section.questions.length > 0);
}

export type AnswerCheck = { ok: true; answers: Answers } | { ok: false; errors: Record<string, string> };

/** The answers as the server will check them: parsed and stripped, or the first refusal per question. */
export function checkAnswers(sections: readonly FormSection[], values: Readonly<Record<string, unknown>>): AnswerCheck {
  const result = answersSchema(sections).safeParse(values);
  if (result.success) {
    const answers = Object.fromEntries(Object.entries(result.data).filter(([, value]) => value !== undefined));
    return { ok: true, answers: answers as Answers };
  }
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const id = issue.path[0];
    if (typeof id === 'string') errors[id] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * A 400's issues that name a question (`answers.<question id>`, or the bare id), by question id, so each
 * refusal shows under its question. Issues about anything else are left to the form-level message.
 */
export function answerErrorsOf(details: unknown, questionIds: ReadonlySet<string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of fieldIssues(details)) {
    const id = issue.path.replace(/^answers\./, '').split('.')[0] ?? '';
    if (questionIds.has(id)) errors[id] ??= issue.message;
  }
  return errors;
}
