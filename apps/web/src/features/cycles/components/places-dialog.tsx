import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLACES_MAX, type Cycle, type PlacesRow } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert, useMessage } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { usePlaces, useSetPlaces } from '../api/places.ts';
import { WaitingList } from './waiting-list.tsx';

const pairOf = (row: Pick<PlacesRow, 'program_id' | 'campus_id'>) => `${row.program_id}/${row.campus_id}`;

/**
 * The places each program of a cycle offers at each campus (issue 26), with the offers holding them:
 * accepted, awaiting an answer, drafted. An empty field means no limit.
 */
export function PlacesDialog({
  partnerId,
  cycle,
  canDecide,
  onClose,
}: {
  partnerId: string;
  cycle: Cycle;
  /** Members who make decisions also order each place's waiting list. */
  canDecide: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const number = numberFormat(i18n.language);
  const rows = usePlaces(partnerId, cycle.id);
  const save = useSetPlaces(partnerId, cycle.id);
  const [edited, setEdited] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [listOpen, setListOpen] = useState<string | null>(null);
  const errors = fieldErrors(save.error);
  const valueOf = (row: PlacesRow) => edited[pairOf(row)] ?? (row.places === null ? '' : String(row.places));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!rows.data) return;
    setSaved(false);
    save.mutate(
      {
        places: rows.data.map((row) => {
          const value = valueOf(row).trim();
          return { program_id: row.program_id, campus_id: row.campus_id, places: value === '' ? null : Number(value) };
        }),
      },
      {
        onSuccess: () => {
          setEdited({});
          setSaved(true);
        },
      },
    );
  };

  return (
    <Dialog title={t('places.title', { name: cycle.name })} description={t('places.intro')} onClose={onClose} wide>
      {() => (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          {rows.isPending && <Spinner />}
          {rows.isError && <FormAlert>{t(errorMessageKey(rows.error))}</FormAlert>}
          {rows.data?.length === 0 && <p>{t('places.empty')}</p>}
          {rows.data && rows.data.length > 0 && (
            <ul className="flex flex-col gap-3">
              {rows.data.map((row, index) => {
                const id = `places-${index}`;
                const error = errors[`places.${index}.places`] ?? errors[`places.${index}.campus_id`];
                return (
                  <li key={pairOf(row)} className="flex flex-col gap-2 rounded-xl border border-border p-3">
                    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                      <div className="flex min-w-0 flex-1 flex-col gap-1">
                        <label htmlFor={id} className="font-medium break-words">
                          {t('places.row_label', { program: row.program_name, campus: row.campus_name })}
                        </label>
                        <p id={`${id}-held`} className="text-sm text-muted">
                          {t('places.held', {
                            accepted: number.format(row.accepted),
                            outstanding: number.format(row.outstanding),
                            drafted: number.format(row.drafted),
                          })}
                          {row.left !== null &&
                            ` ${t('places.left', { count: row.left, left: number.format(row.left) })}`}
                        </p>
                        {error && (
                          <p id={`${id}-error`} className="text-sm font-medium text-danger">
                            {message(error)}
                          </p>
                        )}
                      </div>
                      <input
                        id={id}
                        className="field-input sm:w-32"
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={PLACES_MAX}
                        step={1}
                        placeholder={t('places.no_limit')}
                        aria-describedby={`${id}-held${error ? ` ${id}-error` : ''}`}
                        aria-invalid={Boolean(error)}
                        value={valueOf(row)}
                        onChange={(event) => {
                          setSaved(false);
                          setEdited((current) => ({ ...current, [pairOf(row)]: event.target.value }));
                        }}
                      />
                    </div>
                    {canDecide && (
                      <button
                        type="button"
                        className="link self-start text-sm"
                        aria-expanded={listOpen === pairOf(row)}
                        onClick={() => setListOpen(listOpen === pairOf(row) ? null : pairOf(row))}
                      >
                        {t('places.waitlist_open')}
                      </button>
                    )}
                    {listOpen === pairOf(row) && (
                      <WaitingList
                        partnerId={partnerId}
                        cycleId={cycle.id}
                        place={{ program_id: row.program_id, campus_id: row.campus_id }}
                        label={t('places.waitlist_label', { program: row.program_name, campus: row.campus_name })}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {save.isError && Object.keys(errors).length === 0 && <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>}
          <div aria-live="polite">{saved && <FormAlert tone="success">{t('places.saved')}</FormAlert>}</div>
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('places.close')}
            </button>
            {rows.data && rows.data.length > 0 && (
              <button type="submit" className="btn-primary" disabled={save.isPending}>
                {t('places.save')}
              </button>
            )}
          </div>
        </form>
      )}
    </Dialog>
  );
}
