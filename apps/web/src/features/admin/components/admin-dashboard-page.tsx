import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AdminLoadingScreen } from '../../../components/admin-loading-screen.tsx';
import { useAnalytics } from '../api/get-analytics.ts';
import { useInstitutions } from '../api/get-institutions.ts';
import { ActivitySection } from './activity-section.tsx';
import { ApplicationsSection } from './applications-section.tsx';
import { OverviewSection } from './overview-section.tsx';
import { PendingSection, pendingParams } from './pending-section.tsx';
import { UniversitiesSection } from './universities-section.tsx';

const SECTIONS = ['overview', 'pending', 'universities', 'applications', 'activity'] as const;
type Section = (typeof SECTIONS)[number];

const PANELS: Record<Section, () => React.JSX.Element> = {
  overview: OverviewSection,
  pending: PendingSection,
  universities: UniversitiesSection,
  applications: ApplicationsSection,
  activity: ActivitySection,
};

const tabId = (section: Section) => `admin-tab-${section}`;
const panelId = (section: Section) => `admin-panel-${section}`;

function isSection(value: string | null): value is Section {
  return SECTIONS.some((section) => section === value);
}

/**
 * The admin dashboard. Its sections are tabs (the chosen one is kept in `?section=`, so a reload or a
 * shared link opens it again); the spec's admin loading screen shows until the first figures arrive.
 */
export function AdminDashboardPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('section');
  const current: Section = isSection(requested) ? requested : 'overview';
  const tabs = useRef<Partial<Record<Section, HTMLButtonElement | null>>>({});
  const analytics = useAnalytics();
  const pending = useInstitutions(pendingParams(1));

  if (analytics.isPending || pending.isPending) return <AdminLoadingScreen />;

  const select = (section: Section, focus = false) => {
    setParams(section === 'overview' ? {} : { section }, { replace: true, preventScrollReset: true });
    if (focus) tabs.current[section]?.focus();
  };

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = SECTIONS.indexOf(current);
    const next: Partial<Record<string, number>> = {
      ArrowRight: (index + 1) % SECTIONS.length,
      ArrowLeft: (index - 1 + SECTIONS.length) % SECTIONS.length,
      Home: 0,
      End: SECTIONS.length - 1,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(SECTIONS[target]!, true);
  };

  const Panel = PANELS[current];
  const pendingCount = pending.data?.total;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('admin.title')}</h1>
      <div
        role="tablist"
        aria-label={t('admin.sections_label')}
        onKeyDown={onKeyDown}
        className="-mx-4 flex gap-1 overflow-x-auto border-b border-border px-4 sm:mx-0 sm:px-0"
      >
        {SECTIONS.map((section) => {
          const selected = section === current;
          return (
            <button
              key={section}
              ref={(element) => {
                tabs.current[section] = element;
              }}
              type="button"
              role="tab"
              id={tabId(section)}
              aria-selected={selected}
              aria-controls={selected ? panelId(section) : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(section)}
              className={`-mb-px flex min-h-11 shrink-0 items-center gap-2 border-b-2 px-3 text-sm font-semibold whitespace-nowrap ${selected ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-fg'}`}
            >
              {t(`admin.tabs.${section}`)}{' '}
              {section === 'pending' && pendingCount !== undefined && pendingCount > 0 && (
                <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">{pendingCount}</span>
              )}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} tabIndex={0}>
        <Panel />
      </div>
    </div>
  );
}
