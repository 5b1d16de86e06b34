import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission } from '@kaminuza/shared';
import { Tabs } from '../../../components/tabs.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useSettings } from '../api/get-settings.ts';
import { AdmissionsSettingsForm } from './admissions-settings-form.tsx';
import { ApiKeysPanel } from './api-keys-panel.tsx';
import { GeneralSettingsForm } from './general-settings-form.tsx';
import { ThemeSettingsForm } from './theme-settings-form.tsx';

const TABS = ['general', 'theme', 'admissions', 'api_keys'] as const;
type Tab = (typeof TABS)[number];

/**
 * The institution's settings in tabs (the chosen one kept in `?tab=`, so a reload or a link opens it).
 * Every member may read them; without manage_settings the forms are read-only, and the API keys tab
 * is shown only to members who manage keys. The server checks both again.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const partnerId = user?.partner_id ?? '';
  const canEdit = holdsPermission(user?.staff_permissions, 'manage_settings');
  const canManageKeys = holdsPermission(user?.staff_permissions, 'manage_api_keys');
  const tabs = TABS.filter((tab) => tab !== 'api_keys' || canManageKeys);

  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const current: Tab = tabs.find((tab) => tab === requested) ?? 'general';
  const settings = useSettings(partnerId);

  const panel = () => {
    if (current === 'api_keys') return <ApiKeysPanel partnerId={partnerId} />;
    if (settings.isPending) return <Spinner />;
    if (settings.isError) {
      return (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-danger p-4">
          <p className="min-w-0 flex-1 text-danger">{t(errorMessageKey(settings.error))}</p>
          <button
            type="button"
            className="btn-secondary"
            disabled={settings.isFetching}
            onClick={() => void settings.refetch()}
          >
            {t('partner_settings.retry')}
          </button>
        </div>
      );
    }
    const props = { partnerId, canEdit };
    if (current === 'theme') return <ThemeSettingsForm {...props} theme={settings.data.theme} />;
    if (current === 'admissions') return <AdmissionsSettingsForm {...props} admissions={settings.data.admissions} />;
    return <GeneralSettingsForm {...props} general={settings.data.general} />;
  };

  return (
    <div className="mx-auto flex w-full max-w-4xl min-w-0 flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('partner_settings.title')}</h1>
        <p className="text-muted">{t('partner_settings.lead')}</p>
        {!canEdit && (
          <p className="rounded-lg border border-border bg-surface-muted p-3 text-sm">
            {t('partner_settings.read_only')}
          </p>
        )}
      </div>
      <Tabs
        label={t('partner_settings.tabs_label')}
        items={tabs.map((tab) => ({ id: tab, label: t(`partner_settings.tabs.${tab}`) }))}
        value={current}
        onChange={(tab) => setParams(tab === 'general' ? {} : { tab }, { replace: true, preventScrollReset: true })}
        listClassName="-mx-4 px-4 sm:mx-0 sm:px-0"
      >
        {panel()}
      </Tabs>
    </div>
  );
}
