import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NOTIFICATION_PREFERENCES } from '@kaminuza/shared';
import { useSession } from '../../../lib/session.tsx';
import { AppearanceSection } from './appearance-section.tsx';
import { LanguageSection } from './language-section.tsx';
import { LowDataSection } from './low-data-section.tsx';
import { NotificationsSection } from './notifications-section.tsx';
import { PasswordSection } from './password-section.tsx';

/**
 * The account's settings (spec section 2): theme, language, using less data on this device, password,
 * notification preferences, push on this device, and the account's data. The same page serves students,
 * staff and admins. Push and the account's data belong to other features: app/ passes their sections in.
 */
export function SettingsPage({ push, dataRights }: { push: ReactNode; dataRights: ReactNode }) {
  const { t } = useTranslation();
  const { session } = useSession();
  // Push on this device is offered only to accounts that are ever pushed something.
  const pushed = session.status === 'signed-in' && ACCOUNT_NOTIFICATION_PREFERENCES[session.user.type].push.length > 0;
  return (
    <section className="mx-auto max-w-3xl space-y-8">
      <h1 className="text-3xl font-bold tracking-tight">{t('settings.title')}</h1>
      <AppearanceSection />
      <LanguageSection />
      <LowDataSection />
      <NotificationsSection />
      <PasswordSection />
      {pushed && push}
      {dataRights}
    </section>
  );
}
