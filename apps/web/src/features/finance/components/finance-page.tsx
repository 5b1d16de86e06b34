import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission, type FinancePayment } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { useSession } from '../../../lib/session.tsx';
import { financeExportUrl, useFinanceCycles, useFinancePayments } from '../api/get-finance-payments.ts';
import { useProviderRefund, useRefundPayment } from '../api/refund-payment.ts';
import { FinanceFilters } from './finance-filters.tsx';
import {
  financeQueryString,
  isFinanceFiltered,
  readFinanceQuery,
  withFinanceParam,
  withoutFinanceFilters,
  type FinanceFilterKey,
} from './finance-query.ts';
import { FinanceTotals, PaymentsList } from './finance-parts.tsx';
import { DifferencesSection } from './differences-section.tsx';
import { RefundDialog } from './refund-dialog.tsx';
import { VerifySlipDialog } from './verify-slip-dialog.tsx';
import { useVerifySlip } from '../api/verify-slip.ts';

/** Previous and next, and the page's place. */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t('finance.pagination')} className="flex flex-wrap items-center justify-end gap-2">
      <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('finance.previous')}
      </button>
      <span className="text-sm">{t('finance.page_of', { page, pages })}</span>
      <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('finance.next')}
      </button>
    </nav>
  );
}

/**
 * The finance view: the institution's application fee payments, filtered and paged from the address,
 * their totals per currency, the CSV export and, for members holding manage_finance, the refund by hand.
 */
export function FinancePage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const partnerId = user?.partner_id ?? '';
  const canView = holdsPermission(user?.staff_permissions, 'view_payments', 'manage_finance');
  const canManage = holdsPermission(user?.staff_permissions, 'manage_finance');
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readFinanceQuery(params), [params]);
  const queryString = financeQueryString(query);
  const payments = useFinancePayments(partnerId, queryString, canView);
  const cycles = useFinanceCycles(partnerId, canView);
  const refund = useRefundPayment(partnerId);
  const providerRefund = useProviderRefund(partnerId);
  const [refunding, setRefunding] = useState<FinancePayment | null>(null);
  const verify = useVerifySlip(partnerId);
  const [verifying, setVerifying] = useState<FinancePayment | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const change = useCallback(
    (key: FinanceFilterKey | 'page', value: string | undefined) => {
      setDone(null);
      setParams((current) => withFinanceParam(current, key, value));
    },
    [setParams],
  );

  if (!canView) {
    return (
      <div className="mx-auto flex w-full max-w-7xl flex-col gap-6">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('finance.title')}</h1>
        <EmptyState title={t('finance.no_access_title')} text={t('finance.no_access_text')} />
      </div>
    );
  }

  let body;
  if (payments.isError && !payments.data) {
    body = <LoadError error={payments.error} retryLabel={t('finance.retry')} onRetry={() => void payments.refetch()} />;
  } else if (!payments.data) {
    body = <SkeletonTable rows={8} columns={7} />;
  } else if (payments.data.items.length === 0) {
    body = isFinanceFiltered(query) ? (
      <EmptyState
        title={t('finance.no_match_title')}
        text={t('finance.no_match_text')}
        action={
          <button type="button" className="btn-secondary" onClick={() => setParams(withoutFinanceFilters(params))}>
            {t('finance.filters.clear')}
          </button>
        }
      />
    ) : (
      <EmptyState title={t('finance.empty_title')} text={t('finance.empty_text')} />
    );
  } else {
    const pages = Math.max(1, Math.ceil(payments.data.total / payments.data.limit));
    body = (
      <>
        {payments.isError && (
          <LoadError error={payments.error} retryLabel={t('finance.retry')} onRetry={() => void payments.refetch()} />
        )}
        <FinanceTotals totals={payments.data.totals} />
        <PaymentsList
          payments={payments.data.items}
          busy={payments.isFetching}
          onRefund={
            canManage
              ? (payment) => {
                  refund.reset();
                  providerRefund.reset();
                  setDone(null);
                  setRefunding(payment);
                }
              : null
          }
          onVerify={
            canManage
              ? (payment) => {
                  verify.reset();
                  setDone(null);
                  setVerifying(payment);
                }
              : null
          }
        />
        <Pager page={query.page} pages={pages} onPage={(page) => change('page', String(page))} />
      </>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-7xl min-w-0 flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('finance.title')}</h1>
          <p className="text-muted">{t('finance.intro')}</p>
        </div>
        {partnerId && (
          <a
            className="btn-secondary"
            href={financeExportUrl(partnerId, financeQueryString(query, { forExport: true }))}
            download
          >
            {t('finance.export')}
          </a>
        )}
      </div>

      {partnerId && <DifferencesSection partnerId={partnerId} canManage={canManage} />}

      <FinanceFilters
        query={query}
        cycles={cycles.data}
        onChange={change}
        onClear={() => setParams(withoutFinanceFilters(params))}
      />

      <div aria-live="polite" className="flex flex-col gap-2">
        {payments.data && <p className="text-sm text-muted">{t('finance.results', { count: payments.data.total })}</p>}
        {done && <FormAlert tone="success">{done}</FormAlert>}
      </div>

      {body}

      {refunding && (
        <RefundDialog
          payment={refunding}
          pending={refund.isPending ? 'note' : providerRefund.isPending ? 'provider' : null}
          error={refund.error ?? providerRefund.error}
          onClose={() => setRefunding(null)}
          onProviderRefund={() => {
            refund.reset();
            providerRefund.mutate(refunding.id, {
              onSuccess: () => {
                setDone(t('finance.refund_dialog.sent', { reference: refunding.reference }));
                setRefunding(null);
              },
            });
          }}
          onRefund={(note) => {
            providerRefund.reset();
            refund.mutate(
              { paymentId: refunding.id, note },
              {
                onSuccess: () => {
                  setDone(t('finance.refund_dialog.done', { reference: refunding.reference }));
                  setRefunding(null);
                },
              },
            );
          }}
        />
      )}
      {verifying && (
        <VerifySlipDialog
          partnerId={partnerId}
          payment={verifying}
          pending={verify.isPending}
          error={verify.error}
          onClose={() => setVerifying(null)}
          onDecide={(decision) =>
            verify.mutate(
              { paymentId: verifying.id, ...decision },
              {
                onSuccess: () => {
                  const reference = verifying.bank_reference ?? verifying.reference;
                  setDone(
                    t(
                      decision.decision === 'approve'
                        ? 'finance.verify_dialog.approved'
                        : 'finance.verify_dialog.rejected',
                      {
                        reference,
                      },
                    ),
                  );
                  setVerifying(null);
                },
              },
            )
          }
        />
      )}
    </div>
  );
}
