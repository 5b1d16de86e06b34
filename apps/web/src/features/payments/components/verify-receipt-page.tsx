import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ReceiptCodeParamsSchema, type ReceiptVerification } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';
import { useReceiptVerification } from '../api/verify-receipt.ts';

/** A code as the receipt prints it (groups of four), from what a person typed: any case, with or without dashes. */
export function normaliseReceiptCode(input: string): string | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const grouped = compact.length === 12 ? compact.replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3') : input;
  const parsed = ReceiptCodeParamsSchema.safeParse({ code: grouped });
  return parsed.success ? parsed.data.code : null;
}

const isUnknown = (error: unknown) =>
  error instanceof ApiError && (error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT');

function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex w-full max-w-xl min-w-0 flex-col gap-6 px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t('receipts.verify.title')}</h1>
      {children}
    </section>
  );
}

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
  const facts: Array<[string, string]> = [
    [t('receipts.verify.receipt_number'), receipt.receipt_number],
    [t('receipts.verify.institution'), receipt.institution],
    [t('receipts.verify.payer'), receipt.payer_initials],
    [t('receipts.verify.amount'), money(language, receipt.amount, receipt.currency)],
    [t('receipts.verify.paid_on'), paidOn],
    [t('receipts.verify.method'), method],
  ];
  return (
    <div className="flex flex-col gap-4 rounded-2xl border-2 border-success bg-surface p-5">
      <h2 className="flex items-center gap-2 text-xl font-bold text-success">
        <span aria-hidden="true">✓</span>
        {t('receipts.verify.genuine')}
      </h2>
      <p>{t('receipts.verify.genuine_lead')}</p>
      <dl className="flex flex-col gap-3">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-sm text-muted">{term}</dt>
            <dd className="font-semibold break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm break-words text-muted">{t('receipts.verify.code', { code })}</p>
    </div>
  );
}

/** Another code to check, for a receipt whose QR code could not be read or was mistyped. */
function CodeForm({ initial }: { initial: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const inputId = useId();
  const helpId = useId();
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An unreadable code goes to the page too: it answers that no receipt matches, as the api would.
    void navigate(paths.receipt(normaliseReceiptCode(value) ?? (value.trim() || initial)));
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <label htmlFor={inputId} className="font-medium">
        {t('receipts.verify.code_label')}
      </label>
      <p id={helpId} className="text-sm text-muted">
        {t('receipts.verify.not_found_hint')}
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id={inputId}
          aria-describedby={helpId}
          className="field-input min-w-0 flex-1 font-mono uppercase"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          required
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="btn-primary">
          {t('receipts.verify.check')}
        </button>
      </div>
    </form>
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

  const unknown = code === null || (query.isError && isUnknown(query.error));
  return (
    <Frame>
      {/* One region for every outcome, present from the start, so the answer is announced when it comes. */}
      <div aria-live="polite" className="flex min-w-0 flex-col gap-2">
        {unknown ? (
          <>
            <h2 className="text-xl font-bold">{t('receipts.verify.not_found_title')}</h2>
            <FormAlert>{t('payments.errors.receipt_not_found')}</FormAlert>
          </>
        ) : query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <LoadError error={query.error} retryLabel={t('receipts.verify.retry')} onRetry={() => void query.refetch()} />
        ) : (
          <Genuine receipt={query.data} code={code} />
        )}
      </div>
      {unknown && <CodeForm key={raw} initial={raw} />}
    </Frame>
  );
}
