import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';

/** The templates of the spec's `email` call (section 7). */
export const EMAIL_TEMPLATES = [
  'welcome',
  'email_verification',
  'password_reset',
  'institution_approved',
  'institution_rejected',
  'staff_invitation',
  /** A reply in a support ticket or an institution chat left unread (issue 9). */
  'unread_message',
  /** The receipt of a submitted application, with its reference (issue 7). */
  'submission_receipt',
  /** An application staff submitted for a verified student, now in their account (ADR 025). */
  'submitted_on_behalf',
  /** A decision released to the applicant (issue 8): it says one is ready, not what it is. */
  'decision_released',
  /** A waitlisted applicant offered a place that opened (issue 8). */
  'waitlist_offer',
  /** A conditional offer's conditions met (now unconditional) or not met (ended) (issue 26). */
  'offer_conditions_met',
  'offer_conditions_not_met',
  /** An offer not answered yet, some days before its reply deadline; and one that lapsed unanswered. */
  'offer_reply_reminder',
  'offer_lapsed',
  /** A request to defer an accepted offer approved (naming the new cycle) or declined, with staff's note (ADR 053). */
  'deferral_approved',
  'deferral_declined',
  /** A submitted document verified or rejected (with the reason) by the institution's staff (issue 10). */
  'document_verified',
  'document_rejected',
  /** An application still in progress a few days before its cycle closes (issue 10, reminders job). */
  'draft_reminder',
  /** The account's password was changed (in settings or through a reset link), with a link to secure it. */
  'password_changed',
  /** A sign-in from a browser the account had not signed in from before, with a link to secure it. */
  'new_device_sign_in',
  /** A paid application fee's receipt: its number, a link to the PDF and the public verify link. */
  'payment_receipt',
  /** A need-based fee waiver request approved, or declined with the reason staff gave (issue 22). */
  'fee_waiver_approved',
  'fee_waiver_declined',
  /** A bank slip staff could not accept, with their reason: the applicant may send another (issue 22). */
  'payment_slip_rejected',
  /** A referee asked for a reference with their signed link, and reminded while it is awaited (issue 26). */
  'referee_invitation',
  'referee_reminder',
] as const;
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];
/** Templates that exist to deliver a link; they cannot be sent without one. */
export const TEMPLATES_WITH_LINK: readonly EmailTemplate[] = [
  'email_verification',
  'password_reset',
  'staff_invitation',
  'referee_invitation',
  'referee_reminder',
];
/** Templates about a request the reader may not have made: they end with a note on ignoring them. */
export const TEMPLATES_WITH_IGNORE_NOTE: readonly EmailTemplate[] = [
  'email_verification',
  'password_reset',
  'staff_invitation',
  'referee_invitation',
];

/** The spec's two sender addresses (section 9), by role; the addresses themselves are server config. */
export const EMAIL_SENDERS = ['info', 'no_reply'] as const;
export type EmailSender = (typeof EMAIL_SENDERS)[number];

/** Blank counts as absent: the template then leaves that part out. */
const optionalText = (max: number) => z.string().trim().max(max).optional();

/**
 * What a template may show. `name`, `operating_system` and `browser_name` are the spec's emailData;
 * `link`, `code` and `expires_in_minutes` carry the verification or reset link the auth module made.
 */
export const EmailDataSchema = z.object({
  name: optionalText(200),
  operating_system: optionalText(100),
  browser_name: optionalText(100),
  link: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  code: optionalText(64),
  expires_in_minutes: z.number().int().positive().max(43_200).optional(),
  /** The institution an admin reviewed, and the reason given with a rejection. */
  institution_name: optionalText(300),
  reason: optionalText(1000),
  /** A staff invitation: who sent it and the job title it offers. */
  inviter_name: optionalText(200),
  role: optionalText(100),
  /** A referee's invitation: whom the reference is for. */
  applicant_name: optionalText(300),
  /** A submission receipt: what was applied for, when, and the reference to quote. */
  program_name: optionalText(300),
  campus_name: optionalText(300),
  /** The admission cycle an offer was deferred to (ADR 053). */
  cycle_name: optionalText(300),
  reference: optionalText(40),
  submitted_on: z.iso.date().optional(),
  /** A reviewed document's kind, worded in the recipient's language by the caller. */
  document_name: optionalText(200),
  /** When a cycle closes, worded in the recipient's language and time zone by the caller. */
  deadline: optionalText(200),
  /** A security email: when it happened and the approximate place (a country), worded by the caller. */
  occurred_at: optionalText(200),
  place: optionalText(200),
  /** A payment receipt: the amount as the recipient writes money, and where anyone can verify it. */
  amount: optionalText(100),
  verify_link: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export type EmailData = z.infer<typeof EmailDataSchema>;

const recipient = z.email('Invalid email address').max(254, 'Email is too long');

/**
 * The spec's `email` call: `type` says whether `templateOrSubject` names a template or is the subject
 * of a free message (whose body is `emailData.text`). With `generateVerificationCode`, the caller has
 * made the verification link and code and must pass them as `emailData.link` and `emailData.code`.
 */
export const EmailPayloadSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('template'),
      templateOrSubject: z.enum(EMAIL_TEMPLATES),
      emailData: EmailDataSchema.default({}),
      to: recipient,
      generateVerificationCode: z.boolean().default(false),
      from: z.enum(EMAIL_SENDERS).optional(),
      language: z.enum(LANGUAGES).default('en'),
    }),
    z.object({
      type: z.literal('custom'),
      templateOrSubject: z.string().trim().min(1).max(200),
      emailData: z.object({ text: z.string().trim().min(1).max(20_000), name: optionalText(200) }),
      to: recipient,
      generateVerificationCode: z.literal(false).default(false),
      from: z.enum(EMAIL_SENDERS).optional(),
      language: z.enum(LANGUAGES).default('en'),
    }),
  ])
  .superRefine((payload, ctx) => {
    const needsLink =
      payload.type === 'template' &&
      (payload.generateVerificationCode || TEMPLATES_WITH_LINK.includes(payload.templateOrSubject));
    if (needsLink && !payload.emailData.link) {
      ctx.addIssue({ code: 'custom', path: ['emailData', 'link'], message: 'A link is required' });
    }
  });
export type EmailPayload = z.input<typeof EmailPayloadSchema>;

export const DevMailboxSummarySchema = z.object({
  id: z.uuid(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  created_at: z.string(),
});
export type DevMailboxSummary = z.infer<typeof DevMailboxSummarySchema>;

export const DevMailboxListSchema = z.array(DevMailboxSummarySchema);

export const DevMailboxMessageSchema = DevMailboxSummarySchema.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
});
export type DevMailboxMessage = z.infer<typeof DevMailboxMessageSchema>;

export const DevMailboxParamsSchema = z.object({ id: z.uuid() });
