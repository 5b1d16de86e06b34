import { useTranslation } from 'react-i18next';
import type { ReviewApplication } from '@kaminuza/shared';
import { useReviewFormats } from './review-parts.tsx';

/** Whether the fee was paid, and the payment's record when there is one. */
export function PaymentPanel({ application }: { application: ReviewApplication }) {
  const { t } = useTranslation();
  const { payment } = application;
  const record = payment.record;
  const { money, dateTime } = useReviewFormats();
  const rows: Array<[string, string]> = [
    [
      t('review.payment.status'),
      payment.paid ? t('review.payment.paid') : payment.waived ? t('waivers.fee_waived') : t('review.payment.unpaid'),
    ],
    [t('review.payment.amount'), money(payment.amount, payment.currency)],
  ];
  if (record) {
    rows.push([t('review.payment.reference'), record.reference]);
    rows.push([t('review.payment.status_record'), t(`review.payment.statuses.${record.status}`)]);
    if (record.method) rows.push([t('review.payment.method'), t(`payments.methods.${record.method}`)]);
    if (record.paid_at) rows.push([t('review.payment.paid_at'), dateTime(record.paid_at)]);
    if (record.failure_reason) rows.push([t('review.payment.failure'), record.failure_reason]);
  }
  return (
    <section
      aria-labelledby="review-payment"
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
    >
      <h2 id="review-payment" className="text-lg font-semibold">
        {t('review.payment.title')}
      </h2>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {!record && (
        <p className="text-sm text-muted">
          {t(application.submitted_by_staff ? 'review.payment.on_behalf' : 'review.payment.no_record')}
        </p>
      )}
    </section>
  );
}
