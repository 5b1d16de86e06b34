import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULTS } from '@kaminuza/shared';
import { JoinLinks } from '../../../components/account-links.tsx';
import { paths } from '../../../lib/paths.ts';
import { InfoPage, InfoSection, NextLinks, SubSection } from './page-parts.tsx';

const FEATURES = ['programs', 'cycles', 'forms', 'team', 'review', 'chat'] as const;

export function AboutPartnerPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.about_partner' });
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <InfoSection title={t('features.title')}>
        <div className="grid gap-6 sm:grid-cols-2">
          {FEATURES.map((feature) => (
            <div key={feature} className="min-w-0 rounded-xl border border-border bg-surface p-5">
              <SubSection title={t(`features.${feature}.title`)}>
                <p className="text-muted">{t(`features.${feature}.text`)}</p>
              </SubSection>
            </div>
          ))}
        </div>
      </InfoSection>
      <InfoSection title={t('fee.title')}>
        <p>{t('fee.text', { amount: DEFAULTS.applicationFee, currency: DEFAULTS.applicationFeeCurrency })}</p>
      </InfoSection>
      <InfoSection title={t('vetting.title')}>
        <p>{t('vetting.text')}</p>
      </InfoSection>
      <InfoSection title={t('join.title')}>
        <p>{t('join.text')}</p>
        <NextLinks>
          <JoinLinks first="institution" />
          <Link to={paths.contactUs} className="btn-secondary">
            {t('join.cta')}
          </Link>
        </NextLinks>
      </InfoSection>
    </InfoPage>
  );
}
