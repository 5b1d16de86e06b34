import { useCallback, useId, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BANK_REFERENCE_MAX,
  PAYMENT_MESSAGES,
  fromMinor,
  type BankAccount,
  type CheckoutStarted,
} from '@kaminuza/shared';
import { FormAlert, TextField, useMessage } from '../../../components/form/field.tsx';
import { useUpload } from '../../../components/upload/use-upload.ts';
import {
  DownscaleChoice,
  isBusy,
  UnfinishedUploads,
  UploadInFlight,
} from '../../../components/upload/upload-controls.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { useSubmitBankSlip } from '../api/submit-bank-slip.ts';

/** What the applicant writes on the slip so the institution can match the deposit: the application's short id. */
export const slipReferenceOf = (applicationId: string) =>
  `KZ-${applicationId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

/** One bank detail with a button copying it (the button says which detail it copies). */
function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="flex min-w-0 flex-wrap items-center justify-between gap-2 border-b border-border py-2 last:border-b-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2">
        <span className="font-medium [overflow-wrap:anywhere]">{value}</span>
        <button
          type="button"
          className="btn-secondary shrink-0 px-2 py-1 text-xs"
          aria-label={t('payments.bank_slip.copy_label', { label })}
          onClick={copy}
        >
          {copied ? t('payments.bank_slip.copied') : t('payments.bank_slip.copy')}
        </button>
      </dd>
    </div>
  );
}

/**
 * Paying the fee by bank slip: the institution's account to deposit to (each detail copyable), the amount
 * and the reference to write on the slip; then a photo or PDF of the slip and the reference the bank
 * printed on it. Staff verify it; `onSubmitted` gets the payment, pending until they do.
 */
export function BankSlipForm({
  applicationId,
  currency,
  amount,
  bankAccounts,
  onSubmitted,
}: {
  applicationId: string;
  currency: string;
  /** The fee in minor units of the currency (as the fee options give it). */
  amount: number;
  bankAccounts: readonly BankAccount[];
  onSubmitted: (checkout: CheckoutStarted) => void;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const fileInputId = useId();
  const account = bankAccounts.find((candidate) => candidate.currency === currency) ?? null;
  const [slipFileId, setSlipFileId] = useState<string | null>(null);
  const [bankReference, setBankReference] = useState('');
  const [problems, setProblems] = useState<{ file?: string; reference?: string }>({});
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const submit = useSubmitBankSlip();
  const uploaded = useCallback((fileId: string | null) => {
    setSlipFileId(fileId);
    setProblems((current) => ({ ...current, file: undefined }));
  }, []);
  // A slip belongs to this application's payment: another application's screen does not offer it.
  const upload = useUpload('payment_slip', uploaded, { owner: `payment_slip:${applicationId}` });
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const formattedAmount = useMemo(() => {
    const major = fromMinor(amount, currency);
    try {
      return numberFormat(language, { style: 'currency', currency }).format(major);
    } catch {
      return `${major} ${currency}`;
    }
  }, [amount, currency, language]);
  const slipReference = slipReferenceOf(applicationId);

  if (!account) return <FormAlert>{t('payments.bank_slip.no_account')}</FormAlert>;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setSlipFileId(null);
    upload.start(file);
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    const reference = bankReference.trim();
    const found = {
      file: slipFileId ? undefined : PAYMENT_MESSAGES.slip_file_required,
      reference:
        reference.length > 0 && reference.length <= BANK_REFERENCE_MAX
          ? undefined
          : PAYMENT_MESSAGES.bank_reference_invalid,
    };
    setProblems(found);
    if (found.file || found.reference || !slipFileId) return;
    submit.mutate(
      { applicationId, currency, bankReference: reference, slipFileId, idempotencyKey },
      {
        onSuccess: (checkout) => {
          setIdempotencyKey(crypto.randomUUID());
          onSubmitted(checkout);
        },
        // A slip refused (its file, say) is sent again as a new request once corrected.
        onError: () => setIdempotencyKey(crypto.randomUUID()),
      },
    );
  };

  return (
    <form noValidate onSubmit={send} className="flex min-w-0 flex-col gap-5">
      <section aria-labelledby={`${fileInputId}-pay-to`} className="flex flex-col gap-2">
        <h3 id={`${fileInputId}-pay-to`} className="font-semibold">
          {t('payments.bank_slip.pay_to_title')}
        </h3>
        <p className="text-sm text-muted">{t('payments.bank_slip.pay_to_text')}</p>
        <dl className="rounded-xl border border-border bg-surface px-3">
          <CopyRow label={t('payments.bank_slip.bank_name')} value={account.bank_name} />
          <CopyRow label={t('payments.bank_slip.account_name')} value={account.account_name} />
          <CopyRow label={t('payments.bank_slip.account_number')} value={account.account_number} />
          {account.branch && <CopyRow label={t('payments.bank_slip.branch')} value={account.branch} />}
          {account.swift && <CopyRow label={t('payments.bank_slip.swift')} value={account.swift} />}
          <CopyRow label={t('payments.bank_slip.amount')} value={formattedAmount} />
          <CopyRow label={t('payments.bank_slip.slip_reference')} value={slipReference} />
        </dl>
        <p className="text-sm text-muted">
          {t('payments.bank_slip.slip_reference_hint', { reference: slipReference })}
        </p>
        {account.instructions && (
          <p className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">{account.instructions}</p>
        )}
      </section>

      <section aria-labelledby={`${fileInputId}-send`} className="flex flex-col gap-3">
        <h3 id={`${fileInputId}-send`} className="font-semibold">
          {t('payments.bank_slip.send_title')}
        </h3>
        {isBusy(upload) ? (
          <UploadInFlight upload={upload} />
        ) : (
          <div className="flex flex-col gap-2">
            <UnfinishedUploads upload={upload} />
            <label
              htmlFor={fileInputId}
              className="btn-secondary cursor-pointer self-start has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand"
            >
              {slipFileId ? t('payments.bank_slip.replace_file') : t('payments.bank_slip.choose_file')}
              <input
                id={fileInputId}
                type="file"
                accept="image/*,application/pdf"
                className="sr-only"
                aria-describedby={`${fileInputId}-file-hint`}
                onChange={choose}
              />
            </label>
            <p id={`${fileInputId}-file-hint`} className="text-sm text-muted">
              {t('payments.bank_slip.file_hint')}
            </p>
            <DownscaleChoice />
            {upload.state.status === 'failed' && upload.state.reason !== 'cancelled' && (
              <FormAlert>{t(`upload.errors.${upload.state.reason}`)}</FormAlert>
            )}
            {slipFileId && (
              <p role="status" className="text-sm text-success">
                {t('payments.bank_slip.file_ready')}
              </p>
            )}
            {problems.file && <p className="text-sm font-medium text-danger">{message(problems.file)}</p>}
          </div>
        )}
        <TextField
          label={t('payments.bank_slip.bank_reference')}
          hint={t('payments.bank_slip.bank_reference_hint')}
          autoComplete="off"
          maxLength={BANK_REFERENCE_MAX}
          value={bankReference}
          error={problems.reference}
          onChange={(event) => {
            setBankReference(event.target.value);
            setProblems((current) => ({ ...current, reference: undefined }));
          }}
        />
      </section>

      {submit.error && <FormAlert>{t(errorMessageKey(submit.error))}</FormAlert>}
      <button type="submit" className="btn-primary self-start" disabled={submit.isPending || isBusy(upload)}>
        {submit.isPending ? t('payments.bank_slip.sending') : t('payments.bank_slip.submit')}
      </button>
    </form>
  );
}
