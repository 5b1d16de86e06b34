import { useTranslation } from 'react-i18next';
import type { SaveStatus } from './use-draft-autosave.ts';
import { useApplicationFormats } from './formats.ts';

const TONE: Record<SaveStatus, string> = {
  idle: 'text-muted',
  saving: 'text-muted',
  saved: 'text-muted',
  offline: 'border-accent text-fg',
  conflict: 'border-danger text-danger',
  closed: 'border-danger text-danger',
  error: 'border-danger text-danger',
};

/**
 * Where the answers stand: Saving…, Saved hh:mm, or — offline — Saved on this device (not an error: they
 * are sent when the connection returns). Read out politely.
 */
export function SaveIndicator({
  status,
  savedAt,
  keptOnDevice = true,
}: {
  status: SaveStatus;
  savedAt: string | null;
  /** False when the device could not keep the answers either: offline then says they are not saved. */
  keptOnDevice?: boolean;
}) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const text =
    status === 'saved' && savedAt
      ? t('applications.save.saved', { time: format.time(savedAt) })
      : status === 'idle'
        ? ''
        : status === 'offline' && keptOnDevice
          ? t('applications.save.on_device')
          : t(`applications.save.${status}`);
  return (
    <p
      role="status"
      aria-live="polite"
      className={`min-h-6 rounded-full text-sm font-medium ${status === 'offline' || status === 'error' || status === 'conflict' || status === 'closed' ? `border px-3 py-0.5 ${TONE[status]}` : TONE[status]}`}
    >
      {text}
    </p>
  );
}
