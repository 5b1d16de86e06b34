import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Campus } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { countryNamer } from '../../../lib/countries.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useCampuses } from '../api/get-campuses.ts';
import { useDeleteCampus } from '../api/delete-campus.ts';
import { CampusDialog } from './campus-dialog.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';

/** The institution's campuses: where its programs are taught. */
export function CampusesTab({ partnerId, canEdit }: { partnerId: string; canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const campuses = useCampuses(partnerId);
  const remove = useDeleteCampus(partnerId);
  const [editing, setEditing] = useState<Campus | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Campus | null>(null);
  const country = countryNamer(i18n.resolvedLanguage ?? 'en');

  const addButton = canEdit && (
    <button type="button" className="btn-primary" onClick={() => setEditing('new')}>
      {t('programs.campuses.add')}
    </button>
  );

  return (
    <section aria-labelledby="campuses-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="campuses-title" className="text-xl font-semibold">
          {t('programs.campuses.title')}
        </h2>
        {campuses.data && campuses.data.length > 0 && addButton}
      </div>

      {campuses.isPending && <SkeletonTable rows={3} columns={3} />}
      {campuses.isError && (
        <LoadError error={campuses.error} retryLabel={t('programs.retry')} onRetry={() => void campuses.refetch()} />
      )}
      {campuses.data?.length === 0 && (
        <EmptyState
          title={t('programs.campuses.empty_title')}
          text={canEdit ? t('programs.campuses.empty_text') : t('programs.campuses.empty_text_read_only')}
          action={addButton}
        />
      )}
      {campuses.data && campuses.data.length > 0 && (
        <ul aria-labelledby="campuses-title" className="grid gap-3 md:grid-cols-2">
          {campuses.data.map((campus) => (
            <li key={campus.id} className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4">
              <h3 className="text-lg font-semibold [overflow-wrap:anywhere]">{campus.name}</h3>
              <p className="text-sm [overflow-wrap:anywhere] text-muted">
                {[campus.address, campus.city, country(campus.country)].filter(Boolean).join(', ')}
              </p>
              <p className="text-sm">{t('programs.campuses.program_count', { count: campus.program_count })}</p>
              {canEdit && (
                <div className="mt-auto flex flex-wrap gap-2 pt-2">
                  <button
                    type="button"
                    className="btn-secondary"
                    aria-label={t('programs.edit_named', { name: campus.name })}
                    onClick={() => setEditing(campus)}
                  >
                    {t('programs.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    aria-label={t('programs.delete_named', { name: campus.name })}
                    onClick={() => {
                      remove.reset();
                      setDeleting(campus);
                    }}
                  >
                    {t('programs.delete')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      {editing && (
        <CampusDialog
          partnerId={partnerId}
          campus={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('programs.campuses.delete_title', { name: deleting.name })}
          description={t('programs.campuses.delete_text')}
          confirmLabel={t('programs.delete')}
          cancelLabel={t('programs.cancel')}
          pending={remove.isPending}
          error={remove.isError ? t(errorMessageKey(remove.error)) : undefined}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
