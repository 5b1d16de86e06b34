/**
 * The text messages the platform sends (issue 27). Their texts are in the catalogues' `sms` group, one
 * per language, each starting with "Kaminuza" so the recipient knows who writes; none ever carries what
 * a decision is, only that one is ready.
 */
export const SMS_TEMPLATES = [
  /** The code that proves the applicant holds the phone number. */
  'phone_code',
  /** An application submitted, with its reference. */
  'submission_receipt',
  /** An application fee's payment confirmed. */
  'payment_confirmed',
  /** A decision released: that one is ready, never what it is. */
  'decision_released',
  /** An offer not answered yet, some days before its reply deadline. */
  'offer_reply_reminder',
  /** An application still in progress some days before its cycle closes. */
  'draft_reminder',
  /** A new message from an institution, or from the support team. */
  'new_message',
] as const;
export type SmsTemplate = (typeof SMS_TEMPLATES)[number];

/**
 * The values a text may show. `institution` and `program` are names staff typed, of any length: they
 * are the ones shortened when a text would not fit. The others are kept whole.
 */
export interface SmsValues {
  /** The phone verification code, as the applicant types it. */
  code: string;
  /** An application's reference, as the applicant quotes it. */
  reference: string;
  /** The institution's name. */
  institution: string;
  /** The program's name. */
  program: string;
  /** An amount with its currency, already formatted: "RWF 25,000". */
  amount: string;
  /** A day, already worded short in the recipient's language: "30 Nov", "30 nov.", "30 Ugushyingo". */
  deadline: string;
  /** The platform's short link to the page the message is about: "https://kaminuza.example/s/AB12CD". */
  link: string;
}
export type SmsField = keyof SmsValues;
/** Values that may be shortened (with an ellipsis) for a text to fit; the others never are. */
export const SMS_SHORTENABLE_FIELDS: readonly SmsField[] = ['institution', 'program'];

/** What each template is given. A new message with no institution is from the support team. */
export interface SmsData {
  phone_code: Pick<SmsValues, 'code'>;
  submission_receipt: Pick<SmsValues, 'institution' | 'program' | 'reference' | 'link'>;
  payment_confirmed: Pick<SmsValues, 'institution' | 'amount' | 'reference' | 'link'>;
  decision_released: Pick<SmsValues, 'institution' | 'program' | 'link'>;
  offer_reply_reminder: Pick<SmsValues, 'institution' | 'program' | 'deadline' | 'link'>;
  draft_reminder: Pick<SmsValues, 'institution' | 'program' | 'deadline' | 'link'>;
  new_message: Pick<SmsValues, 'link'> & { institution?: string };
}

/** One text of the catalogue: its key and the values it shows (exactly those). */
export interface SmsText {
  key: string;
  fields: readonly SmsField[];
}

/** Every text of every template; a template has one text, but a new message has two (institution, support). */
export const SMS_TEXTS: { readonly [T in SmsTemplate]: readonly SmsText[] } = {
  phone_code: [{ key: 'sms.phone_code', fields: ['code'] }],
  submission_receipt: [{ key: 'sms.submission_receipt', fields: ['program', 'institution', 'reference', 'link'] }],
  payment_confirmed: [{ key: 'sms.payment_confirmed', fields: ['amount', 'institution', 'reference', 'link'] }],
  decision_released: [{ key: 'sms.decision_released', fields: ['institution', 'program', 'link'] }],
  offer_reply_reminder: [{ key: 'sms.offer_reply_reminder', fields: ['program', 'institution', 'deadline', 'link'] }],
  draft_reminder: [{ key: 'sms.draft_reminder', fields: ['program', 'institution', 'deadline', 'link'] }],
  new_message: [
    { key: 'sms.new_message', fields: ['institution', 'link'] },
    { key: 'sms.new_message_support', fields: ['link'] },
  ],
};

/** The text a template uses for its data. */
export function smsTextOf<T extends SmsTemplate>(template: T, data: SmsData[T]): SmsText {
  const texts = SMS_TEXTS[template];
  if (template === 'new_message' && !('institution' in data && data.institution)) return texts[1]!;
  return texts[0]!;
}
