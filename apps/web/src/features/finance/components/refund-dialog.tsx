import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFUND_NOTE_MAX, RefundByHandSchema, type FinancePayment } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useFinanceFormats } from './finance-formats.ts';

/**
 * Gives back a payment owed back. Where its provider has a refund API, the first choice is to refund
 * through it (the money goes back to the payer's account; the row shows the refund under way until the
 * provider answers). Otherwise — or when it was given back another way — staff record how, in a note kept
 * with the payment and in the audit log.
 */
export function RefundDialog({
  payment,
  pending,
  error,
  onRefund,
  onProviderRefund,
  onClose,
}: {
  payment: FinancePayment;
  /** Which request is under way, if any. */
  pending: 'note' | 'provider' | null;
  error: unknown;
  onRefund: (note: string) => void;
  onProviderRefund: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { money } = useFinanceFormats();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const provider = t(`finance.providers.${payment.provider}`);
  const amount = money(payment.amount, payment.currency);
  const through = payment.provider_refund_available;
  return (
    <Dialog
      title={t('finance.refund_dialog.title', { reference: payment.reference })}
      description={
        through
          ? t('finance.refund_dialog.through_text', { provider, amount })
          : payment.refund_status === 'processing'
            ? t('finance.refund_dialog.processing_text', { provider })
            : t('finance.refund_dialog.text')
      }
      onClose={onClose}
    >
      {() => (
        <div className="flex flex-col gap-4">
          {through && (
            <div className="flex flex-col gap-3 border-b border-border pb-4">
              <button
                type="button"
                className="btn-primary self-start"
                disabled={pending !== null}
                onClick={onProviderRefund}
              >
                {pending === 'provider'
                  ? t('finance.refund_dialog.sending')
                  : t('finance.refund_dialog.through', { provider, amount })}
              </button>
              <p className="text-sm text-muted">{t('finance.refund_dialog.other_way')}</p>
            </div>
          )}
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              const checked = RefundByHandSchema.safeParse({ note });
              if (!checked.success) {
                setProblem(checked.error.issues[0]?.message);
                return;
              }
              onRefund(checked.data.note);
            }}
          >
            <TextAreaField
              label={t('finance.refund_dialog.note')}
              rows={4}
              maxLength={REFUND_NOTE_MAX}
              autoFocus={!through}
              value={note}
              error={problem}
              onChange={(event) => {
                setNote(event.target.value);
                setProblem(undefined);
              }}
            />
            {error !== null && error !== undefined && <FormAlert>{t(errorMessageKey(error))}</FormAlert>}
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={onClose}>
                {t('finance.refund_dialog.cancel')}
              </button>
              <button type="submit" className={through ? 'btn-secondary' : 'btn-primary'} disabled={pending !== null}>
                {pending === 'note' ? t('finance.refund_dialog.saving') : t('finance.refund_dialog.confirm')}
              </button>
            </div>
          </form>
        </div>
      )}
    </Dialog>
  );
}
