import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { messageKey, type ApplicationDraft, type PaymentStart } from '@kaminuza/shared';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { FormAlert, useMessage } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { usePaymentOptions } from '../api/payment-options.ts';
import { PaymentChooser } from './payment-chooser.tsx';
import { paths } from '../../../lib/paths.ts';
import { goToCheckout } from '../../../lib/checkout-url.ts';
import { useStartPayment } from '../api/start-payment.ts';
import { useApplicationFormats } from './formats.ts';

/**
 * The application fee: what it costs, where its payment stands, and how to pay it — the currency and the way
 * to pay (a card on the provider's checkout, or a mobile money prompt followed on the /pay page). Paying
 * saves the answers first.
 */
export function PaymentStep({
  draft,
  online,
  beforeLeaving,
  onContinue,
  onRefresh,
}: {
  draft: ApplicationDraft;
  /** Paying needs the server: offline the ways to pay wait, and say why. */
  online: boolean;
  /** Saves the answers first; false when they could not be saved. */
  beforeLeaving: () => Promise<boolean>;
  onContinue: () => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const format = useApplicationFormats();
  const navigate = useNavigate();
  const pay = useStartPayment(draft.id);
  const { fee, payment } = draft;
  const amount = format.money(fee.amount, fee.currency);
  const paid = payment?.status === 'succeeded';

  const pending = payment?.status === 'pending';
  // A waived fee has nothing to pay: the waiver panel beside this step says so and continues.
  const waived = draft.fee_waived === true && !paid;
  const options = usePaymentOptions(draft.id, !paid && !pending && !waived);
  const fieldError = (field: string) => {
    const text = fieldErrors(pay.error)[field];
    return text ? message(text) : undefined;
  };

  const start = async (choice: PaymentStart) => {
    // Never queued for later: a payment starts now, with the applicant watching, or not at all.
    if (!navigator.onLine) return;
    if (!(await beforeLeaving())) return;
    pay.mutate(choice, {
      // A card goes to the provider's page; a mobile money prompt to ours, which follows it live.
      onSuccess: (checkout) => goToCheckout(checkout.checkout_url, navigate),
      onError: (error) => {
        // Paid meanwhile, or another way to pay still pending (another tab or device): the step then shows it,
        // with the refusal's message above.
        if (hasReason(error, 'already_paid') || hasReason(error, 'payment_pending')) onRefresh();
      },
    });
  };

  const reason = payment?.failure_reason ? t(messageKey(payment.failure_reason) ?? '', payment.failure_reason) : '';
  return (
    <div className="flex flex-col gap-4">
      <p className="text-lg">{t('applications.payment.fee', { amount })}</p>
      <div role="status" className="rounded-xl border border-border bg-surface p-4">
        {paid ? (
          <div className="flex flex-col gap-2">
            <p className="font-semibold text-success">
              <span aria-hidden="true">✓ </span>
              {t('applications.payment.paid', {
                amount: format.money(payment.amount, payment.currency),
                date: payment.paid_at ? format.moment(payment.paid_at) : '',
              })}
            </p>
            <a href={paths.paymentReceipt(payment.reference)} download className="self-start underline">
              {t('payments.download_receipt')}
            </a>
          </div>
        ) : payment?.status === 'pending' ? (
          <p>
            {t(payment.provider === 'bank_slip' ? 'applications.payment.slip_pending' : 'applications.payment.pending')}
          </p>
        ) : payment?.status === 'failed' ? (
          <p className="text-danger">{t('applications.payment.failed', { reason })}</p>
        ) : (
          <p>{t('applications.payment.not_paid')}</p>
        )}
      </div>
      {pay.isError && Object.keys(fieldErrors(pay.error)).length === 0 && (
        <FormAlert>{t(errorMessageKey(pay.error))}</FormAlert>
      )}
      {paid ? (
        <button type="button" className="btn-primary self-start" onClick={onContinue}>
          {t('applications.payment.continue')}
        </button>
      ) : waived ? (
        <button type="button" className="btn-primary self-start" onClick={onContinue}>
          {t('applications.payment.continue')}
        </button>
      ) : pending ? (
        <div className="flex flex-wrap gap-2">
          {payment.provider !== 'bank_slip' && (
            <Link to={`${paths.pay}?reference=${encodeURIComponent(payment.reference)}`} className="btn-primary">
              {t('applications.payment.follow')}
            </Link>
          )}
          <button type="button" className="btn-secondary" onClick={onRefresh}>
            {t('applications.payment.check_again')}
          </button>
        </div>
      ) : !online ? (
        <p className="rounded-xl border border-accent bg-surface p-3 text-sm">{t('applications.payment.offline')}</p>
      ) : options.isPending ? (
        <Spinner />
      ) : options.isError ? (
        <LoadError
          error={options.error}
          retryLabel={t('applications.payment.check_again')}
          onRetry={() => void options.refetch()}
        />
      ) : options.data.options.length === 0 ? (
        <p>{t('applications.payment.no_way_to_pay')}</p>
      ) : (
        <PaymentChooser
          applicationId={draft.id}
          options={options.data.options}
          bankAccounts={options.data.bank_accounts}
          onSlipSent={onRefresh}
          suggestedPhone={options.data.suggested_phone}
          busy={pay.isPending}
          fieldError={fieldError}
          money={format.money}
          onPay={(choice) => void start(choice)}
        />
      )}
    </div>
  );
}
