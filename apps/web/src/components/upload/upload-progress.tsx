import { useTranslation } from 'react-i18next';
import type { UploadProgress as Progress } from '../../lib/upload.ts';

/** The progress bar of an upload in flight, with its Cancel button. */
export function UploadProgress({
  name,
  progress,
  onCancel,
}: {
  name: string;
  progress: Progress;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <progress
          className="h-2 w-full overflow-hidden rounded-full accent-brand"
          max={100}
          value={percent}
          aria-label={t('upload.progress_label', { name })}
        />
        <button
          type="button"
          className="btn-secondary shrink-0"
          onClick={onCancel}
          aria-label={t('upload.cancel_label', { name })}
        >
          {t('upload.cancel')}
        </button>
      </div>
      <p className="text-sm text-muted" aria-live="polite">
        {t('upload.progress', { percent })}
      </p>
    </div>
  );
}
