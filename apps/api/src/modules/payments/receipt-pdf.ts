import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { Language, PaymentMethod, PaymentProvider } from '@kaminuza/shared';
import { catalogueText } from '../email/index.ts';

/*
 * The PDF of a payment receipt, in the payer's language. Helvetica (one of the PDF standard fonts, WinAnsi
 * encoded) covers English, French and Kinyarwanda; the few characters Intl may write outside WinAnsi (the
 * narrow no-break space of French numbers) are replaced by their nearest WinAnsi form.
 */

export interface ReceiptFacts {
  institution: string;
  receiptNumber: string;
  code: string;
  /** ISO timestamp of the settlement. */
  paidAt: string;
  /** The institution's time zone, in which the date is written. */
  timezone: string;
  payerName: string;
  /** The submission's reference once the application is submitted; null before. */
  applicationReference: string | null;
  program: string;
  amount: number;
  currency: string;
  method: PaymentMethod | null;
  provider: PaymentProvider;
  providerTransactionId: string | null;
  paymentReference: string;
}

/** Characters Intl writes that WinAnsi has no glyph for, as the closest ones it has. */
const WIN_ANSI_FIXES: Array<[RegExp, string]> = [
  [/[\u202f\u2009\u2007]/g, '\u00a0'],
  [/\u2212/g, '-'],
];

export function winAnsi(text: string): string {
  return WIN_ANSI_FIXES.reduce((value, [pattern, replacement]) => value.replace(pattern, replacement), text);
}

export function formatMoney(amount: number, currency: string, language: Language): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);
  } catch {
    // A currency code Intl does not know is still written, after the amount.
    return `${new Intl.NumberFormat(language).format(amount)} ${currency}`;
  }
}

export function formatPaidAt(paidAt: string, timezone: string, language: Language): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: timezone }).format(new Date(paidAt));
  } catch {
    return new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(new Date(paidAt));
  }
}

/** "Mobile money — MTN MoMo": the method, and the provider when it says more than the method. */
export function methodLabel(method: PaymentMethod | null, provider: PaymentProvider, language: Language): string {
  const t = catalogueText(language);
  const providerName = t(`receipts.providers.${provider}`);
  if (!method) return providerName;
  return t('receipts.method_with_provider', { method: t(`receipts.methods.${method}`), provider: providerName });
}

export const verifyUrlOf = (publicUrl: string, code: string) =>
  `${publicUrl}/verify/receipt/${encodeURIComponent(code)}`;

const MARGIN = 56;
const LABEL_WIDTH = 170;
const BRAND = '#0f5e4d';
const MUTED = '#5b6b66';
const QR_SIZE = 132;

export async function renderReceiptPdf(facts: ReceiptFacts, language: Language, publicUrl: string): Promise<Buffer> {
  const t = catalogueText(language);
  const verifyUrl = verifyUrlOf(publicUrl, facts.code);
  const qr = await QRCode.toBuffer(verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 264 });
  const title = t('receipts.pdf.title');

  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: language,
    info: {
      Title: winAnsi(`${title} ${facts.receiptNumber}`),
      Author: 'Kaminuza',
      Subject: winAnsi(facts.institution),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - MARGIN * 2;
  doc.font('Helvetica-Bold').fontSize(11).fillColor(BRAND).text('Kaminuza', MARGIN, MARGIN);
  doc.moveDown(0.6);
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#10231e').text(winAnsi(facts.institution), { width });
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(26).fillColor(BRAND).text(winAnsi(title), { width });
  doc.moveDown(1.2);

  const rows: Array<[string, string]> = [
    [t('receipts.pdf.receipt_number'), facts.receiptNumber],
    [t('receipts.pdf.paid_on'), formatPaidAt(facts.paidAt, facts.timezone, language)],
    [t('receipts.pdf.payer'), facts.payerName],
    ...(facts.applicationReference
      ? [[t('receipts.pdf.application'), facts.applicationReference] as [string, string]]
      : []),
    [t('receipts.pdf.program'), facts.program],
    [t('receipts.pdf.amount'), formatMoney(facts.amount, facts.currency, language)],
    [t('receipts.pdf.method'), methodLabel(facts.method, facts.provider, language)],
    ...(facts.providerTransactionId
      ? [[t('receipts.pdf.provider_transaction'), facts.providerTransactionId] as [string, string]]
      : []),
    [t('receipts.pdf.payment_reference'), facts.paymentReference],
    [t('receipts.pdf.verification_code'), facts.code],
  ];
  doc.strokeColor('#d5dcda').lineWidth(1);
  for (const [label, value] of rows) {
    const top = doc.y;
    doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor(MUTED)
      .text(winAnsi(label), MARGIN, top, { width: LABEL_WIDTH - 12 });
    const labelBottom = doc.y;
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#1d2b27')
      .text(winAnsi(value), MARGIN + LABEL_WIDTH, top, { width: width - LABEL_WIDTH });
    const bottom = Math.max(labelBottom, doc.y) + 6;
    doc
      .moveTo(MARGIN, bottom)
      .lineTo(MARGIN + width, bottom)
      .stroke();
    doc.y = bottom + 6;
  }

  doc.moveDown(1);
  const qrTop = doc.y;
  doc.image(qr, MARGIN, qrTop, { width: QR_SIZE, height: QR_SIZE });
  const textLeft = MARGIN + QR_SIZE + 18;
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .fillColor('#10231e')
    .text(facts.code, textLeft, qrTop + 8, { width: width - QR_SIZE - 18 });
  doc.moveDown(0.4);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(winAnsi(t('receipts.pdf.verify_hint', { url: verifyUrl })), { width: width - QR_SIZE - 18 });
  doc.y = Math.max(doc.y, qrTop + QR_SIZE) + 24;
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(MUTED)
    .text(winAnsi(t('receipts.pdf.footer', { institution: facts.institution })), MARGIN, doc.y, { width });

  doc.end();
  return done;
}
