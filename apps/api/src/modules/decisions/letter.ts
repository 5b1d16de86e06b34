import {
  ADMISSION_LETTER_PLACEHOLDERS,
  type AdmissionLetterIssued,
  type CheckView,
  type Language,
  type OfferCondition,
  type PartnerAdmissionsSettings,
} from '@kaminuza/shared';
import { conditionView, examSystem } from '@kaminuza/shared/exams';
import { catalogueText, longDate } from '../email/index.ts';

/*
 * The admission letter of an accepted decision (ADR 016): rendered once, at release, from the
 * institution's template (or the default text in the applicant's language) and stored with the
 * decision, so a later edit of the template never changes a letter already sent.
 */

export type LetterPlaceholder = (typeof ADMISSION_LETTER_PLACEHOLDERS)[number];

/** What a letter says about the applicant and the offer, as it is at release. */
export interface LetterFacts {
  reference: string;
  student_name: string;
  university_name: string;
  logo_url: string | null;
  program_name: string;
  campus_name: string;
  cycle_name: string;
  /** The day of release in the institution's time zone, yyyy-mm-dd. */
  issued_on: string;
  /** A conditional offer's conditions still to meet, and the day the applicant must reply by. */
  conditions: readonly OfferCondition[];
  reply_by_on: string | null;
}

type Translate = ReturnType<typeof catalogueText>;

/** What one rule of an examination condition needs, in the letter's language ("Mathematics: C6 or better"). */
function neededText(t: Translate, check: CheckView): string {
  switch (check.rule) {
    case 'standing_count':
      return t('decisions.letter.condition_standing', {
        count: check.needed,
        standing: t(`eligibility.standings.${check.standing}`),
      });
    case 'subject_grade':
      return t('decisions.letter.condition_grade', {
        label: check.subjects.join(t('eligibility.or')),
        needed: check.needed,
      });
    case 'aggregate':
    case 'class':
      return t('decisions.letter.condition_grade', { label: check.label, needed: String(check.needed) });
  }
}

/** Each condition as one line of the letter: a written one as written, an examination's rules worded. */
export function conditionLines(conditions: readonly OfferCondition[], language: Language): string[] {
  const t = catalogueText(language);
  return conditions.map((condition) => {
    if (condition.kind === 'text') return condition.text;
    const view = conditionView(condition.requirement, [], examSystem);
    return `${view.exam}: ${view.checks.map((check) => neededText(t, check)).join('; ')}`;
  });
}

/**
 * The settings page shows placeholders as `{student_name}`; `{{student_name}}` (the catalogues' own form)
 * is filled in too, so either way of writing them works. Unknown words in braces are left as written.
 */
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}|\{\s*([a-z_]+)\s*\}/g;

function isPlaceholder(name: string): name is LetterPlaceholder {
  return (ADMISSION_LETTER_PLACEHOLDERS as readonly string[]).includes(name);
}

export function fillPlaceholders(text: string, values: Record<LetterPlaceholder, string>): string {
  return text.replace(PLACEHOLDER, (whole, double: string | undefined, single: string | undefined) => {
    const name = double ?? single ?? '';
    return isPlaceholder(name) ? values[name] : whole;
  });
}

/** The day as the applicant reads dates (e.g. "25 novembre 2026"). */
export { longDate };

/** Blank lines separate paragraphs; single line breaks stay inside their paragraph. */
function paragraphsOf(text: string): string[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

const DEFAULT_PARAGRAPHS = ['greeting', 'offer', 'reference', 'respond'] as const;

export function renderLetter(
  letter: PartnerAdmissionsSettings['admission_letter'],
  facts: LetterFacts,
  language: Language,
  verificationCode: string,
  publicUrl: string,
): AdmissionLetterIssued {
  const t = catalogueText(language);
  const values: Record<LetterPlaceholder, string> = {
    student_name: facts.student_name,
    program_name: facts.program_name,
    campus_name: facts.campus_name,
    university_name: facts.university_name,
    decision_date: longDate(facts.issued_on, language),
    cycle_name: facts.cycle_name,
    reference: facts.reference,
  };
  const template = letter.template.trim();
  const paragraphs = template
    ? paragraphsOf(fillPlaceholders(template, values))
    : DEFAULT_PARAGRAPHS.map((key) => t(`decisions.letter.${key}`, values));
  return {
    verification_code: verificationCode,
    verify_url: new URL(`/letters/${verificationCode}`, publicUrl).toString(),
    issued_on: facts.issued_on,
    reference: facts.reference,
    student_name: facts.student_name,
    university_name: facts.university_name,
    logo_url: facts.logo_url,
    program_name: facts.program_name,
    campus_name: facts.campus_name,
    cycle_name: facts.cycle_name,
    conditions: conditionLines(facts.conditions, language),
    reply_by_on: facts.reply_by_on,
    paragraphs,
    // A letter is always signed: without a name in the settings, by the admissions office of the institution.
    signature_name: letter.signature_name.trim() || t('decisions.letter.signature_name'),
    signature_title: letter.signature_title.trim() || facts.university_name,
    signature_image: letter.signature_image || null,
  };
}
