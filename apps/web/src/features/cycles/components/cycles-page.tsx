import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holdsPermission, type Cycle } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useCycles } from '../api/get-cycles.ts';
import { useDeleteCycle } from '../api/delete-cycle.ts';
import { usePrograms } from '../api/get-programs.ts';
import { useSetCurrentCycle } from '../api/set-current-cycle.ts';
import { CycleDialog } from './cycle-dialog.tsx';
import { PlacesDialog } from './places-dialog.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

const STATUS_TONE: Record<Cycle['status'], string> = {
  draft: 'border-border text-fg',
  open: 'border-green-700 text-green-800 dark:text-green-300',
  closed: 'border-border text-muted',
};

function Badge({ tone, children }: { tone: string; children: React.ReactNode }) {
  return (
    <span className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone}`}>
      {children}
    </span>
  );
}

/** A calendar day (yyyy-mm-dd) as the reader writes dates. */
function useDayFormat() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  return useMemo(() => {
    const format = dateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    return (day: string) => format.format(new Date(`${day}T00:00:00Z`));
  }, [language]);
}

/** The institution's admission cycles: when applications open and close, and for which programs. */
export function CyclesPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const partnerId = user?.partner_id ?? '';
  const canEdit = holdsPermission(user?.staff_permissions, 'manage_programs');
  const canMakeCurrent = holdsPermission(user?.staff_permissions, 'manage_programs', 'manage_settings');
  const cycles = useCycles(partnerId);
  const programs = usePrograms(partnerId);
  const remove = useDeleteCycle(partnerId);
  const makeCurrent = useSetCurrentCycle(partnerId);
  const [editing, setEditing] = useState<Cycle | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Cycle | null>(null);
  const [placesOf, setPlacesOf] = useState<Cycle | null>(null);
  const day = useDayFormat();

  const addButton = canEdit && (
    <button type="button" className="btn-primary" disabled={!programs.data} onClick={() => setEditing('new')}>
      {t('cycles.add')}
    </button>
  );

  return (
    <div className="mx-auto flex w-full max-w-5xl min-w-0 flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('cycles.title')}</h1>
          <p className="text-muted">{t('cycles.intro')}</p>
        </div>
        {cycles.data && cycles.data.length > 0 && addButton}
      </div>

      {makeCurrent.isError && (
        <FormAlert>
          {t('cycles.current_failed')} {t(errorMessageKey(makeCurrent.error))}
        </FormAlert>
      )}
      {makeCurrent.isSuccess && <FormAlert tone="success">{t('cycles.current_changed')}</FormAlert>}

      {programs.isError && (
        <LoadError error={programs.error} retryLabel={t('cycles.retry')} onRetry={() => void programs.refetch()} />
      )}
      {cycles.isPending && <SkeletonTable rows={3} columns={4} />}
      {cycles.isError && (
        <LoadError error={cycles.error} retryLabel={t('cycles.retry')} onRetry={() => void cycles.refetch()} />
      )}
      {cycles.data?.length === 0 && (
        <EmptyState
          title={t('cycles.empty_title')}
          text={canEdit ? t('cycles.empty_text') : t('cycles.empty_text_read_only')}
          action={addButton}
        />
      )}
      {cycles.data && cycles.data.length > 0 && (
        <ul aria-label={t('cycles.list_label')} className="flex flex-col gap-3">
          {cycles.data.map((cycle) => (
            <li key={cycle.id} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
              <div className="flex flex-col gap-2">
                <h2 className="text-lg font-semibold [overflow-wrap:anywhere]">{cycle.name}</h2>
                <div className="flex flex-wrap gap-2">
                  <Badge tone={STATUS_TONE[cycle.status]}>{t(`cycles.statuses.${cycle.status}`)}</Badge>
                  {cycle.current && <Badge tone="border-brand text-brand">{t('cycles.current')}</Badge>}
                  <Badge
                    tone={
                      cycle.accepting_applications
                        ? 'border-green-700 text-green-800 dark:text-green-300'
                        : 'border-border text-muted'
                    }
                  >
                    {cycle.accepting_applications ? t('cycles.accepting') : t('cycles.not_accepting')}
                  </Badge>
                </div>
              </div>
              <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4">
                {(
                  [
                    [t('cycles.form.opens_on'), day(cycle.opens_on)],
                    [t('cycles.form.closes_on'), day(cycle.closes_on)],
                    [
                      t('cycles.form.decision_release_on'),
                      cycle.decision_release_on ? day(cycle.decision_release_on) : t('cycles.not_set'),
                    ],
                    [t('cycles.programs_label'), t('cycles.program_count', { count: cycle.program_ids.length })],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="min-w-0">
                    <dt className="text-muted">{label}</dt>
                    <dd className="font-medium">{value}</dd>
                  </div>
                ))}
              </dl>
              {(canEdit || (canMakeCurrent && !cycle.current)) && (
                <div className="flex flex-wrap gap-2">
                  {canMakeCurrent && !cycle.current && (
                    <button
                      type="button"
                      className="btn-secondary"
                      disabled={makeCurrent.isPending}
                      aria-label={t('cycles.make_current_named', { name: cycle.name })}
                      onClick={() => makeCurrent.mutate(cycle.id)}
                    >
                      {t('cycles.make_current')}
                    </button>
                  )}
                  {canEdit && (
                    <>
                      <button
                        type="button"
                        className="btn-secondary"
                        disabled={!programs.data}
                        aria-label={t('cycles.edit_named', { name: cycle.name })}
                        onClick={() => setEditing(cycle)}
                      >
                        {t('cycles.edit')}
                      </button>
                      <button
                        type="button"
                        className="btn-secondary"
                        aria-label={t('places.open_named', { name: cycle.name })}
                        onClick={() => setPlacesOf(cycle)}
                      >
                        {t('places.open')}
                      </button>
                      <button
                        type="button"
                        className="btn-secondary"
                        aria-label={t('cycles.delete_named', { name: cycle.name })}
                        onClick={() => {
                          remove.reset();
                          setDeleting(cycle);
                        }}
                      >
                        {t('cycles.delete')}
                      </button>
                    </>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {editing && programs.data && (
        <CycleDialog
          partnerId={partnerId}
          cycle={editing === 'new' ? null : editing}
          programs={programs.data}
          onClose={() => setEditing(null)}
        />
      )}
      {placesOf && (
        <PlacesDialog
          partnerId={partnerId}
          cycle={placesOf}
          canDecide={holdsPermission(user?.staff_permissions, 'make_decisions')}
          onClose={() => setPlacesOf(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('cycles.delete_title', { name: deleting.name })}
          description={t('cycles.delete_text')}
          confirmLabel={t('cycles.delete')}
          cancelLabel={t('cycles.cancel')}
          pending={remove.isPending}
          error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
