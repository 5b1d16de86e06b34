import { useTranslation } from 'react-i18next';
import type { PartnerTheme } from '@kaminuza/shared';
import { institutionThemeProps } from '../../../components/institution-theme.ts';

/**
 * The institution page's header band and the top of its application form, drawn with the theme being
 * edited through the same function the real pages use, so what is seen here is what applicants get: the
 * institution's colours in its band and its name, the app's own look around them (ADR 029). Nothing in
 * it is a control: it only shows.
 */
export function ThemePreview({ theme, name }: { theme: PartnerTheme; name: string }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner_settings.theme.preview' });
  const compact = theme.layout.header_style === 'compact';
  const { className: themeClass, ...themeProps } = institutionThemeProps(theme);
  return (
    <section
      aria-labelledby="theme-preview-title"
      {...themeProps}
      className={`flex min-w-0 flex-col gap-4 rounded-2xl border border-border p-3 sm:p-4 ${themeClass}`}
    >
      <h2 id="theme-preview-title" className="text-lg font-semibold">
        {t('title')}
      </h2>
      <div className={`institution-band flex items-center gap-3 ${compact ? 'p-3' : 'p-5'}`}>
        <span
          aria-hidden="true"
          className="grid size-12 shrink-0 place-items-center rounded-xl bg-surface text-xl font-bold text-brand"
        >
          {name.charAt(0)}
        </span>
        <div className="min-w-0">
          <p className="text-xl font-bold break-words">{name}</p>
          <p>{t('location')}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <span className="btn-primary">{t('apply')}</span>
        <span className="btn-secondary">{t('save')}</span>
      </div>
      <div className="flex gap-1 overflow-hidden border-b border-border">
        <span className="-mb-px border-b-2 border-brand px-3 py-2 text-sm font-semibold text-brand">
          {t('tab_overview')}
        </span>
        <span className="px-3 py-2 text-sm font-semibold text-muted">{t('tab_admissions')}</span>
      </div>
      <div className="flex flex-col gap-2 border-t-4 border-institution pt-3">
        <p className="text-sm font-semibold break-words text-institution-ink">{name}</p>
        <div className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4">
          <p className="font-medium">{t('question')}</p>
          <p className="text-sm text-muted">{t('question_hint')}</p>
          <div className="min-h-16 rounded-lg border border-border bg-bg p-2 text-muted">{t('answer')}</div>
          <span className="self-start rounded-full bg-[var(--inst-secondary)] px-3 py-1 text-sm font-medium text-[var(--inst-on-secondary)]">
            {t('badge')}
          </span>
        </div>
      </div>
    </section>
  );
}
