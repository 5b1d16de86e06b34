import { DataRightsSection } from '../features/account-data/components/data-rights-section.tsx';
import { PushSection } from '../features/notifications/components/push-section.tsx';
import { SettingsPage } from '../features/settings/components/settings-page.tsx';

/** The account's settings with push on this device and the account's data, which other features own. */
export function AccountSettings() {
  return <SettingsPage push={<PushSection />} dataRights={<DataRightsSection />} />;
}
