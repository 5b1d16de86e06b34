import { answersSchema, type FormSection } from '@kaminuza/shared';

/*
 * What an applicant's answers still need, by question id, with the refusals of answersSchema: the schema
 * the submission endpoint checks with, so Next, the Review step and the server never disagree.
 */

/** The answers' refusals over these sections (in English; the screens translate them). */
export function answerIssues(
  sections: readonly FormSection[],
  answers: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const result = answersSchema(sections).safeParse(answers);
  if (result.success) return {};
  const issues: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const id = issue.path[0];
    if (typeof id === 'string' && !(id in issues)) issues[id] = issue.message;
  }
  return issues;
}

/** What Next checks before leaving a section: its own questions only, later sections wait for their turn. */
export const sectionIssues = (section: FormSection, answers: Readonly<Record<string, unknown>>) =>
  answerIssues([section], answers);

/** The position in the section of its first question with an issue (where focus goes), or null. */
export function firstIssue(section: FormSection, issues: Readonly<Record<string, string>>): number | null {
  const index = section.questions.findIndex((question) => question.id in issues);
  return index >= 0 ? index : null;
}
