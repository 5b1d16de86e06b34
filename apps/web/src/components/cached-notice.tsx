import { useTranslation } from 'react-i18next';
import { useCachedAt } from '../lib/cached-at.ts';
import { dateTimeFormat } from '../lib/intl.ts';

/** "As of {time}" when what the screen shows for `path` is the copy saved on this device. */
export function CachedNotice({ path }: { path: string | null }) {
  const { t, i18n } = useTranslation();
  const at = useCachedAt(path);
  if (!at) return null;
  const time = dateTimeFormat(i18n.resolvedLanguage ?? i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <p className="rounded-lg border border-accent bg-surface-muted px-3 py-2 text-sm" data-testid="cached-notice">
      {t('offline.as_of', { time: time.format(new Date(at)) })}
    </p>
  );
}
