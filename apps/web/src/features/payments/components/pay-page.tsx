import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  MOBILE_MONEY_PROVIDERS,
  PaymentReferenceParamsSchema,
  type MobileMoneyProviderName,
  type PaymentCheckout,
} from '@kaminuza/shared';
import { FormAlert, useMessage } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useRealtime } from '../../../lib/realtime.ts';
import { paths } from '../../../lib/paths.ts';
import { useCheckout } from '../api/payment-checkout.ts';
import { useCompleteSandboxPayment } from '../api/complete-sandbox-payment.ts';
import { useStartCheckout } from '../api/start-checkout.ts';
import { goToCheckout } from '../../../lib/checkout-url.ts';
import { SandboxPaymentForm } from './sandbox-payment-form.tsx';
import { numberFormat } from '../../../lib/intl.ts';

/** The fee in the reader's language, e.g. "US$100.00" or "100,00 $US". */
function useMoney() {
  const { i18n } = useTranslation();
  return (amount: number, currency: string) => {
    try {
      return numberFormat(i18n.language, { style: 'currency', currency }).format(amount);
    } catch {
      return `${amount.toFixed(2)} ${currency}`;
    }
  };
}

function PayFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t('payments.page_title')}</h1>
      <div className="mt-6 flex flex-col gap-5 rounded-2xl border border-border bg-surface p-5 sm:p-6">{children}</div>
    </section>
  );
}

/**
 * /pay?reference=… — the sandbox provider's hosted checkout. The payer sees what they pay for, pays by
 * card or mobile money with the test numbers, and the page waits for the provider's confirmation
 * (the api learns the outcome only through the provider's signed callback).
 */
export function PayPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { session } = useSession();
  const raw = params.get('reference') ?? '';
  const reference = PaymentReferenceParamsSchema.safeParse({ reference: raw }).success ? raw : null;
  if (reference === null) return <NotFound />;
  if (session.status === 'loading') {
    return (
      <PayFrame>
        <Spinner />
      </PayFrame>
    );
  }
  if (session.status === 'signed-out') {
    return (
      <PayFrame>
        <h2 className="text-xl font-semibold">{t('payments.sign_in_title')}</h2>
        <p className="text-muted">{t('payments.sign_in_text')}</p>
        <Link
          to={paths.login}
          state={{ from: `${paths.pay}?reference=${encodeURIComponent(reference)}` }}
          className="btn-primary self-start"
        >
          {t('payments.sign_in')}
        </Link>
      </PayFrame>
    );
  }
  // A new attempt after a declined one is another reference: its page starts afresh.
  return <CheckoutLoader key={reference} reference={reference} />;
}

function CheckoutLoader({ reference }: { reference: string }) {
  const { t } = useTranslation();
  // Settlements reach this tab live; the page also asks again while a payment is pending.
  useRealtime();
  const [confirming, setConfirming] = useState(false);
  const checkout = useCheckout(reference, { confirming });
  if (checkout.isPending) {
    return (
      <PayFrame>
        <Spinner />
      </PayFrame>
    );
  }
  if (checkout.isError) {
    if (checkout.error instanceof ApiError && checkout.error.status === 'NOT_FOUND') return <NotFound />;
    return (
      <PayFrame>
        <LoadError
          error={checkout.error}
          retryLabel={t('payments.try_again')}
          onRetry={() => void checkout.refetch()}
        />
      </PayFrame>
    );
  }
  return (
    <PayFrame>
      {isMobileMoneyProvider(checkout.data.provider) ? (
        <MobileMoneyCheckout checkout={checkout.data} />
      ) : (
        <Checkout checkout={checkout.data} confirming={confirming} onPaid={() => setConfirming(true)} />
      )}
    </PayFrame>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <PayFrame>
      <h2 className="text-xl font-semibold">{t('payments.not_found_title')}</h2>
      <p className="text-muted">{t('payments.not_found_text')}</p>
      <Link to={paths.student.applications} className="btn-secondary self-start">
        {t('payments.back_to_applications')}
      </Link>
    </PayFrame>
  );
}

function Checkout({
  checkout,
  confirming,
  onPaid,
}: {
  checkout: PaymentCheckout;
  confirming: boolean;
  onPaid: () => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const amount = money(checkout.amount, checkout.currency);
  const pay = useCompleteSandboxPayment(checkout.reference);

  return (
    <>
      <CheckoutFacts checkout={checkout} amount={amount} />

      {checkout.status === 'succeeded' && <Succeeded checkout={checkout} amount={amount} />}
      {checkout.status === 'failed' && <Failed checkout={checkout} />}
      {checkout.status === 'pending' &&
        // A hosted provider's page (Flutterwave) took the card: this page waits for its verdict.
        ((confirming && !pay.isPending) || checkout.provider !== 'sandbox' ? (
          <p role="status" className="flex items-center gap-3 text-muted">
            <span
              aria-hidden="true"
              className="size-5 animate-spin rounded-full border-3 border-border border-t-brand"
            />
            {t('payments.confirming')}
          </p>
        ) : (
          <>
            <SandboxNotice />
            <SandboxPaymentForm
              methods={checkout.methods}
              payLabel={t('payments.pay', { amount })}
              paying={pay.isPending}
              error={pay.error}
              onPay={(input) => pay.mutate(input, { onSuccess: onPaid })}
            />
          </>
        ))}
    </>
  );
}

const isMobileMoneyProvider = (provider: PaymentCheckout['provider']): provider is MobileMoneyProviderName =>
  (MOBILE_MONEY_PROVIDERS as readonly string[]).includes(provider);

/** What the payer pays for, and how much. */
function CheckoutFacts({ checkout, amount }: { checkout: PaymentCheckout; amount: string }) {
  const { t } = useTranslation();
  return (
    <dl className="grid gap-3 sm:grid-cols-[auto_1fr] sm:gap-x-6">
      <dt className="text-sm text-muted">{t('payments.institution')}</dt>
      <dd className="font-medium break-words">{checkout.partner_name}</dd>
      <dt className="text-sm text-muted">{t('payments.program')}</dt>
      <dd className="font-medium break-words">{checkout.program_name}</dd>
      <dt className="text-sm text-muted">{t('payments.amount')}</dt>
      <dd className="text-2xl font-bold">{amount}</dd>
    </dl>
  );
}

/**
 * A mobile money payment (issue 22): the prompt is on the payer's phone. While it is pending the page says
 * so and follows it (realtime, and asking again every few seconds); the payer may close the page — the
 * application shows the outcome too. A failure says why and what to do, and offers another attempt.
 */
function MobileMoneyCheckout({ checkout }: { checkout: PaymentCheckout }) {
  const { t } = useTranslation();
  const money = useMoney();
  const message = useMessage();
  const amount = money(checkout.amount, checkout.currency);
  const network = t(`payments.channels.${checkout.provider}`);
  const pending = checkout.status === 'pending';
  return (
    <>
      <CheckoutFacts checkout={checkout} amount={amount} />
      {checkout.status === 'succeeded' && <Succeeded checkout={checkout} amount={amount} />}
      {pending && (
        <div role="status" aria-live="polite" className="flex flex-col gap-3">
          <h2 className="flex items-center gap-3 text-xl font-semibold">
            <span
              aria-hidden="true"
              className="size-5 shrink-0 animate-spin rounded-full border-3 border-border border-t-brand motion-reduce:animate-none"
            />
            {t('payments.mobile.waiting_title')}
          </h2>
          <p>
            {t('payments.mobile.waiting_text', {
              network,
              phone: checkout.payer_phone ?? '',
              amount,
            })}
          </p>
          <ol className="list-decimal space-y-1 ps-5 text-sm text-muted">
            <li>{t('payments.mobile.step_prompt')}</li>
            <li>{t('payments.mobile.step_pin')}</li>
            <li>{t('payments.mobile.step_wait')}</li>
          </ol>
          <p className="text-sm text-muted">{t('payments.mobile.can_close')}</p>
        </div>
      )}
      {checkout.status === 'failed' && (
        <div className="flex flex-col gap-3">
          <h2 className="text-xl font-semibold">{t('payments.failed_title')}</h2>
          <FormAlert>{message(checkout.failure_reason ?? undefined) ?? t('payments.failed_text')}</FormAlert>
          <Link to={checkout.return_path} className="btn-primary self-start">
            {t('payments.mobile.try_again')}
          </Link>
        </div>
      )}
    </>
  );
}

function SandboxNotice() {
  const { t } = useTranslation();
  return (
    <aside aria-labelledby="sandbox-notice" className="rounded-lg border border-border bg-surface-muted p-4 text-sm">
      <h2 id="sandbox-notice" className="font-semibold">
        {t('payments.sandbox_title')}
      </h2>
      <ul className="mt-2 list-disc space-y-1 ps-5">
        <li>{t('payments.sandbox_card', { success: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' })}</li>
        <li>{t('payments.sandbox_mobile')}</li>
      </ul>
    </aside>
  );
}

function Succeeded({ checkout, amount }: { checkout: PaymentCheckout; amount: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex flex-col gap-3">
      <h2 className="text-xl font-semibold">{t('payments.succeeded_title')}</h2>
      <p>{t('payments.succeeded_text', { amount, institution: checkout.partner_name })}</p>
      <a href={paths.paymentReceipt(checkout.reference)} download className="self-start underline">
        {t('payments.download_receipt')}
      </a>
      <Link to={checkout.return_path} className="btn-primary self-start">
        {t('payments.back_to_application')}
      </Link>
    </div>
  );
}

function Failed({ checkout }: { checkout: PaymentCheckout }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const start = useStartCheckout();
  const tryAgain = () =>
    start.mutate(
      { applicationId: checkout.application_id, idempotencyKey: `retry-${crypto.randomUUID()}` },
      { onSuccess: ({ checkout_url }) => goToCheckout(checkout_url, navigate, true) },
    );
  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-xl font-semibold">{t('payments.failed_title')}</h2>
      <FormAlert>{message(checkout.failure_reason ?? undefined) ?? t('payments.failed_text')}</FormAlert>
      {start.isError && <FormAlert>{t(errorMessageKey(start.error))}</FormAlert>}
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn-primary" onClick={tryAgain} disabled={start.isPending}>
          {t('payments.try_again')}
        </button>
        <Link to={checkout.return_path} className="btn-secondary">
          {t('payments.back_to_application')}
        </Link>
      </div>
    </div>
  );
}
