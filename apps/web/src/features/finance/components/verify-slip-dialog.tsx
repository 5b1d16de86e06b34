import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SLIP_REASON_MAX, SlipVerificationSchema, type FinancePayment } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { slipUrl, useSlipFile } from '../api/verify-slip.ts';
import { useFinanceFormats } from './finance-formats.ts';

/** The slip as sent: a photo shown here, a PDF opened in its own tab (both also downloadable). */
function SlipPreview({ partnerId, payment }: { partnerId: string; payment: FinancePayment }) {
  const { t } = useTranslation();
  const file = useSlipFile(partnerId, payment.id);
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  if (file.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted">
        <Spinner /> {t('finance.verify_dialog.slip_loading')}
      </p>
    );
  }
  if (!url || !file.data) return <FormAlert>{t('finance.verify_dialog.slip_failed')}</FormAlert>;
  const image = file.data.type.startsWith('image/') && file.data.type !== 'image/heic';
  return (
    <div className="flex flex-col gap-2">
      {image && (
        <img
          src={url}
          alt={t('finance.verify_dialog.slip_alt', { reference: payment.bank_reference ?? payment.reference })}
          className="max-h-96 w-full rounded-lg border border-border bg-surface-muted object-contain"
        />
      )}
      <a className="btn-secondary self-start" href={url} target="_blank" rel="noreferrer">
        {t('finance.verify_dialog.open_slip')}
      </a>
      <a className="text-sm underline" href={slipUrl(partnerId, payment.id)} download>
        {t('finance.verify_dialog.download_slip')}
      </a>
    </div>
  );
}

/**
 * A bank slip waiting for verification: the slip, the amount and the bank's reference to check against
 * the institution's statement; approving marks it paid (and sends the receipt), rejecting asks for the
 * reason the applicant will read.
 */
export function VerifySlipDialog({
  partnerId,
  payment,
  pending,
  error,
  onDecide,
  onClose,
}: {
  partnerId: string;
  payment: FinancePayment;
  pending: boolean;
  error: unknown;
  onDecide: (decision: { decision: 'approve' } | { decision: 'reject'; reason: string }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { money, date } = useFinanceFormats();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  return (
    <Dialog
      title={t('finance.verify_dialog.title', { reference: payment.bank_reference ?? payment.reference })}
      description={t('finance.verify_dialog.text')}
      onClose={onClose}
    >
      {() => (
        <div className="flex flex-col gap-4">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
            <dt className="text-muted">{t('finance.columns.applicant')}</dt>
            <dd className="font-medium [overflow-wrap:anywhere]">{payment.applicant.name || t('finance.no_name')}</dd>
            <dt className="text-muted">{t('finance.columns.amount')}</dt>
            <dd className="font-medium tabular-nums">{money(payment.amount, payment.currency)}</dd>
            <dt className="text-muted">{t('finance.verify_dialog.bank_reference')}</dt>
            <dd className="font-mono [overflow-wrap:anywhere]">{payment.bank_reference}</dd>
            <dt className="text-muted">{t('finance.verify_dialog.sent_at')}</dt>
            <dd>{date(payment.created_at)}</dd>
          </dl>
          <SlipPreview partnerId={partnerId} payment={payment} />
          {error !== null && error !== undefined && <FormAlert>{t(errorMessageKey(error))}</FormAlert>}
          {rejecting ? (
            <form
              noValidate
              className="flex flex-col gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                const checked = SlipVerificationSchema.safeParse({ decision: 'reject', reason });
                if (!checked.success) {
                  setProblem(checked.error.issues[0]?.message);
                  return;
                }
                onDecide({ decision: 'reject', reason: checked.data.reason ?? '' });
              }}
            >
              <TextAreaField
                label={t('finance.verify_dialog.reason')}
                hint={t('finance.verify_dialog.reason_hint')}
                rows={3}
                maxLength={SLIP_REASON_MAX}
                autoFocus
                value={reason}
                error={problem}
                onChange={(event) => {
                  setReason(event.target.value);
                  setProblem(undefined);
                }}
              />
              <div className="flex flex-wrap justify-end gap-2">
                <button type="button" className="btn-secondary" onClick={() => setRejecting(false)}>
                  {t('finance.verify_dialog.back')}
                </button>
                <button type="submit" className="btn-primary" disabled={pending}>
                  {pending ? t('finance.verify_dialog.saving') : t('finance.verify_dialog.confirm_reject')}
                </button>
              </div>
            </form>
          ) : (
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={onClose}>
                {t('finance.verify_dialog.cancel')}
              </button>
              <button type="button" className="btn-secondary text-danger" onClick={() => setRejecting(true)}>
                {t('finance.verify_dialog.reject')}
              </button>
              <button
                type="button"
                className="btn-primary"
                disabled={pending}
                onClick={() => onDecide({ decision: 'approve' })}
              >
                {pending ? t('finance.verify_dialog.saving') : t('finance.verify_dialog.approve')}
              </button>
            </div>
          )}
        </div>
      )}
    </Dialog>
  );
}
