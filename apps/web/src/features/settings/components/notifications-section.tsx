import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCOUNT_NOTIFICATION_PREFERENCES,
  type AccountSettings,
  type EmailPreference,
  type UserType,
} from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { accountSettingsQuery } from '../../../lib/account-settings.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useSession } from '../../../lib/session.tsx';
import { useUpdateNotificationPreference, type NotificationChange } from '../api/update-notification-preference.ts';
import { SettingsSection } from './settings-section.tsx';

/** One preference: a labelled switch with a sentence saying what it covers. */
function PreferenceSwitch({
  label,
  explanation,
  checked,
  onChange,
}: {
  label: string;
  explanation: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <span className="min-w-0">
        <label htmlFor={id} className="block font-medium">
          {label}
        </label>
        <span id={`${id}-explanation`} className="block text-sm text-muted">
          {explanation}
        </span>
      </span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-describedby={`${id}-explanation`}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-6 shrink-0 accent-brand"
      />
    </li>
  );
}

function PreferenceGroup({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      <ul className="divide-y divide-border">{children}</ul>
    </div>
  );
}

function PreferencesSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status">
      <span className="sr-only">{t('loading.loading')}</span>
      <div aria-hidden="true" className="space-y-4">
        {[3, 3].map((count, group) => (
          <div key={group} className="space-y-3">
            <span className="block h-5 w-32 animate-pulse rounded bg-surface-muted" />
            {Array.from({ length: count }, (_, i) => (
              <span key={i} className="flex items-center justify-between gap-4">
                <span className="flex-1 space-y-2">
                  <span className="block h-4 w-1/2 animate-pulse rounded bg-surface-muted" />
                  <span className="block h-3 w-3/4 animate-pulse rounded bg-surface-muted" />
                </span>
                <span className="size-6 animate-pulse rounded bg-surface-muted" />
              </span>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

function Preferences({
  userId,
  userType,
  settings,
}: {
  userId: string;
  userType: UserType;
  settings: AccountSettings;
}) {
  const { t } = useTranslation();
  const update = useUpdateNotificationPreference(userId);
  const toggle = (change: NotificationChange) => update.mutate(change);
  const { email, push } = settings.notifications;
  // Only the switches that can ever send this kind of account something (the api refuses the others).
  const applicable = ACCOUNT_NOTIFICATION_PREFERENCES[userType];
  // The same switch covers other emails for staff: their applicants' unread messages, not their own decisions.
  const explanation = (preference: EmailPreference) =>
    userType === 'student'
      ? t(`settings.notifications.email.${preference}_text`)
      : t(`settings.notifications.email.${preference}_text_staff`, {
          defaultValue: t(`settings.notifications.email.${preference}_text`),
        });
  return (
    <div className="space-y-6">
      {update.isError && (
        <FormAlert>
          {t('settings.notifications.save_failed')} {t(errorMessageKey(update.error))}
        </FormAlert>
      )}
      <PreferenceGroup title={t('settings.notifications.email.title')}>
        {applicable.email.map((preference) => (
          <PreferenceSwitch
            key={preference}
            label={t(`settings.notifications.email.${preference}`)}
            explanation={explanation(preference)}
            checked={email[preference]}
            onChange={(enabled) => toggle({ channel: 'email', preference, enabled })}
          />
        ))}
      </PreferenceGroup>
      {applicable.push.length > 0 && (
        <PreferenceGroup title={t('settings.notifications.push.title')}>
          {applicable.push.map((preference) => (
            <PreferenceSwitch
              key={preference}
              label={t(`settings.notifications.push.${preference}`)}
              explanation={t(`settings.notifications.push.${preference}_text`)}
              checked={push[preference]}
              onChange={(enabled) => toggle({ channel: 'push', preference, enabled })}
            />
          ))}
        </PreferenceGroup>
      )}
    </div>
  );
}

/** What the user is told and how (spec section 3): saved as each switch moves. */
export function NotificationsSection() {
  const { t } = useTranslation();
  const { session } = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : '';
  const userType = session.status === 'signed-in' ? session.user.type : 'student';
  const query = useQuery({ ...accountSettingsQuery(userId), enabled: userId !== '' });
  return (
    <SettingsSection title={t('settings.notifications.title')} description={t('settings.notifications.description')}>
      {query.data ? (
        <Preferences userId={userId} userType={userType} settings={query.data} />
      ) : query.isError ? (
        <LoadError error={query.error} retryLabel={t('settings.retry')} onRetry={() => void query.refetch()} />
      ) : (
        <PreferencesSkeleton />
      )}
    </SettingsSection>
  );
}
