import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messageKey, type ApplicationDraft } from '@kaminuza/shared';
import { hasReason } from '../../../lib/api-client.ts';
import { goToCheckout } from '../../../lib/checkout-url.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { useStartPayment } from '../api/start-payment.ts';
import { useApplicationFormats } from './formats.ts';

/**
 * The application fee: what it costs, where its payment stands, and "Pay" — which saves the answers and
 * sends the browser to the provider's checkout (the sandbox's /pay page on this site).
 */
export function PaymentStep({
  draft,
  beforeLeaving,
  onContinue,
  onRefresh,
}: {
  draft: ApplicationDraft;
  /** Saves the answers first; false when they could not be saved. */
  beforeLeaving: () => Promise<boolean>;
  onContinue: () => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const navigate = useNavigate();
  const pay = useStartPayment(draft.id);
  const { fee, payment } = draft;
  const amount = format.money(fee.amount, fee.currency);
  const paid = payment?.status === 'succeeded';

  const start = async () => {
    if (!(await beforeLeaving())) return;
    pay.mutate(undefined, {
      onSuccess: (checkout) => goToCheckout(checkout.checkout_url, navigate),
      onError: (error) => {
        if (hasReason(error, 'already_paid')) onRefresh();
      },
    });
  };

  const reason = payment?.failure_reason ? t(messageKey(payment.failure_reason) ?? '', payment.failure_reason) : '';
  return (
    <div className="flex flex-col gap-4">
      <p className="text-lg">{t('applications.payment.fee', { amount })}</p>
      <div role="status" className="rounded-xl border border-border bg-surface p-4">
        {paid ? (
          <p className="font-semibold text-success">
            <span aria-hidden="true">✓ </span>
            {t('applications.payment.paid', {
              amount: format.money(payment.amount, payment.currency),
              date: payment.paid_at ? format.moment(payment.paid_at) : '',
            })}
          </p>
        ) : payment?.status === 'pending' ? (
          <p>{t('applications.payment.pending')}</p>
        ) : payment?.status === 'failed' ? (
          <p className="text-danger">{t('applications.payment.failed', { reason })}</p>
        ) : (
          <p>{t('applications.payment.not_paid')}</p>
        )}
      </div>
      {pay.isError && <FormAlert>{t(errorMessageKey(pay.error))}</FormAlert>}
      <div className="flex flex-wrap gap-2">
        {paid ? (
          <button type="button" className="btn-primary" onClick={onContinue}>
            {t('applications.payment.continue')}
          </button>
        ) : (
          <button type="button" className="btn-primary" disabled={pay.isPending} onClick={() => void start()}>
            {t('applications.payment.pay', { amount })}
          </button>
        )}
        {payment?.status === 'pending' && (
          <button type="button" className="btn-secondary" onClick={onRefresh}>
            {t('applications.payment.check_again')}
          </button>
        )}
      </div>
    </div>
  );
}
