import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../../components/tabs.tsx';
import { CampusesTab } from './campuses-tab.tsx';
import { ProgramsTab } from './programs-tab.tsx';
import { useProgramsAccess } from './use-programs-access.ts';

const TABS = ['programs', 'campuses'] as const;
type Tab = (typeof TABS)[number];

/** What the institution teaches and where: programs and campuses, one tab each (kept in `?tab=`). */
export function ProgramsPage() {
  const { t } = useTranslation();
  const { partnerId, canEdit } = useProgramsAccess();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab: Tab = TABS.find((id) => id === asked) ?? 'programs';
  const choose = (next: Tab) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        params.set('tab', next);
        return params;
      },
      { replace: true },
    );

  return (
    <div className="mx-auto flex w-full max-w-5xl min-w-0 flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('programs.title')}</h1>
        <p className="text-muted">{t('programs.intro')}</p>
      </div>
      <Tabs
        label={t('programs.tabs_label')}
        items={TABS.map((id) => ({ id, label: t(`programs.tabs.${id}`) }))}
        value={tab}
        onChange={choose}
      >
        {tab === 'programs' ? (
          <ProgramsTab partnerId={partnerId} canEdit={canEdit} onAddCampus={() => choose('campuses')} />
        ) : (
          <CampusesTab partnerId={partnerId} canEdit={canEdit} />
        )}
      </Tabs>
    </div>
  );
}
