import { useCallback, useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AcknowledgedSchema, PICTURE_MIME_TYPES, UPLOAD_MAX_PICTURE_BYTES } from '@kaminuza/shared';
import { api } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session.tsx';
import { formatFileSize } from './file-size.ts';
import { DownscaleChoice, isBusy, UnfinishedUploads, UploadInFlight } from './upload-controls.tsx';
import { useUpload } from './use-upload.ts';

/**
 * The student's profile picture: shows it (or their initial), and uploads a new one through the
 * resumable upload client, or removes it. `onUploaded` runs after either change, for the caller to
 * reload whatever carries the picture URL.
 */
export function ProfilePictureInput({ pictureUrl, onUploaded }: { pictureUrl: string | null; onUploaded: () => void }) {
  const { t, i18n } = useTranslation();
  const { session } = useSession();
  const id = useId();
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeFailed, setRemoveFailed] = useState(false);

  const done = useCallback(() => {
    setNotice(t('upload.picture.uploaded'));
    onUploaded();
  }, [onUploaded, t]);
  const upload = useUpload('profile_picture', done);

  const user = session.status === 'signed-in' ? session.user : null;
  const initial = (user?.preferred_name || user?.first_name || user?.email || '?').trim().charAt(0).toUpperCase();

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setNotice(null);
    setRemoveFailed(false);
    upload.start(file);
  };

  const remove = async () => {
    setRemoving(true);
    setRemoveFailed(false);
    setNotice(null);
    try {
      await api('/students/me/profile-picture', AcknowledgedSchema, { method: 'DELETE' });
      setNotice(t('upload.picture.removed'));
      onUploaded();
    } catch {
      setRemoveFailed(true);
    } finally {
      setRemoving(false);
    }
  };

  const failed = upload.state.status === 'failed' ? upload.state.reason : null;
  return (
    <div role="group" aria-labelledby={`${id}-label`} className="flex flex-col gap-3">
      <span id={`${id}-label`} className="font-medium">
        {t('upload.picture.label')}
      </span>
      <div className="flex flex-wrap items-center gap-4">
        {pictureUrl ? (
          <img
            src={pictureUrl}
            alt={t('upload.picture.alt')}
            className="size-20 rounded-full border border-border object-cover"
            width={80}
            height={80}
          />
        ) : (
          <span
            role="img"
            aria-label={t('upload.picture.placeholder')}
            className="flex size-20 items-center justify-center rounded-full bg-surface-muted text-2xl font-semibold text-muted"
          >
            {initial}
          </span>
        )}
        {isBusy(upload) ? (
          <div className="min-w-48 flex-1">
            <UploadInFlight upload={upload} />
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <label className="btn-primary cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand">
              <span aria-hidden="true">{t(pictureUrl ? 'upload.picture.replace' : 'upload.picture.choose')}</span>
              <input
                type="file"
                className="sr-only"
                accept={PICTURE_MIME_TYPES.join(',')}
                aria-label={t(pictureUrl ? 'upload.picture.replace' : 'upload.picture.choose')}
                aria-describedby={`${id}-hint`}
                disabled={removing}
                onChange={choose}
              />
            </label>
            {pictureUrl && (
              <button type="button" className="btn-secondary" disabled={removing} onClick={() => void remove()}>
                {t('upload.picture.remove')}
              </button>
            )}
          </div>
        )}
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t('upload.picture.hint', { size: formatFileSize(t, UPLOAD_MAX_PICTURE_BYTES, i18n.language) })}
      </p>
      <UnfinishedUploads upload={upload} />
      <DownscaleChoice compact />
      {failed === 'cancelled' && (
        <p role="status" className="text-sm text-muted">
          {t('upload.cancelled')}
        </p>
      )}
      {failed && failed !== 'cancelled' && (
        <div role="alert" className="text-sm font-medium text-danger">
          <p>{t('upload.errors.profile_picture_failed')}</p>
          {failed !== 'profile_picture_failed' && <p>{t(`upload.errors.${failed}`)}</p>}
        </div>
      )}
      {removeFailed && (
        <p role="alert" className="text-sm font-medium text-danger">
          {t('upload.picture.remove_failed')}
        </p>
      )}
      {notice && !failed && (
        <p role="status" className="text-sm text-success">
          {notice}
        </p>
      )}
    </div>
  );
}
