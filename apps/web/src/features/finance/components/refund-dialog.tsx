import { useTranslation } from 'react-i18next';
import { RefundByHandSchema, type FinancePayment } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { useFinanceFormats } from './finance-formats.ts';
import { NoteForm } from './note-form.tsx';

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
          <NoteForm
            schema={RefundByHandSchema}
            label={t('finance.refund_dialog.note')}
            confirm={t('finance.refund_dialog.confirm')}
            saving={t('finance.refund_dialog.saving')}
            cancel={t('finance.refund_dialog.cancel')}
            pending={pending === null ? null : pending === 'note' ? 'this' : 'other'}
            error={error}
            autoFocus={!through}
            secondary={through}
            onSubmit={onRefund}
            onCancel={onClose}
          />
        </div>
      )}
    </Dialog>
  );
}
