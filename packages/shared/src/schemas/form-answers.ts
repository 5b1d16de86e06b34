import { z } from 'zod';
import { isCountryCode } from '../country-regions.ts';
import { ANSWER_MESSAGES as M } from '../messages.ts';
import type { DocumentType } from './documents.ts';
import type { FormSection, ProfileField, Question } from './forms.ts';

/*
 * What an applicant may answer to an application form: one zod schema per form, built from its
 * questions, used by the applicant's screen, the builder's preview and the submission endpoint alike.
 */

/** Longest short-text answer. */
export const SHORT_TEXT_MAX = 500;
/** Longest long-text answer in characters, whatever its word limit. */
export const LONG_TEXT_MAX = 50_000;

export type AnswerValue = string | number | boolean | string[];
export type Answers = Record<string, AnswerValue>;

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'number' && Number.isNaN(value));

/** The answers without empty ones (spec section 5: "Empty values are stripped before saving"). */
export function stripEmpty(answers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answers).filter(([, value]) => !isEmpty(value)));
}

/** Words as a reader counts them: runs of non-space characters. */
export function countWords(text: string): number {
  return text.trim() === '' ? 0 : text.trim().split(/\s+/u).length;
}

/** Anything that is not an answer of the right kind reads as missing or invalid, never as a crash. */
const text = (max: number) => z.string(M.required).trim().max(max, M.text_too_long);
const optionIds = (question: Extract<Question, { options: unknown }>) =>
  question.options.map((option) => option.id) as [string, ...string[]];

function answerSchema(question: Question): z.ZodType<AnswerValue> {
  switch (question.type) {
    case 'short_text':
      return text(SHORT_TEXT_MAX);
    case 'long_text': {
      const limit = question.word_limit;
      return text(LONG_TEXT_MAX).refine((value) => limit === null || countWords(value) <= limit, M.word_limit);
    }
    case 'number':
      return z
        .number(M.number_invalid)
        .refine(Number.isFinite, M.number_invalid)
        .refine((value) => question.min === null || value >= question.min, M.number_too_small)
        .refine((value) => question.max === null || value <= question.max, M.number_too_large);
    case 'date':
      return z.iso.date(M.date_invalid);
    case 'single_choice':
      return z.enum(optionIds(question), M.choice_invalid);
    case 'multiple_choice':
      return z
        .array(z.enum(optionIds(question), M.choice_invalid), M.choice_invalid)
        .refine((ids) => new Set(ids).size === ids.length, M.choice_invalid);
    case 'yes_no':
      return z.boolean(M.yes_no_invalid);
    case 'file':
      return z.uuid(M.document_invalid);
    case 'country':
      return z.string(M.country_invalid).refine(isCountryCode, M.country_invalid);
    case 'phone':
      // E.164: a plus, the country code and the number, 8 to 15 digits; spaces and dashes are dropped.
      return z
        .string(M.phone_invalid)
        .transform((value) => value.replace(/[\s-]/g, ''))
        .refine((value) => /^\+[1-9]\d{7,14}$/.test(value), M.phone_invalid);
    case 'referees': {
      // The ids of the referees invited for this question (the server answers it from its own records).
      const ids = z.array(z.uuid(M.referee_invalid), M.referee_invalid).max(question.count, M.referees_needed);
      return question.required ? ids.min(question.count, M.referees_needed) : ids;
    }
  }
}

/**
 * The answers to a form's questions, question id → answer: each of the right kind for its question,
 * every required question answered. Empty values count as unanswered and are dropped; answers to
 * questions the form does not have are dropped too.
 */
export function answersSchema(sections: readonly FormSection[]) {
  const shape: Record<string, z.ZodType<AnswerValue | undefined>> = {};
  for (const question of sections.flatMap((section) => section.questions)) {
    const schema = answerSchema(question);
    shape[question.id] = question.required
      ? z.custom<unknown>((value) => value !== undefined, M.required).pipe(schema)
      : schema.optional();
  }
  return z.preprocess(
    (value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? stripEmpty(value as Record<string, unknown>)
        : value,
    z.object(shape),
  );
}

/** The most a draft's answers may weigh once serialised: a few long essays, not a dump. */
export const DRAFT_ANSWERS_MAX_BYTES = 256 * 1024;

/**
 * What a draft may hold while the applicant types: any answer-shaped value for any of the form's
 * question ids (half-typed numbers, answers that will not pass yet). Submission checks them with
 * answersSchema; a draft only has to be the right shape and size.
 */
export const DraftAnswerValueSchema = z.union([
  z.string().max(LONG_TEXT_MAX),
  z.number(),
  z.boolean(),
  z.array(z.string().max(SHORT_TEXT_MAX)).max(200),
]);
export const DraftAnswersSchema = z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/i), DraftAnswerValueSchema);

/** One profile value a question may be prefilled with, by profile field name. */
export type ProfileValues = Partial<Record<ProfileField, string | number | null>>;

/**
 * A new application's answers: each question tied to a profile detail gets the applicant's value,
 * and each file question the applicant's document of its type when they have one.
 */
export function prefillAnswers(
  sections: readonly FormSection[],
  profile: ProfileValues,
  documents: ReadonlyArray<{ id: string; type: DocumentType }>,
): Answers {
  const answers: Answers = {};
  for (const question of sections.flatMap((section) => section.questions)) {
    if (question.type === 'referees') continue;
    if (question.type === 'file') {
      const document = documents.find((candidate) => candidate.type === question.document_type);
      if (document) answers[question.id] = document.id;
      continue;
    }
    const value = question.profile_field ? profile[question.profile_field] : undefined;
    if (value === undefined || value === null || value === '') continue;
    answers[question.id] = question.type === 'number' ? Number(value) : String(value);
  }
  return stripEmpty(answers) as Answers;
}

/**
 * How far an application is, 0 to 100: the share of required questions answered (of all questions
 * when none is required). Answered means not empty, whether or not the answer will pass yet.
 */
export function formProgress(sections: readonly FormSection[], answers: Readonly<Record<string, unknown>>): number {
  const questions = sections.flatMap((section) => section.questions);
  const counted = questions.some((question) => question.required)
    ? questions.filter((question) => question.required)
    : questions;
  if (counted.length === 0) return 100;
  const filled = stripEmpty(answers);
  const answered = counted.filter((question) => question.id in filled).length;
  return Math.round((answered / counted.length) * 100);
}
