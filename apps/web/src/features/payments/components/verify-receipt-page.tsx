import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ReceiptCodeParamsSchema, type ReceiptVerification } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import {
  GenuineDocument,
  normaliseVerificationCode,
  VerificationPage,
} from '../../../components/verification-page.tsx';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';
import { useReceiptVerification } from '../api/verify-receipt.ts';

/** A code as the receipt prints it (groups of four), from what a person typed: any case, with or without dashes. */
export const normaliseReceiptCode = (input: string) => normaliseVerificationCode(input, ReceiptCodeParamsSchema);

function money(language: string, amount: number, currency: string): string {
  try {
    return numberFormat(language, { style: 'currency', currency }).format(amount);
  } catch {
    return `${numberFormat(language).format(amount)} ${currency}`;
  }
}

function Genuine({ receipt, code }: { receipt: ReceiptVerification; code: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const paidOn = dateTimeFormat(language, { dateStyle: 'long' }).format(new Date(receipt.paid_at));
  const method = receipt.method
    ? t('receipts.method_with_provider', {
        method: t(`receipts.methods.${receipt.method}`),
        provider: t(`receipts.providers.${receipt.provider}`),
      })
    : t(`receipts.providers.${receipt.provider}`);
  return (
    <GenuineDocument
      title={t('receipts.verify.genuine')}
      lead={t('receipts.verify.genuine_lead')}
      facts={[
        [t('receipts.verify.receipt_number'), receipt.receipt_number],
        [t('receipts.verify.institution'), receipt.institution],
        [t('receipts.verify.payer'), receipt.payer_initials],
        [t('receipts.verify.amount'), money(language, receipt.amount, receipt.currency)],
        [t('receipts.verify.paid_on'), paidOn],
        [t('receipts.verify.method'), method],
      ]}
      footer={t('receipts.verify.code', { code })}
    />
  );
}

/**
 * /verify/receipt/{code}: the public check of a payment receipt, opened by its QR code. It confirms the
 * receipt is genuine and shows the payment, with the payer by initials only.
 */
export function VerifyReceiptPage() {
  const { t } = useTranslation();
  const { code: raw = '' } = useParams();
  const code = normaliseReceiptCode(raw);
  const query = useReceiptVerification(code);
  return (
    <VerificationPage
      raw={raw}
      code={code}
      query={query}
      normalise={normaliseReceiptCode}
      pathOf={paths.receipt}
      texts={{
        title: t('receipts.verify.title'),
        notFoundTitle: t('receipts.verify.not_found_title'),
        notFound: t('payments.errors.receipt_not_found'),
        retry: t('receipts.verify.retry'),
        codeLabel: t('receipts.verify.code_label'),
        codeHelp: t('receipts.verify.not_found_hint'),
        check: t('receipts.verify.check'),
      }}
    >
      {(receipt, checked) => <Genuine receipt={receipt} code={checked} />}
    </VerificationPage>
  );
}
