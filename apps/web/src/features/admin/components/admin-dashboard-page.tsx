import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AdminLoadingScreen } from '../../../components/admin-loading-screen.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { useAnalytics } from '../api/get-analytics.ts';
import { useInstitutions } from '../api/get-institutions.ts';
import { ActivitySection } from './activity-section.tsx';
import { ApplicationsSection } from './applications-section.tsx';
import { JobsSection } from './jobs-section.tsx';
import { OverviewSection } from './overview-section.tsx';
import { PendingSection, pendingParams } from './pending-section.tsx';
import { SupportSection } from './support-section.tsx';
import { UniversitiesSection } from './universities-section.tsx';

const SECTIONS = [
  'overview',
  'pending',
  'universities',
  'applications',
  'support',
  'announcements',
  'activity',
  'jobs',
] as const;
type Section = (typeof SECTIONS)[number];

// The announcements panel belongs to notifications: app/ passes it in.
const PANELS: Record<Exclude<Section, 'announcements'>, () => React.JSX.Element> = {
  overview: OverviewSection,
  pending: PendingSection,
  universities: UniversitiesSection,
  applications: ApplicationsSection,
  support: SupportSection,
  activity: ActivitySection,
  jobs: JobsSection,
};

function isSection(value: string | null): value is Section {
  return SECTIONS.some((section) => section === value);
}

/**
 * The admin dashboard. Its sections are tabs (the chosen one is kept in `?section=`, so a reload or a
 * shared link opens it again); the spec's admin loading screen shows until the first figures arrive.
 */
export function AdminDashboardPage({ announcements }: { announcements: ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('section');
  const current: Section = isSection(requested) ? requested : 'overview';
  const analytics = useAnalytics();
  const pending = useInstitutions(pendingParams(1));

  if (analytics.isPending || pending.isPending) return <AdminLoadingScreen />;

  const Panel = current === 'announcements' ? null : PANELS[current];
  const pendingCount = pending.data?.total;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('admin.title')}</h1>
      <Tabs
        label={t('admin.sections_label')}
        items={SECTIONS.map((section) => ({
          id: section,
          label: (
            <>
              {t(`admin.tabs.${section}`)}{' '}
              {section === 'pending' && pendingCount !== undefined && pendingCount > 0 && (
                <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">{pendingCount}</span>
              )}
            </>
          ),
        }))}
        value={current}
        onChange={(section) =>
          setParams(section === 'overview' ? {} : { section }, { replace: true, preventScrollReset: true })
        }
        listClassName="-mx-4 px-4 sm:mx-0 sm:px-0"
      >
        {Panel ? <Panel /> : announcements}
      </Tabs>
    </div>
  );
}
