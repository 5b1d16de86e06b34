import { useTranslation } from 'react-i18next';
import type { UploadPhase, UploadProgress as Progress } from '../../lib/upload.ts';

const percentOf = (sent: number, total: number) => (total > 0 ? Math.floor((sent / total) * 100) : 0);

/**
 * The progress bar of an upload in flight, with what can be done at its phase: pause while sending,
 * resume when paused, retry once stopped, and cancel at any time. Offline it waits and says so: it
 * carries on by itself when the connection returns.
 */
export function UploadProgress({
  name,
  progress,
  phase = 'uploading',
  onPause,
  onResume,
  onCancel,
}: {
  name: string;
  progress: Progress;
  phase?: UploadPhase;
  onPause?: () => void;
  onResume?: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const percent = percentOf(progress.sent, progress.total);
  return (
    <div className="flex flex-col gap-2">
      <progress
        className="h-2 w-full overflow-hidden rounded-full accent-brand"
        max={100}
        value={percent}
        aria-label={t('upload.progress_label', { name })}
        aria-valuetext={t(`upload.phase.${phase}`, { percent })}
      />
      <p className={`text-sm ${phase === 'interrupted' ? 'text-danger' : 'text-muted'}`} aria-live="polite">
        {t(`upload.phase.${phase}`, { percent })}
      </p>
      <div className="flex flex-wrap gap-2">
        {phase === 'uploading' && onPause && <Control action="pause" name={name} onClick={onPause} />}
        {phase === 'paused' && onResume && <Control action="resume" name={name} onClick={onResume} primary />}
        {phase === 'interrupted' && onResume && <Control action="retry" name={name} onClick={onResume} primary />}
        <Control action="cancel" name={name} onClick={onCancel} />
      </div>
    </div>
  );
}

/** One of the upload's controls: its word on the button, and the file's name for a screen reader. */
function Control({
  action,
  name,
  onClick,
  primary = false,
}: {
  action: 'pause' | 'resume' | 'retry' | 'cancel';
  name: string;
  onClick: () => void;
  primary?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={primary ? 'btn-primary' : 'btn-secondary'}
      onClick={onClick}
      aria-label={t(`upload.${action}_label`, { name })}
    >
      {t(`upload.${action}`)}
    </button>
  );
}
