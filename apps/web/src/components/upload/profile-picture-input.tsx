import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The profile picture and its upload control. This version shows the picture only; the upload itself
 * belongs to the documents feature, which replaces this file.
 */
export function ProfilePictureInput({ pictureUrl }: { pictureUrl: string | null; onUploaded: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-center gap-4">
      {pictureUrl ? (
        <img src={pictureUrl} alt={t('onboarding.picture.current')} className="size-20 rounded-full object-cover" />
      ) : (
        <span aria-hidden="true" className="size-20 rounded-full bg-surface-muted" />
      )}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="font-medium">
          {t('onboarding.picture.choose')}
        </label>
        <input id={id} type="file" accept="image/jpeg,image/png" disabled className="text-sm" />
      </div>
    </div>
  );
}
