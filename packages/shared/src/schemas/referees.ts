import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { ANSWER_MESSAGES, REFEREE_MESSAGES as R, VALIDATION_MESSAGES } from '../messages.ts';
import { FormItemIdSchema, LocalizedTextSchema, RefereeKindSchema } from './forms.ts';

/*
 * Referees and their references (issue 26, ADR 054). The applicant invites each referee from a referees
 * question of the form; the referee answers through a signed, expiring link without an account.
 */

/** Invited (the email went out), opened (the link was followed), submitted (the letter arrived). */
export const REFEREE_STATUSES = ['invited', 'opened', 'submitted'] as const;
export type RefereeStatus = (typeof REFEREE_STATUSES)[number];

/** How long a referee's link works after its latest sending. */
export const REFEREE_LINK_DAYS = 30;
/** Days after the invitation at which a referee who has not answered is reminded (by job). */
export const REFEREE_REMINDER_DAYS = [3, 7, 14] as const;
/** The largest letter a referee may upload, a PDF. */
export const REFERENCE_LETTER_MAX_BYTES = 5 * 1024 * 1024;
/** The longest typed letter, and the longest answer to one of the institution's questions. */
export const REFERENCE_LETTER_MAX_CHARS = 20_000;
export const REFERENCE_ANSWER_MAX_CHARS = 2_000;

const text = (max: number, required: string) =>
  z.string(required).trim().min(1, required).max(max, ANSWER_MESSAGES.text_too_long);

/** An applicant's invitation of one referee for one referees question. */
export const RefereeInviteSchema = z.object({
  question_id: FormItemIdSchema,
  kind: RefereeKindSchema,
  name: text(200, R.name_required),
  /** Their position: "Mathematics teacher", "Head of studies". */
  title: text(200, R.title_required),
  /** Where they work or teach. */
  organization: text(300, R.organization_required),
  email: z.email(VALIDATION_MESSAGES.email_invalid).max(254, VALIDATION_MESSAGES.email_too_long),
  /** Optional; E.164 when given. */
  phone: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => value === '' || /^\+[1-9]\d{7,14}$/.test(value), ANSWER_MESSAGES.phone_invalid)
    .optional(),
  /** The applicant gives up reading the letter; fixed once the invitation is sent. */
  waived: z.boolean(),
  /** The language of the invitation and of the referee's page. */
  language: z.enum(LANGUAGES),
});
export type RefereeInvite = z.infer<typeof RefereeInviteSchema>;

export const RefereeParamsSchema = z.object({ applicationId: z.uuid(), refereeId: z.uuid() });

/** A referee as the applicant sees them: never the letter when they waived reading it. */
export const RefereeSchema = z.object({
  id: z.uuid(),
  question_id: z.string(),
  kind: RefereeKindSchema,
  name: z.string(),
  title: z.string(),
  organization: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  waived: z.boolean(),
  language: z.enum(LANGUAGES),
  status: z.enum(REFEREE_STATUSES),
  /** The link has passed its expiry without a letter: a new invitation sends a fresh one. */
  expired: z.boolean(),
  invited_at: z.string(),
  opened_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  /** Not waived and arrived: the applicant may read it (typed, or a PDF to download). */
  letter: z.object({ text: z.string().nullable(), file_name: z.string().nullable() }).nullable(),
});
export type Referee = z.infer<typeof RefereeSchema>;

/** What a referee's link opens: who asks, for what, and what the institution asks of them; nothing else. */
export const ReferenceRequestSchema = z.object({
  referee_name: z.string(),
  kind: RefereeKindSchema,
  applicant_name: z.string(),
  institution_name: z.string(),
  program_name: z.string(),
  /** The applicant waived reading the letter: the referee is told so before writing. */
  waived: z.boolean(),
  language: z.enum(LANGUAGES),
  prompts: z.array(LocalizedTextSchema),
  expires_at: z.string(),
  /** The PDF uploaded so far, if any (a referee may upload before sending). */
  letter_file_name: z.string().nullable(),
});
export type ReferenceRequest = z.infer<typeof ReferenceRequestSchema>;

export const ReferenceTokenParamsSchema = z.object({ token: z.string().min(10).max(300) });

/** The referee's answers (one per prompt, in order) and letter: typed here, or the PDF uploaded before. */
export const ReferenceSubmitSchema = z.object({
  answers: z.array(z.string().trim().max(REFERENCE_ANSWER_MAX_CHARS, ANSWER_MESSAGES.text_too_long)).max(10),
  letter_text: z.string().trim().max(REFERENCE_LETTER_MAX_CHARS, ANSWER_MESSAGES.text_too_long).optional(),
});
export type ReferenceSubmit = z.infer<typeof ReferenceSubmitSchema>;

/** A referee as staff reading the submission see them: status, answers and letter, waived or not. */
export const StaffRefereeSchema = RefereeSchema.omit({ letter: true }).extend({
  answers: z.array(z.object({ prompt: LocalizedTextSchema, answer: z.string() })),
  letter: z.object({ text: z.string().nullable(), file_name: z.string().nullable() }).nullable(),
});
export type StaffReferee = z.infer<typeof StaffRefereeSchema>;
