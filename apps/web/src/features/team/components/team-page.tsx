import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../../components/tabs.tsx';
import { useStaffRequests } from '../api/get-staff-requests.ts';
import { InvitationsTab } from './invitations-tab.tsx';
import { JoinRequestsTab } from './join-requests-tab.tsx';
import { MembersTab } from './members-tab.tsx';
import { TeamsTab } from './teams-tab.tsx';
import { useTeamAccess } from './team-parts.tsx';

const TABS = ['members', 'invitations', 'teams', 'requests'] as const;
type Tab = (typeof TABS)[number];
/** Invitations and join requests are for members who manage the team; everyone sees members and teams. */
const MANAGERS_ONLY: readonly Tab[] = ['invitations', 'requests'];

const isTab = (value: string | null): value is Tab => TABS.some((tab) => tab === value);

/**
 * The institution's team: members and what each may do, invitations, named teams and join requests.
 * The chosen tab is kept in `?tab=`, so a reload or a shared link opens it again.
 */
export function TeamPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { partnerId, manageTeam } = useTeamAccess();
  const tabs = TABS.filter((tab) => manageTeam || !MANAGERS_ONLY.includes(tab));
  const requested = params.get('tab');
  const current: Tab = isTab(requested) && tabs.includes(requested) ? requested : 'members';
  const requests = useStaffRequests(partnerId, manageTeam);
  const waiting = requests.data?.length ?? 0;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('team.title')}</h1>
        <p className="mt-2 text-muted">{t('team.intro')}</p>
      </div>
      <Tabs
        label={t('team.tabs_label')}
        items={tabs.map((tab) => ({
          id: tab,
          label: (
            <>
              {t(`team.tabs.${tab}`)}
              {tab === 'requests' && waiting > 0 && (
                <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">
                  <span aria-hidden="true">{waiting}</span>
                  <span className="sr-only">{t('team.requests.waiting', { count: waiting })}</span>
                </span>
              )}
            </>
          ),
        }))}
        value={current}
        onChange={(tab) => setParams(tab === 'members' ? {} : { tab }, { replace: true, preventScrollReset: true })}
        listClassName="-mx-4 px-4 sm:mx-0 sm:px-0"
      >
        {current === 'members' && <MembersTab />}
        {current === 'invitations' && <InvitationsTab />}
        {current === 'teams' && <TeamsTab />}
        {current === 'requests' && <JoinRequestsTab />}
      </Tabs>
    </div>
  );
}
