import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FinancePayment, FinanceTotal } from '@kaminuza/shared';
import { useFinanceFormats } from './finance-formats.ts';

const TONES = {
  neutral: 'border-border text-fg',
  muted: 'border-border text-muted',
  good: 'border-green-700 text-green-800 dark:text-green-300',
  warn: 'border-amber-600 text-amber-800 dark:text-amber-300',
  bad: 'border-red-700 text-red-800 dark:text-red-300',
} as const;

function Badge({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONE = { pending: 'warn', succeeded: 'good', failed: 'bad' } as const;
const REFUND_TONE = { needed: 'bad', processing: 'warn', refunded: 'muted' } as const;

/** The payment's status, and its refund when one is owed or was made. */
export function PaymentBadges({ payment }: { payment: FinancePayment }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      <Badge tone={STATUS_TONE[payment.status]}>{t(`finance.statuses.${payment.status}`)}</Badge>
      {payment.refund_status && (
        <Badge tone={REFUND_TONE[payment.refund_status]}>{t(`finance.refund_statuses.${payment.refund_status}`)}</Badge>
      )}
    </span>
  );
}

/** One card per currency: what was collected, what waits, and what is owed back. */
export function FinanceTotals({ totals }: { totals: readonly FinanceTotal[] }) {
  const { t } = useTranslation();
  const { money } = useFinanceFormats();
  if (totals.length === 0) return null;
  return (
    <section aria-labelledby="finance-totals" className="flex flex-col gap-3">
      <h2 id="finance-totals" className="text-lg font-semibold">
        {t('finance.totals.title')}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {totals.map((total) => (
          <li
            key={total.currency}
            aria-label={total.currency}
            className="flex flex-col gap-1 rounded-2xl border border-border bg-surface p-4"
          >
            <span className="text-sm text-muted">
              {t('finance.totals.collected')} · {total.currency}
            </span>
            <span className="text-2xl font-bold tabular-nums">{money(total.collected, total.currency)}</span>
            <span className="text-sm text-muted">
              {t('finance.totals.paid', { count: total.count_succeeded })} ·{' '}
              {t('finance.totals.pending', { count: total.pending_count })}
            </span>
            {total.refunds_needed.count > 0 && (
              <span className="text-sm font-semibold text-red-800 dark:text-red-300">
                {t('finance.totals.refunds')}: {money(total.refunds_needed.amount, total.currency)} (
                {t('finance.totals.refunds_count', { count: total.refunds_needed.count })})
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What a payment says beyond its status: why it failed, the provider's transaction, the refund note. */
function Details({ payment }: { payment: FinancePayment }) {
  const { t } = useTranslation();
  const { date } = useFinanceFormats();
  return (
    <span className="flex flex-col gap-0.5 text-xs text-muted [overflow-wrap:anywhere]">
      {payment.paid_at && <span>{t('finance.paid_at', { date: date(payment.paid_at) })}</span>}
      {payment.provider_transaction_id && (
        <span>{t('finance.transaction', { id: payment.provider_transaction_id })}</span>
      )}
      {payment.failure_reason && <span>{t('finance.failure', { reason: payment.failure_reason })}</span>}
      {payment.refund_status === 'processing' && payment.refund_requested_at && (
        <span>
          {t('finance.refund_processing', {
            provider: t(`finance.providers.${payment.provider}`),
            date: date(payment.refund_requested_at),
          })}
        </span>
      )}
      {payment.refund_status === 'needed' && payment.refund_error && (
        <span className="font-medium text-red-800 dark:text-red-300">
          {t('finance.refund_failed', {
            provider: t(`finance.providers.${payment.provider}`),
            code: payment.refund_error,
          })}
        </span>
      )}
      {payment.refund_status === 'refunded' && payment.refund_method === 'provider' && (
        <span>{t('finance.refunded_through', { provider: t(`finance.providers.${payment.provider}`) })}</span>
      )}
      {payment.refund_note && <span>{t('finance.refund_note', { note: payment.refund_note })}</span>}
      {payment.bank_reference && <span>{t('finance.bank_reference', { reference: payment.bank_reference })}</span>}
    </span>
  );
}

/** "Refund" where the provider can give the money back; "Mark refunded" where only a note can record it. */
function RefundButton({ payment, onRefund }: { payment: FinancePayment; onRefund: (payment: FinancePayment) => void }) {
  const { t } = useTranslation();
  const through = payment.provider_refund_available;
  return (
    <button
      type="button"
      className={through ? 'btn-primary' : 'btn-secondary'}
      aria-label={t(through ? 'finance.refund_label' : 'finance.mark_refunded_label', { reference: payment.reference })}
      onClick={() => onRefund(payment)}
    >
      {t(through ? 'finance.refund' : 'finance.mark_refunded')}
    </button>
  );
}

function VerifyButton({ payment, onVerify }: { payment: FinancePayment; onVerify: (payment: FinancePayment) => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="btn-primary"
      aria-label={t('finance.verify_label', { reference: payment.bank_reference ?? payment.reference })}
      onClick={() => onVerify(payment)}
    >
      {t('finance.verify')}
    </button>
  );
}

/** A payment's actions: verify a bank slip waiting for it, refund one owed back. */
function Actions({
  payment,
  onRefund,
  onVerify,
}: {
  payment: FinancePayment;
  onRefund: ((payment: FinancePayment) => void) | null;
  onVerify: ((payment: FinancePayment) => void) | null;
}) {
  const verify = onVerify !== null && payment.provider === 'bank_slip' && payment.status === 'pending';
  // A refund left with a provider that never answered can still be recorded by hand, once checked.
  const refund = onRefund !== null && (payment.refund_status === 'needed' || payment.refund_status === 'processing');
  if (!verify && !refund) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {verify && <VerifyButton payment={payment} onVerify={onVerify} />}
      {refund && <RefundButton payment={payment} onRefund={onRefund} />}
    </div>
  );
}

const th = 'px-2 py-2 text-left text-[0.8125rem] font-semibold whitespace-nowrap';
const td = 'px-2 py-2 align-top text-[0.8125rem]';

/**
 * The payments: a table from medium screens up, a card per payment below (a phone of 360 px shows every
 * field without scrolling sideways). `onRefund` is given only to members who may record refunds.
 */
export function PaymentsList({
  payments,
  busy,
  onRefund,
  onVerify = null,
}: {
  payments: readonly FinancePayment[];
  busy: boolean;
  onRefund: ((payment: FinancePayment) => void) | null;
  /** Given only to members who may verify bank slips (manage_finance). */
  onVerify?: ((payment: FinancePayment) => void) | null;
}) {
  const { t } = useTranslation();
  const { money, date } = useFinanceFormats();
  const hasActions = onRefund !== null || onVerify !== null;
  const applicant = (payment: FinancePayment) => payment.applicant.name || t('finance.no_name');
  const method = (payment: FinancePayment) => t(`finance.methods.${payment.method ?? 'none'}`);
  const place = (payment: FinancePayment) => [payment.program?.name, payment.cycle?.name].filter(Boolean).join(' · ');

  return (
    <div aria-busy={busy} className={busy ? 'opacity-70 transition-opacity' : undefined}>
      <div className="hidden overflow-x-auto rounded-2xl border border-border bg-surface md:block">
        <table className="w-full border-collapse">
          <caption className="sr-only">{t('finance.caption')}</caption>
          <thead className="border-b border-border">
            <tr>
              <th scope="col" className={th}>
                {t('finance.columns.date')}
              </th>
              <th scope="col" className={th}>
                {t('finance.columns.applicant')}
              </th>
              <th scope="col" className={th}>
                {t('finance.columns.program')}
              </th>
              <th scope="col" className={th}>
                {t('finance.columns.provider')}
              </th>
              <th scope="col" className={th}>
                {t('finance.columns.status')}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t('finance.columns.amount')}
              </th>
              <th scope="col" className={th}>
                {t('finance.columns.reference')}
              </th>
              {hasActions && (
                <th scope="col" className={th}>
                  <span className="sr-only">{t('finance.columns.actions')}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id} className="border-b border-border last:border-b-0">
                <td className={`${td} whitespace-nowrap`}>{date(payment.created_at)}</td>
                <td className={td}>
                  <span className="block font-medium">{applicant(payment)}</span>
                  {payment.applicant.email && (
                    <span className="block text-xs text-muted [overflow-wrap:anywhere]">{payment.applicant.email}</span>
                  )}
                </td>
                <td className={td}>{place(payment)}</td>
                <td className={td}>
                  <span className="block">{t(`finance.providers.${payment.provider}`)}</span>
                  <span className="block text-xs text-muted">{method(payment)}</span>
                </td>
                <td className={td}>
                  <PaymentBadges payment={payment} />
                  <Details payment={payment} />
                </td>
                <td className={`${td} text-right whitespace-nowrap tabular-nums`}>
                  {money(payment.amount, payment.currency)}
                </td>
                <td className={`${td} font-mono text-xs [overflow-wrap:anywhere]`}>{payment.reference}</td>
                {hasActions && (
                  <td className={td}>
                    <Actions payment={payment} onRefund={onRefund} onVerify={onVerify} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label={t('finance.caption')} className="flex flex-col gap-3 md:hidden">
        {payments.map((payment) => (
          <li key={payment.id} className="flex flex-col gap-2 rounded-2xl border border-border bg-surface p-4">
            <div className="flex items-start justify-between gap-3">
              <span className="min-w-0">
                <span className="block font-semibold [overflow-wrap:anywhere]">{applicant(payment)}</span>
                {payment.applicant.email && (
                  <span className="block text-xs text-muted [overflow-wrap:anywhere]">{payment.applicant.email}</span>
                )}
              </span>
              <span className="text-right font-semibold whitespace-nowrap tabular-nums">
                {money(payment.amount, payment.currency)}
              </span>
            </div>
            <PaymentBadges payment={payment} />
            <span className="text-sm">{place(payment)}</span>
            <span className="text-sm text-muted">
              {t(`finance.providers.${payment.provider}`)} · {method(payment)} · {date(payment.created_at)}
            </span>
            <span className="font-mono text-xs text-muted [overflow-wrap:anywhere]">{payment.reference}</span>
            <Details payment={payment} />
            <Actions payment={payment} onRefund={onRefund} onVerify={onVerify} />
          </li>
        ))}
      </ul>
    </div>
  );
}
