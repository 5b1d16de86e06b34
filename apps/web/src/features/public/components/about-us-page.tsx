import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { BulletList, InfoPage, InfoSection, NextLinks, SubSection } from './page-parts.tsx';

const AUDIENCES = ['applicants', 'institutions'] as const;
const PRINCIPLES = ['one_profile', 'clear_fees', 'trusted', 'your_data', 'light'] as const;

export function AboutUsPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.about_us' });
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <InfoSection title={t('mission.title')}>
        <p>{t('mission.text')}</p>
        <p>{t('mission.approach')}</p>
      </InfoSection>
      <InfoSection title={t('audience.title')}>
        {AUDIENCES.map((audience) => (
          <SubSection key={audience} title={t(`audience.${audience}.title`)}>
            <p>{t(`audience.${audience}.text`)}</p>
          </SubSection>
        ))}
      </InfoSection>
      <InfoSection title={t('principles.title')}>
        <BulletList items={PRINCIPLES.map((p) => t(`principles.${p}`))} />
      </InfoSection>
      <InfoSection title={t('languages.title')}>
        <p>{t('languages.text')}</p>
      </InfoSection>
      <InfoSection title={t('next.title')}>
        <NextLinks>
          <Link to={paths.aboutStudent} className="btn-primary">
            {t('next.student')}
          </Link>
          <Link to={paths.aboutPartner} className="btn-secondary">
            {t('next.partner')}
          </Link>
          <Link to={paths.contactUs} className="btn-secondary">
            {t('next.contact')}
          </Link>
        </NextLinks>
      </InfoSection>
    </InfoPage>
  );
}
