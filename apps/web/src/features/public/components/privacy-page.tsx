import { useTranslation } from 'react-i18next';
import { EMAILS } from './contact-addresses.ts';
import { BulletList, InfoPage, InfoSection, MailLink, SubSection } from './page-parts.tsx';

const DATA = ['account', 'profile', 'documents', 'applications', 'payments', 'messages', 'technical'] as const;
const PURPOSES = ['service', 'share', 'security', 'messages', 'law'] as const;
const LAWS = ['rwanda', 'nigeria', 'kenya', 'south_africa', 'eu'] as const;
const RIGHTS = ['access', 'correct', 'export', 'delete', 'object', 'complain'] as const;
const PARAGRAPH_SECTIONS = ['security', 'transfers', 'young_users', 'changes'] as const;

export function PrivacyPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.privacy' });
  return (
    <InfoPage title={t('title')} notice={t('notice')} intro={t('intro')}>
      <InfoSection title={t('data.title')}>
        <BulletList items={DATA.map((d) => t(`data.${d}`))} />
      </InfoSection>
      <InfoSection title={t('purposes.title')}>
        <BulletList items={PURPOSES.map((p) => t(`purposes.${p}`))} />
        <p>{t('purposes.no_sale')}</p>
      </InfoSection>
      <InfoSection title={t('retention.title')}>
        <p>{t('retention.text')}</p>
      </InfoSection>
      <InfoSection title={t('rights.title')}>
        <SubSection title={t('rights.laws_title')}>
          <p>{t('rights.laws_intro')}</p>
          <BulletList items={LAWS.map((law) => t(`rights.laws.${law}`))} />
        </SubSection>
        <SubSection title={t('rights.list_title')}>
          <BulletList items={RIGHTS.map((right) => t(`rights.list.${right}`))} />
        </SubSection>
        <SubSection title={t('rights.exercise_title')}>
          <p>
            {t('rights.exercise_text')} <MailLink address={EMAILS.privacy} />
          </p>
          <p>{t('rights.exercise_response')}</p>
        </SubSection>
      </InfoSection>
      {PARAGRAPH_SECTIONS.map((section) => (
        <InfoSection key={section} title={t(`${section}.title`)}>
          <p>{t(`${section}.text`)}</p>
        </InfoSection>
      ))}
    </InfoPage>
  );
}
