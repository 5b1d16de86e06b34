import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WaitingListEntry, WaitingListQuery } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { paths } from '../../../lib/paths.ts';
import { useOrderWaitingList, useWaitingList } from '../api/places.ts';

/**
 * A place's waiting list (issue 26), first to be offered first: moved up and down, then saved. The
 * applicant a freed place proposed is marked, with a link to their application to offer it.
 */
export function WaitingList({
  partnerId,
  cycleId,
  place,
  label,
}: {
  partnerId: string;
  cycleId: string;
  place: WaitingListQuery;
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const number = numberFormat(i18n.language, { maximumFractionDigits: 2 });
  const list = useWaitingList(partnerId, cycleId, place);
  const save = useOrderWaitingList(partnerId, cycleId, place);
  const [order, setOrder] = useState<WaitingListEntry[] | null>(null);
  const [saved, setSaved] = useState(false);
  const rows = order ?? list.data ?? [];
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [entry] = next.splice(index, 1);
    next.splice(index + by, 0, entry!);
    setOrder(next);
    setSaved(false);
  };

  if (list.isPending) return <Spinner />;
  if (list.isError) return <FormAlert>{t(errorMessageKey(list.error))}</FormAlert>;
  if (rows.length === 0) return <p className="text-sm text-muted">{t('places.waitlist_empty')}</p>;
  return (
    <div className="flex flex-col gap-2">
      <ol aria-label={label} className="flex flex-col gap-2">
        {rows.map((entry, index) => (
          <li
            key={entry.submission_id}
            className="flex flex-wrap items-center gap-2 rounded-lg border border-border p-2"
          >
            <span className="w-6 text-right font-semibold">{number.format(index + 1)}</span>
            <div className="flex min-w-0 flex-1 flex-col">
              <Link
                className="link break-words"
                to={`${paths.partner.applications}/${entry.submission_id}?tab=decision`}
              >
                {entry.applicant_name}
              </Link>
              <span className="text-sm text-muted">
                {entry.reference}
                {entry.score_average !== null &&
                  ` · ${t('places.score', { score: number.format(entry.score_average) })}`}
              </span>
              {entry.proposed_at && <span className="text-sm font-medium">{t('places.proposed')}</span>}
            </div>
            <button
              type="button"
              className="btn-secondary"
              disabled={index === 0 || save.isPending}
              aria-label={t('places.move_up', { name: entry.applicant_name })}
              onClick={() => move(index, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={index === rows.length - 1 || save.isPending}
              aria-label={t('places.move_down', { name: entry.applicant_name })}
              onClick={() => move(index, 1)}
            >
              ↓
            </button>
          </li>
        ))}
      </ol>
      {save.isError && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
      <div aria-live="polite">{saved && <FormAlert tone="success">{t('places.waitlist_saved')}</FormAlert>}</div>
      {order && (
        <button
          type="button"
          className="btn-primary self-start"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              rows.map((entry) => entry.submission_id),
              {
                onSuccess: () => {
                  setOrder(null);
                  setSaved(true);
                },
              },
            )
          }
        >
          {t('places.waitlist_save')}
        </button>
      )}
    </div>
  );
}
