import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { SETUP_MESSAGES as S } from '../messages.ts';
import { requiredName } from './admissions.ts';
import { DocumentTypeSchema } from './documents.ts';

/*
 * Application forms (spec section 3: forms of sections containing questions, each with an id and an
 * order). A form is one document, saved whole with its version: the builder edits it as applicants
 * will see it, and a stale save is refused instead of overwriting a colleague's changes. Submissions
 * keep a snapshot of the form they answered.
 */

export const QUESTION_TYPES = [
  'short_text',
  'long_text',
  'number',
  'date',
  'single_choice',
  'multiple_choice',
  'yes_no',
  'file',
  'country',
  'phone',
  'referees',
] as const;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionTypeSchema>;

/** Limits of the builder. */
export const FORM_LIMITS = {
  sections: 30,
  questionsPerSection: 60,
  options: 100,
  labelLength: 500,
  helpLength: 2000,
  wordLimitMax: 5000,
  /** Referees one question may ask for, and questions the institution may put to each referee. */
  referees: 5,
  refereePrompts: 5,
} as const;

/** Who may write a reference (issue 26): the kinds a referees question accepts. */
export const REFEREE_KINDS = ['teacher', 'counsellor', 'employer'] as const;
export const RefereeKindSchema = z.enum(REFEREE_KINDS);
export type RefereeKind = z.infer<typeof RefereeKindSchema>;

/** A text in each interface language the institution wrote it in; shown in the reader's, else English, else any. */
export const LocalizedTextSchema = z.partialRecord(
  z.enum(LANGUAGES),
  z.string().trim().max(FORM_LIMITS.helpLength, S.text_too_long),
);
export type LocalizedText = z.infer<typeof LocalizedTextSchema>;
const hasText = (value: LocalizedText) => Object.values(value).some((text) => Boolean(text?.trim()));
const LabelSchema = LocalizedTextSchema.refine(hasText, S.question_label_required);

/**
 * Profile details a question can be prefilled from when an applicant starts an application, with the
 * question types that can hold each one. The applicant can still change the answer.
 */
export const PROFILE_FIELDS = {
  first_name: ['short_text'],
  last_name: ['short_text'],
  preferred_name: ['short_text'],
  email: ['short_text'],
  phone: ['phone', 'short_text'],
  date_of_birth: ['date'],
  nationality: ['country'],
  country_of_residence: ['country'],
  country: ['country'],
  city: ['short_text'],
  address: ['short_text', 'long_text'],
  postal_code: ['short_text'],
  last_school: ['short_text'],
  school_city: ['short_text'],
  school_country: ['country'],
  graduation_year: ['number'],
  gpa: ['short_text'],
  major: ['short_text'],
  degree_type: ['short_text'],
} as const satisfies Record<string, readonly QuestionType[]>;
export type ProfileField = keyof typeof PROFILE_FIELDS;
export const PROFILE_FIELD_NAMES = Object.keys(PROFILE_FIELDS) as [ProfileField, ...ProfileField[]];
export const ProfileFieldSchema = z.enum(PROFILE_FIELD_NAMES);

/** The profile details a question of this type can be prefilled from. */
export function profileFieldsFor(type: QuestionType): ProfileField[] {
  return PROFILE_FIELD_NAMES.filter((field) => (PROFILE_FIELDS[field] as readonly QuestionType[]).includes(type));
}

/** Ids are chosen by the builder and kept for ever: answers and snapshots refer to them. */
export const FormItemIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/i);

export const ChoiceOptionSchema = z.object({ id: FormItemIdSchema, label: LabelSchema });
export type ChoiceOption = z.infer<typeof ChoiceOptionSchema>;

const questionBase = {
  id: FormItemIdSchema,
  order: z.int().min(0),
  label: LabelSchema,
  help: LocalizedTextSchema,
  required: z.boolean(),
  /** Prefilled from this profile detail when an application starts (absent: not prefilled). */
  profile_field: ProfileFieldSchema.optional(),
};
const options = z.array(ChoiceOptionSchema).min(2, S.options_required).max(FORM_LIMITS.options);

export const QuestionSchema = z.discriminatedUnion('type', [
  z.object({ ...questionBase, type: z.literal('short_text') }),
  z.object({
    ...questionBase,
    type: z.literal('long_text'),
    /** At most this many words; null for no limit. */
    word_limit: z.int().min(1).max(FORM_LIMITS.wordLimitMax).nullable(),
  }),
  z.object({ ...questionBase, type: z.literal('number'), min: z.number().nullable(), max: z.number().nullable() }),
  z.object({ ...questionBase, type: z.literal('date') }),
  z.object({ ...questionBase, type: z.literal('single_choice'), options }),
  z.object({ ...questionBase, type: z.literal('multiple_choice'), options }),
  z.object({ ...questionBase, type: z.literal('yes_no') }),
  /** Answered with one of the applicant's profile documents of this type. */
  z.object({ ...questionBase, type: z.literal('file'), document_type: DocumentTypeSchema }),
  z.object({ ...questionBase, type: z.literal('country') }),
  z.object({ ...questionBase, type: z.literal('phone') }),
  /**
   * Answered with referees the applicant invites (ADR 054): how many, of which kinds, the questions put to
   * each referee beside their letter, and whether the application may be submitted before the letters.
   */
  z.object({
    ...questionBase,
    type: z.literal('referees'),
    count: z.int().min(1).max(FORM_LIMITS.referees),
    kinds: z
      .array(RefereeKindSchema)
      .min(1, S.referee_kinds_required)
      .max(REFEREE_KINDS.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, S.referee_kinds_required),
    submit_before_letters: z.boolean(),
    prompts: z.array(LabelSchema).max(FORM_LIMITS.refereePrompts),
  }),
]);
export type Question = z.infer<typeof QuestionSchema>;

export const FormSectionSchema = z.object({
  id: FormItemIdSchema,
  order: z.int().min(0),
  title: LabelSchema,
  description: LocalizedTextSchema,
  questions: z.array(QuestionSchema).max(FORM_LIMITS.questionsPerSection),
});
export type FormSection = z.infer<typeof FormSectionSchema>;

/** Sections in order, each with its questions in order; every id unique within the form. */
export const FormSectionsSchema = z
  .array(FormSectionSchema)
  .min(1, S.section_required)
  .max(FORM_LIMITS.sections)
  .superRefine((sections, ctx) => {
    const seen = new Set<string>();
    const ids = sections.flatMap((section) => [
      `s:${section.id}`,
      ...section.questions.flatMap((question) => [
        `q:${question.id}`,
        ...('options' in question ? question.options.map((option) => `o:${question.id}:${option.id}`) : []),
      ]),
    ]);
    for (const id of ids) {
      if (seen.has(id)) {
        ctx.addIssue({ code: 'custom', message: S.ids_unique });
        return;
      }
      seen.add(id);
    }
    sections.forEach((section, s) =>
      section.questions.forEach((question, q) => {
        if (question.profile_field && !profileFieldsFor(question.type).includes(question.profile_field)) {
          ctx.addIssue({
            code: 'custom',
            message: S.profile_field_mismatch,
            path: [s, 'questions', q, 'profile_field'],
          });
        }
      }),
    );
  });

const formFields = {
  name: requiredName(),
  description: z.string().trim().max(FORM_LIMITS.helpLength, S.text_too_long),
  /** The cycle whose applicants answer this form, and optionally the one program it is for. */
  cycle_id: z.uuid().nullable(),
  program_id: z.uuid().nullable(),
};

/** A new form: its sections default to one empty-titled section to start from. */
export const FormCreateSchema = z.object({ ...formFields, sections: FormSectionsSchema.optional() });
export type FormCreate = z.infer<typeof FormCreateSchema>;

/** A save of the whole form; `version` is the one the editor loaded (409 when someone saved since). */
export const FormUpdateSchema = z.object({ ...formFields, sections: FormSectionsSchema, version: z.int().min(1) });
export type FormUpdate = z.infer<typeof FormUpdateSchema>;

/** A copy of a form under a new name (the builder proposes one in the member's language). */
export const FormDuplicateSchema = z.object({ name: requiredName() });
export type FormDuplicate = z.infer<typeof FormDuplicateSchema>;

export const FormSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  cycle_id: z.uuid().nullable(),
  program_id: z.uuid().nullable(),
  sections: z.array(FormSectionSchema),
  version: z.int(),
  /** How many submissions answered this form; they keep the snapshot they answered. */
  submission_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Form = z.infer<typeof FormSchema>;

export const FormSummarySchema = FormSchema.omit({ sections: true }).extend({
  section_count: z.int(),
  question_count: z.int(),
});
export type FormSummary = z.infer<typeof FormSummarySchema>;

/** What a submission keeps of the form it answered. */
export const FormSnapshotSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  version: z.int(),
  sections: z.array(FormSectionSchema),
});
export type FormSnapshot = z.infer<typeof FormSnapshotSchema>;

/** The text of a localized label in `language`, else English, else the first language given. */
export function localized(text: LocalizedText, language: string): string {
  const inLanguage = text[language as keyof LocalizedText];
  if (inLanguage?.trim()) return inLanguage;
  if (text.en?.trim()) return text.en;
  return Object.values(text).find((value) => value?.trim()) ?? '';
}
