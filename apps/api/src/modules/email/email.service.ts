import { eq } from 'drizzle-orm';
import {
  AUTH_MESSAGES,
  GENERIC_MESSAGES,
  EMAIL_TEMPLATES,
  EmailDataSchema,
  EmailPayloadSchema,
  type EmailData,
  type EmailSender,
  type EmailTemplate,
} from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
export { deviceFromUserAgent, type Device } from '../../lib/user-agent.ts';
import { emailLanguage, renderCustom, renderTemplate, type RenderedEmail } from './email.templates.ts';

/** A database handle or an open transaction on it: mail is enqueued in the caller's transaction. */
export type DbOrTransaction = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** Who sends each template by default: the welcome comes from the info address, links from no-reply. */
const DEFAULT_SENDER: Record<EmailTemplate, EmailSender> = {
  welcome: 'info',
  email_verification: 'no_reply',
  password_reset: 'no_reply',
  // Review outcomes come from the info address: an institution may well reply with questions.
  institution_approved: 'info',
  institution_rejected: 'info',
  // Sent on a colleague's behalf: a reply reaches Kaminuza's info address rather than nowhere.
  staff_invitation: 'info',
  // Answers belong in the conversation, not in a reply to the email.
  unread_message: 'no_reply',
  // An applicant may well reply to their receipt with a question.
  submission_receipt: 'info',
  submitted_on_behalf: 'info',
  // Applicants write back about their decisions; the institution's admissions team is reached from there.
  decision_released: 'info',
  waitlist_offer: 'info',
  offer_conditions_met: 'info',
  offer_conditions_not_met: 'info',
  // A reminder is automatic; a lapsed offer is a question for the institution, reached from the decision.
  offer_reply_reminder: 'no_reply',
  offer_lapsed: 'info',
  // A deferral is the institution's answer: the applicant may write back about it.
  deferral_approved: 'info',
  deferral_declined: 'info',
  // The applicant may write back about a document; a reminder is automatic.
  document_verified: 'info',
  document_rejected: 'info',
  draft_reminder: 'no_reply',
  // Security notices are automatic: what to do is in the email, and a reply reaches nobody.
  password_changed: 'no_reply',
  new_device_sign_in: 'no_reply',
  // A payer may well reply to their receipt with a question.
  payment_receipt: 'info',
  // Fee decisions, like document reviews: the applicant may write back about them.
  fee_waiver_approved: 'info',
  fee_waiver_declined: 'info',
  payment_slip_rejected: 'info',
  // A referee may write back with a question about the request; a reminder is automatic.
  referee_invitation: 'info',
  referee_reminder: 'no_reply',
};

/** The spec's "Failed to send …" text for each template (section 8). */
export const SEND_FAILURE_MESSAGES: Record<EmailTemplate, string> = {
  welcome: AUTH_MESSAGES.welcome_email_failed,
  email_verification: AUTH_MESSAGES.verification_email_failed,
  password_reset: AUTH_MESSAGES.reset_email_failed,
  institution_approved: GENERIC_MESSAGES.generic,
  institution_rejected: GENERIC_MESSAGES.generic,
  staff_invitation: GENERIC_MESSAGES.generic,
  unread_message: GENERIC_MESSAGES.generic,
  submission_receipt: GENERIC_MESSAGES.generic,
  submitted_on_behalf: GENERIC_MESSAGES.generic,
  decision_released: GENERIC_MESSAGES.generic,
  waitlist_offer: GENERIC_MESSAGES.generic,
  offer_conditions_met: GENERIC_MESSAGES.generic,
  offer_conditions_not_met: GENERIC_MESSAGES.generic,
  offer_reply_reminder: GENERIC_MESSAGES.generic,
  offer_lapsed: GENERIC_MESSAGES.generic,
  deferral_approved: GENERIC_MESSAGES.generic,
  deferral_declined: GENERIC_MESSAGES.generic,
  document_verified: GENERIC_MESSAGES.generic,
  document_rejected: GENERIC_MESSAGES.generic,
  draft_reminder: GENERIC_MESSAGES.generic,
  password_changed: GENERIC_MESSAGES.generic,
  new_device_sign_in: GENERIC_MESSAGES.generic,
  payment_receipt: GENERIC_MESSAGES.generic,
  fee_waiver_approved: GENERIC_MESSAGES.generic,
  fee_waiver_declined: GENERIC_MESSAGES.generic,
  payment_slip_rejected: GENERIC_MESSAGES.generic,
  referee_invitation: GENERIC_MESSAGES.generic,
  referee_reminder: GENERIC_MESSAGES.generic,
};

export interface EnqueueEmailInput {
  to: string;
  template: EmailTemplate;
  /** The recipient's language (students.language); anything unknown falls back to English. */
  language?: string | null;
  data?: EmailData;
  from?: EmailSender;
}

export interface EnqueueCustomEmailInput {
  to: string;
  subject: string;
  text: string;
  from?: EmailSender;
  language?: string | null;
  name?: string;
}

async function insert(
  db: DbOrTransaction,
  row: { to: string; from: EmailSender; template: string; language: string; data: EmailData },
  rendered: RenderedEmail,
): Promise<string> {
  const [created] = await db
    .insert(emailOutbox)
    .values({ ...row, ...rendered })
    .returning({ id: emailOutbox.id });
  if (!created) throw new Error('email_outbox insert returned no row');
  return created.id;
}

/**
 * Renders a template now, in the recipient's language, and commits it to the outbox; the worker
 * delivers it. Pass the transaction that creates the account so the two commit together. `from` is a
 * sender role; the worker turns it into MAIL_FROM_INFO or MAIL_FROM_NO_REPLY. Returns the outbox id.
 */
export async function enqueueEmail(db: DbOrTransaction, input: EnqueueEmailInput): Promise<string> {
  const row = outboxEmail(input);
  const data = EmailDataSchema.parse(row.data);
  return insert(
    db,
    { ...row, data },
    renderTemplate(row.template, row.language, data, { noReply: row.from === 'no_reply' }),
  );
}

/**
 * An outbox row of a template email, not rendered: for a caller on the hot path of a request that writes
 * it in the same statement as the record it reports (see writeSubmission). Its data is checked and the
 * message rendered at delivery (renderStored), after the burst it came in with (ADR 048).
 */
export function outboxEmail(input: EnqueueEmailInput) {
  const language = emailLanguage(input.language);
  const from = input.from ?? DEFAULT_SENDER[input.template];
  return { to: input.to, from, template: input.template, language, data: input.data ?? {} };
}

function templateOf(name: string): EmailTemplate {
  const template = EMAIL_TEMPLATES.find((candidate) => candidate === name);
  if (!template) throw new Error(`no email template ${name}`);
  return template;
}

/** A stored template message rendered at delivery, in its language, from its data. */
export function renderStored(message: {
  template: string;
  language: string;
  from: string;
  data: unknown;
}): RenderedEmail {
  return renderTemplate(
    templateOf(message.template),
    emailLanguage(message.language),
    EmailDataSchema.parse(message.data ?? {}),
    { noReply: message.from === 'no_reply' },
  );
}

/** A message with a free subject and a plain-text body (shown escaped in the HTML part). */
export async function enqueueCustomEmail(db: DbOrTransaction, input: EnqueueCustomEmailInput): Promise<string> {
  const language = emailLanguage(input.language);
  const from = input.from ?? 'info';
  const rendered = renderCustom(
    language,
    { subject: input.subject, text: input.text, name: input.name },
    { noReply: from === 'no_reply' },
  );
  return insert(db, { to: input.to, from, template: 'custom', language, data: {} }, rendered);
}

/**
 * The spec's `email` call (section 7). `type: 'template'` sends the template named by
 * `templateOrSubject`; `type: 'custom'` sends `emailData.text` under the subject `templateOrSubject`.
 * With `generateVerificationCode: true` the caller has created the verification token and passes it
 * as `emailData.link` (and the short code as `emailData.code`); the payload is refused without a link.
 * An invalid payload answers invalid-argument with the spec's text; a failure to enqueue answers the
 * spec's "Failed to send …" message of that template.
 */
export async function sendEmail(db: DbOrTransaction, payload: unknown): Promise<{ id: string }> {
  const parsed = EmailPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    throw new AppError(
      'INVALID_ARGUMENT',
      undefined,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
  }
  const email = parsed.data;
  try {
    if (email.type === 'custom') {
      const { text, name } = email.emailData;
      return {
        id: await enqueueCustomEmail(db, {
          to: email.to,
          subject: email.templateOrSubject,
          text,
          from: email.from,
          language: email.language,
          ...(name ? { name } : {}),
        }),
      };
    }
    return {
      id: await enqueueEmail(db, {
        to: email.to,
        template: email.templateOrSubject,
        language: email.language,
        data: email.emailData,
        from: email.from,
      }),
    };
  } catch (error) {
    const message = email.type === 'template' ? SEND_FAILURE_MESSAGES[email.templateOrSubject] : undefined;
    const failure = new AppError('INTERNAL', message);
    failure.cause = error;
    throw failure;
  }
}

export interface EmailStatus {
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
}

/** Where an enqueued message stands, e.g. to show "Failed to send verification email" once it gave up. */
export async function emailStatus(db: DbOrTransaction, id: string): Promise<EmailStatus | null> {
  const [row] = await db
    .select({
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      last_error: emailOutbox.last_error,
      sent_at: emailOutbox.sent_at,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id));
  return row ?? null;
}
