import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { EMAILS } from './contact-addresses.ts';
import { InfoPage, InfoSection, MailLink } from './page-parts.tsx';

const CHANNELS = [
  ['general', EMAILS.info],
  ['support', EMAILS.support],
  ['privacy', EMAILS.privacy],
  ['institutions', EMAILS.info],
] as const;

export function ContactPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.contact' });
  const { t: tRoot } = useTranslation();
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <InfoSection title={t('channels_title')}>
        <ul className="grid gap-4 sm:grid-cols-2">
          {CHANNELS.map(([channel, address]) => (
            <li key={channel} className="min-w-0 rounded-xl border border-border bg-surface p-5">
              <h3 className="font-semibold">{t(`${channel}.title`)}</h3>
              <p className="mt-1 text-sm text-muted">{t(`${channel}.text`)}</p>
              <p className="mt-3">
                <MailLink address={address} />
              </p>
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted break-words">{t('no_reply', { email: EMAILS.noReply })}</p>
      </InfoSection>
      <InfoSection title={t('hours.title')}>
        <p>{tRoot('footer.support_hours')}</p>
        <p>{t('hours.chat')}</p>
        <p>
          <Link to={paths.help} className="link">
            {t('hours.help_link')}
          </Link>
        </p>
      </InfoSection>
    </InfoPage>
  );
}
