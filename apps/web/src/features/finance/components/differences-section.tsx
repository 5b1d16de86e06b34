import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResolveDiscrepancySchema, fromMinor, type DiscrepancySide, type FinanceDiscrepancy } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { useDiscrepancies, useResolveDiscrepancy } from '../api/discrepancies.ts';
import { NoteForm } from './note-form.tsx';
import { useFinanceFormats } from './finance-formats.ts';

/** Where the finance staff's notification of new differences leads. */
export const DIFFERENCES_ANCHOR = 'differences';

/** One side of a difference: its outcome, amount and transaction id, each only when stated. */
function Side({ side }: { side: DiscrepancySide }) {
  const { t } = useTranslation();
  const { money } = useFinanceFormats();
  const parts = [
    side.status ? t(`finance.statuses.${side.status}`, { defaultValue: side.status }) : null,
    side.amount !== null && side.currency ? money(String(fromMinor(side.amount, side.currency)), side.currency) : null,
    side.transaction_id,
    side.code,
  ].filter((part): part is string => typeof part === 'string' && part !== '');
  if (parts.length === 0) return <span className="text-muted">{t('finance.discrepancies.none')}</span>;
  return (
    <span className="flex flex-col gap-0.5 [overflow-wrap:anywhere]">
      {parts.map((part) => (
        <span key={part}>{part}</span>
      ))}
    </span>
  );
}

/** Asks what was found and done about a difference before it is closed. */
function ResolveDialog({
  discrepancy,
  pending,
  error,
  onResolve,
  onClose,
}: {
  discrepancy: FinanceDiscrepancy;
  pending: boolean;
  error: unknown;
  onResolve: (note: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('finance.discrepancies.dialog.title', { reference: discrepancy.payment.reference })}
      description={t('finance.discrepancies.dialog.text')}
      onClose={onClose}
    >
      {() => (
        <NoteForm
          schema={ResolveDiscrepancySchema}
          label={t('finance.discrepancies.dialog.note')}
          confirm={t('finance.discrepancies.dialog.confirm')}
          saving={t('finance.discrepancies.dialog.saving')}
          cancel={t('finance.discrepancies.dialog.cancel')}
          pending={pending ? 'this' : null}
          error={error}
          onSubmit={onResolve}
          onCancel={onClose}
        />
      )}
    </Dialog>
  );
}

const th = 'px-2 py-2 text-left text-[0.8125rem] font-semibold whitespace-nowrap';
const td = 'px-2 py-2 align-top text-sm';

/**
 * The differences the daily reconciliation found between the institution's settled payments and the
 * providers' own records, open until someone holding manage_finance resolves them with a note. Shown only
 * when there are some (or they could not be read).
 */
export function DifferencesSection({ partnerId, canManage }: { partnerId: string; canManage: boolean }) {
  const { t } = useTranslation();
  const { date } = useFinanceFormats();
  const differences = useDiscrepancies(partnerId);
  const resolve = useResolveDiscrepancy(partnerId);
  const [resolving, setResolving] = useState<FinanceDiscrepancy | null>(null);
  const [done, setDone] = useState<string | null>(null);

  if (differences.isError && !differences.data) {
    return (
      <section id={DIFFERENCES_ANCHOR} aria-labelledby="finance-differences" className="flex flex-col gap-3">
        <h2 id="finance-differences" className="text-lg font-semibold">
          {t('finance.discrepancies.title')}
        </h2>
        <LoadError
          error={differences.error}
          retryLabel={t('finance.retry')}
          onRetry={() => void differences.refetch()}
        />
      </section>
    );
  }
  const items = differences.data?.items ?? [];
  if (items.length === 0 && !done) return null;

  return (
    <section id={DIFFERENCES_ANCHOR} aria-labelledby="finance-differences" className="flex flex-col gap-3">
      <h2 id="finance-differences" className="text-lg font-semibold">
        {t('finance.discrepancies.title')}
      </h2>
      <p className="text-sm text-muted">{t('finance.discrepancies.intro')}</p>
      <div aria-live="polite">{done && <FormAlert tone="success">{done}</FormAlert>}</div>
      {items.length === 0 ? (
        <p className="text-sm">{t('finance.discrepancies.empty')}</p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-border bg-surface">
          <table className="w-full border-collapse">
            <caption className="sr-only">{t('finance.discrepancies.caption')}</caption>
            <thead className="border-b border-border">
              <tr>
                <th scope="col" className={th}>
                  {t('finance.discrepancies.columns.payment')}
                </th>
                <th scope="col" className={th}>
                  {t('finance.discrepancies.columns.kind')}
                </th>
                <th scope="col" className={th}>
                  {t('finance.discrepancies.columns.ours')}
                </th>
                <th scope="col" className={th}>
                  {t('finance.discrepancies.columns.theirs')}
                </th>
                <th scope="col" className={th}>
                  {t('finance.discrepancies.columns.found_at')}
                </th>
                {canManage && (
                  <th scope="col" className={th}>
                    <span className="sr-only">{t('finance.discrepancies.columns.actions')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} className="border-b border-border last:border-b-0">
                  <td className={td}>
                    <span className="block font-medium">{item.payment.applicant_name || t('finance.no_name')}</span>
                    <span className="block text-xs text-muted [overflow-wrap:anywhere]">
                      {t(`finance.providers.${item.payment.provider}`)} · {item.payment.reference}
                    </span>
                  </td>
                  <td className={td}>{t(`finance.discrepancies.kinds.${item.kind}`)}</td>
                  <td className={td}>
                    <Side side={item.ours} />
                  </td>
                  <td className={td}>
                    <Side side={item.theirs} />
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{date(item.found_at)}</td>
                  {canManage && (
                    <td className={td}>
                      <button
                        type="button"
                        className="btn-secondary"
                        aria-label={t('finance.discrepancies.resolve_label', { reference: item.payment.reference })}
                        onClick={() => {
                          resolve.reset();
                          setDone(null);
                          setResolving(item);
                        }}
                      >
                        {t('finance.discrepancies.resolve')}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {resolving && (
        <ResolveDialog
          discrepancy={resolving}
          pending={resolve.isPending}
          error={resolve.error}
          onClose={() => setResolving(null)}
          onResolve={(note) =>
            resolve.mutate(
              { discrepancyId: resolving.id, note },
              {
                onSuccess: () => {
                  setDone(t('finance.discrepancies.dialog.done', { reference: resolving.payment.reference }));
                  setResolving(null);
                },
              },
            )
          }
        />
      )}
    </section>
  );
}
