import { useTranslation } from 'react-i18next';
import { useSaveUniversity } from '../api/save-university.ts';

/** Add to / remove from the student's list; the new state shows at once and is undone if saving fails. */
export function SaveButton({ partnerId, name, saved }: { partnerId: string; name: string; saved: boolean }) {
  const { t } = useTranslation();
  const mutation = useSaveUniversity();
  return (
    <div className="flex flex-col items-start gap-1">
      <button
        type="button"
        className={saved ? 'btn-secondary' : 'btn-primary'}
        aria-label={t(saved ? 'explore.remove_label' : 'explore.add_label', { name })}
        onClick={() => mutation.mutate({ partnerId, saved: !saved })}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 shrink-0 fill-current">
          {saved ? (
            <path d="M5 3h10a1 1 0 0 1 1 1v13l-6-3.5L4 17V4a1 1 0 0 1 1-1Z" />
          ) : (
            <path d="M5 3h10a1 1 0 0 1 1 1v13l-6-3.5L4 17V4a1 1 0 0 1 1-1Zm1 2v8.5l4-2.3 4 2.3V5H6Z" />
          )}
        </svg>
        {t(saved ? 'explore.remove' : 'explore.add')}
      </button>
      {mutation.isError && (
        <p role="alert" className="text-sm font-medium text-danger">
          {t('explore.list_error')}
        </p>
      )}
    </div>
  );
}
