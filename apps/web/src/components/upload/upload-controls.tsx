import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDownscaleChoice } from './downscale.ts';
import type { UseUpload } from './use-upload.ts';
import { UploadProgress } from './upload-progress.tsx';

/** The upload in flight of a control, or the photo being made smaller before it; nothing when idle. */
export function UploadInFlight({ upload }: { upload: UseUpload }) {
  const { t } = useTranslation();
  const { state } = upload;
  if (state.status === 'preparing') {
    return (
      <p role="status" className="text-sm text-muted">
        {t('upload.downscale.preparing', { name: state.name })}
      </p>
    );
  }
  if (state.status !== 'uploading') return null;
  return (
    <UploadProgress
      name={state.name}
      progress={state.progress}
      phase={state.phase}
      onPause={upload.pause}
      onResume={upload.resume}
      onCancel={upload.cancel}
    />
  );
}

export const isBusy = (upload: UseUpload) => upload.state.status === 'uploading' || upload.state.status === 'preparing';

/**
 * The uploads of this control that a reload or a closed tab left unfinished on the device: each offered
 * again, carried on from what the server holds, or discarded. Hidden while another upload runs.
 */
export function UnfinishedUploads({ upload }: { upload: UseUpload }) {
  const { t } = useTranslation();
  if (upload.unfinished.length === 0 || isBusy(upload)) return null;
  return (
    <ul className="flex flex-col gap-2">
      {upload.unfinished.map((record) => {
        const percent = record.size > 0 ? Math.floor((record.offset / record.size) * 100) : 0;
        return (
          <li
            key={record.id}
            className="flex flex-col gap-2 rounded-lg border border-accent bg-accent/10 p-3 text-sm"
            aria-label={t('upload.unfinished.title', { name: record.name, percent })}
          >
            <p className="font-medium break-all">{t('upload.unfinished.title', { name: record.name, percent })}</p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary"
                aria-label={t('upload.unfinished.continue_label', { name: record.name })}
                onClick={() => upload.carryOn(record)}
              >
                {t('upload.unfinished.continue')}
              </button>
              <button
                type="button"
                className="btn-secondary"
                aria-label={t('upload.unfinished.discard_label', { name: record.name })}
                onClick={() => void upload.discard(record)}
              >
                {t('upload.unfinished.discard')}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * "Send photos smaller": whether a large photo is downscaled before it is sent. `compact` leaves out the
 * explanation, for a control that sits beside another one on the same screen (the profile picture above
 * the documents).
 */
export function DownscaleChoice({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [downscale, setDownscale] = useDownscaleChoice();
  return (
    <div className="flex items-start gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-brand"
        checked={downscale}
        aria-describedby={compact ? undefined : `${id}-hint`}
        onChange={(event) => setDownscale(event.target.checked)}
      />
      <div>
        <label htmlFor={id} className={compact ? undefined : 'font-medium'}>
          {t('upload.downscale.label')}
        </label>
        {!compact && (
          <p id={`${id}-hint`} className="text-muted">
            {t('upload.downscale.hint')}
          </p>
        )}
      </div>
    </div>
  );
}
