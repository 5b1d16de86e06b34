import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog.tsx';
import { useApplicationFormats } from './formats.ts';

/**
 * A save refused because the draft changed elsewhere (another tab or device). The student chooses; the
 * dialog stays until they do, so nothing is overwritten without their say.
 */
export function ConflictDialog({
  lastSavedAt,
  busy,
  onLoadNewer,
  onKeepMine,
}: {
  lastSavedAt: string | null;
  busy: boolean;
  onLoadNewer: () => void;
  onKeepMine: () => void;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  return (
    <Dialog
      title={t('applications.conflict.title')}
      description={
        lastSavedAt
          ? t('applications.conflict.text_when', { time: format.moment(lastSavedAt) })
          : t('applications.conflict.text')
      }
      onClose={() => undefined}
    >
      {() => (
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className="btn-secondary" disabled={busy} onClick={onKeepMine}>
            {t('applications.conflict.keep_mine')}
          </button>
          <button type="button" className="btn-primary" disabled={busy} onClick={onLoadNewer}>
            {t('applications.conflict.load_newer')}
          </button>
        </div>
      )}
    </Dialog>
  );
}
