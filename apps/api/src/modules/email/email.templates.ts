import i18next from 'i18next';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  TEMPLATES_WITH_IGNORE_NOTE,
  type EmailData,
  type EmailTemplate,
  type Language,
} from '@kaminuza/shared';
import en from '@kaminuza/shared/locales/en.json' with { type: 'json' };
import fr from '@kaminuza/shared/locales/fr.json' with { type: 'json' };
import rw from '@kaminuza/shared/locales/rw.json' with { type: 'json' };

/**
 * A calendar day (`YYYY-MM-DD`) as the recipient writes dates: "26 novembre 2026", "2026 Ugushyingo 26".
 * The server's ICU has every language of the product; the day itself never shifts with a time zone.
 */
/** One formatter per language: building one costs more than the receipt email around it. */
const longDates = new Map<Language, Intl.DateTimeFormat>();

export function longDate(day: string, language: Language): string {
  let format = longDates.get(language);
  if (!format)
    longDates.set(language, (format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' })));
  return format.format(new Date(`${day}T00:00:00Z`));
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** The shared catalogues, loaded synchronously: rendering never waits and never fails on a missing file. */
const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { translation: en }, fr: { translation: fr }, rw: { translation: rw } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  // Values are escaped once, when the finished text is put into HTML; the plain-text part needs them raw.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The catalogues' texts in a language, for what is sent outside an email too (an admission letter). */
export function catalogueText(language: Language) {
  return i18n.getFixedT(language);
}

export function emailLanguage(language: string | null | undefined): Language {
  return LANGUAGES.find((candidate) => candidate === language) ?? DEFAULT_LANGUAGE;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** The parts of a message, each rendered once as HTML and once as plain text. */
type Block =
  | { kind: 'heading' | 'paragraph' | 'muted'; text: string }
  | { kind: 'button'; label: string; href: string }
  /** The link written out under its button, for mail clients that break buttons (HTML only). */
  | { kind: 'fallback'; text: string; href: string }
  | { kind: 'code'; text: string };

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const BRAND = '#0f5e4d';

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#10231e;">${escapeHtml(block.text)}</h1>`;
    case 'paragraph':
      return `<p style="margin:0 0 16px;">${escapeHtml(block.text)}</p>`;
    case 'muted':
      return `<p style="margin:0 0 12px;font-size:14px;color:#5b6b66;">${escapeHtml(block.text)}</p>`;
    case 'code':
      return `<p style="margin:0 0 16px;font-size:18px;font-weight:bold;letter-spacing:2px;">${escapeHtml(block.text)}</p>`;
    case 'fallback':
      return (
        `<p style="margin:0 0 16px;font-size:14px;color:#5b6b66;">${escapeHtml(block.text)}<br>` +
        `<a href="${escapeHtml(block.href)}" style="color:${BRAND};word-break:break-all;">${escapeHtml(block.href)}</a></p>`
      );
    case 'button': {
      const href = escapeHtml(block.href);
      return (
        `<p style="margin:24px 0;"><a href="${href}" style="display:inline-block;padding:12px 20px;border-radius:8px;` +
        `background:${BRAND};color:#ffffff;font-weight:bold;text-decoration:none;">${escapeHtml(block.label)}</a></p>`
      );
    }
  }
}

function blockText(block: Block): string | null {
  switch (block.kind) {
    case 'fallback':
      return null;
    case 'heading':
    case 'paragraph':
    case 'muted':
    case 'code':
      return block.text;
    case 'button':
      return `${block.label}: ${block.href}`;
  }
}

function layout(language: Language, subject: string, body: Block[], footer: Block[]): RenderedEmail {
  const rows = body.map(blockHtml).join('\n');
  const footerRows = footer.map(blockHtml).join('\n');
  const html = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f5f4;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f4;padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;">
<tr><td style="padding:32px 28px;font-family:${FONT};font-size:16px;line-height:1.5;color:#1d2b27;">
<p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:${BRAND};">Kaminuza</p>
${rows}
</td></tr>
<tr><td style="padding:0 28px 28px;font-family:${FONT};">
${footerRows}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  const text = `${[...body, ...footer]
    .map(blockText)
    .filter((part) => part !== null)
    .join('\n\n')}\n`;
  return { subject, html, text };
}

interface Options {
  /** Sent from the no-reply address: the footer says replies are not read. */
  noReply: boolean;
}

/** A template in the recipient's language; every value from `data` is escaped in the HTML part. */
export function renderTemplate(
  template: EmailTemplate,
  language: Language,
  data: EmailData,
  { noReply }: Options,
): RenderedEmail {
  const t = i18n.getFixedT(language);
  const key = (name: string) => `email.${template}.${name}`;
  // An unread support reply comes from the team, named in the recipient's language; a chat names its sender.
  const sender = data.institution_name ?? (template === 'unread_message' ? t('email.unread_message.support_team') : '');
  const facts = {
    institution: sender,
    inviter: data.inviter_name ?? '',
    applicant: data.applicant_name ?? '',
    role: data.role ?? '',
    program: data.program_name ?? '',
    campus: data.campus_name ?? '',
    cycle: data.cycle_name ?? '',
    date: data.submitted_on ? longDate(data.submitted_on, language) : '',
    document: data.document_name ?? '',
    deadline: data.deadline ?? '',
    amount: data.amount ?? '',
  };
  const subject = t(key('subject'), facts);
  const body: Block[] = [
    { kind: 'heading', text: t(key('heading')) },
    { kind: 'paragraph', text: data.name ? t('email.greeting', { name: data.name }) : t('email.greeting_no_name') },
    { kind: 'paragraph', text: t(key('intro'), facts) },
  ];
  if (data.reason) body.push({ kind: 'paragraph', text: t(key('reason'), { reason: data.reason }) });
  if ((template === 'submission_receipt' || template === 'submitted_on_behalf') && data.reference) {
    body.push(
      { kind: 'paragraph', text: t(key('details'), facts) },
      { kind: 'paragraph', text: t(key('reference')) },
      { kind: 'code', text: data.reference },
    );
  }
  if (template === 'payment_receipt' && data.reference) {
    body.push({ kind: 'paragraph', text: t(key('number')) }, { kind: 'code', text: data.reference });
  }
  const security = SECURITY_TEMPLATES.includes(template);
  if (security) body.push(...securityFacts(t, data));
  if (data.link) {
    body.push(
      { kind: 'button', label: t(security ? 'email.security.cta' : key('cta')), href: data.link },
      { kind: 'fallback', text: t('email.link_fallback'), href: data.link },
    );
  }
  if (template === 'payment_receipt' && data.verify_link) {
    body.push({ kind: 'paragraph', text: t(key('verify'), { link: data.verify_link }) });
  }
  if (template === 'email_verification' && data.code) {
    body.push({ kind: 'paragraph', text: t('email.email_verification.code', { code: data.code }) });
  }
  if (data.link && data.expires_in_minutes) body.push({ kind: 'muted', text: expiry(t, data.expires_in_minutes) });
  if (!security && data.browser_name && data.operating_system) {
    body.push({
      kind: 'muted',
      text: t('email.device', { browser_name: data.browser_name, operating_system: data.operating_system }),
    });
  }
  if (TEMPLATES_WITH_IGNORE_NOTE.includes(template)) body.push({ kind: 'muted', text: t(key('ignore')) });
  body.push({ kind: 'paragraph', text: t('email.signature') });
  return layout(language, subject, body, footer(t, noReply));
}

/** A free message (the `email` call with a subject instead of a template): plain text, escaped. */
export function renderCustom(
  language: Language,
  { subject, text, name }: { subject: string; text: string; name?: string | undefined },
  { noReply, unsubscribeUrl }: Options & { unsubscribeUrl?: string },
): RenderedEmail {
  const t = i18n.getFixedT(language);
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph): Block => ({ kind: 'paragraph', text: paragraph }));
  const body: Block[] = [
    { kind: 'paragraph', text: name ? t('email.greeting', { name }) : t('email.greeting_no_name') },
    ...paragraphs,
    { kind: 'paragraph', text: t('email.signature') },
  ];
  const unsubscribe: Block[] = unsubscribeUrl
    ? [{ kind: 'fallback', text: t('email.unsubscribe'), href: unsubscribeUrl }]
    : [];
  const rendered = layout(language, subject, body, [...footer(t, noReply), ...unsubscribe]);
  // The HTML shows the link under its text; the plain-text part needs it written out.
  if (unsubscribeUrl) rendered.text = `${rendered.text}\n${t('email.unsubscribe')} ${unsubscribeUrl}\n`;
  return rendered;
}

type Translate = ReturnType<typeof i18n.getFixedT>;

/** Security notices: the facts of what happened, then what to do if it was not the reader. */
const SECURITY_TEMPLATES: readonly EmailTemplate[] = ['password_changed', 'new_device_sign_in'];

function securityFacts(t: Translate, data: EmailData): Block[] {
  const facts: Block[] = [];
  if (data.occurred_at) facts.push({ kind: 'paragraph', text: t('email.security.time', { time: data.occurred_at }) });
  if (data.browser_name && data.operating_system) {
    facts.push({
      kind: 'paragraph',
      text: t('email.security.device', { browser_name: data.browser_name, operating_system: data.operating_system }),
    });
  }
  if (data.place) facts.push({ kind: 'paragraph', text: t('email.security.place', { place: data.place }) });
  facts.push({ kind: 'paragraph', text: t('email.security.secure') });
  return facts;
}

function expiry(t: Translate, minutes: number): string {
  // Week-long links (staff invitations) read better in days than as 168 hours.
  if (minutes >= 2880 && minutes % 1440 === 0) return t('email.expires_days', { count: minutes / 1440 });
  return minutes % 60 === 0
    ? t('email.expires_hours', { count: minutes / 60 })
    : t('email.expires_minutes', { count: minutes });
}

function footer(t: Translate, noReply: boolean): Block[] {
  return [
    { kind: 'muted', text: t('email.footer') },
    ...(noReply ? [{ kind: 'muted' as const, text: t('email.no_reply_note') }] : []),
  ];
}
