import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFUND_NOTE_MAX, RefundByHandSchema, type FinancePayment } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';

/** Asks how a payment owed back was refunded: the note is kept with the payment and in the audit log. */
export function RefundDialog({
  payment,
  pending,
  error,
  onRefund,
  onClose,
}: {
  payment: FinancePayment;
  pending: boolean;
  error: unknown;
  onRefund: (note: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  return (
    <Dialog
      title={t('finance.refund_dialog.title', { reference: payment.reference })}
      description={t('finance.refund_dialog.text')}
      onClose={onClose}
    >
      {() => (
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
            autoFocus
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
            <button type="submit" className="btn-primary" disabled={pending}>
              {pending ? t('finance.refund_dialog.saving') : t('finance.refund_dialog.confirm')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
