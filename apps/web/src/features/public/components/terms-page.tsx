import { useTranslation } from 'react-i18next';
import { EMAILS } from './contact-addresses.ts';
import { BulletList, InfoPage, InfoSection, MailLink } from './page-parts.tsx';

/** Each section has a paragraph and, for some, a list of points. */
const SECTIONS = [
  ['service', []],
  ['accounts', ['age', 'accurate', 'password', 'verify', 'one_account']],
  ['applicants', ['truthful', 'genuine', 'requirements']],
  ['institutions', []],
  ['fees', []],
  ['acceptable_use', ['others_data', 'disrupt', 'harass', 'scrape']],
  ['content', []],
  ['liability', []],
  ['closing', []],
  ['changes', []],
] as const;

export function TermsPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.terms' });
  return (
    <InfoPage title={t('title')} notice={t('notice')} intro={t('intro')}>
      {SECTIONS.map(([section, points]) => (
        <InfoSection key={section} title={t(`${section}.title`)}>
          <p>{t(`${section}.text`)}</p>
          {points.length > 0 && <BulletList items={points.map((point) => t(`${section}.${point}`))} />}
        </InfoSection>
      ))}
      <InfoSection title={t('contact.title')}>
        <p>
          {t('contact.text')} <MailLink address={EMAILS.info} />
        </p>
      </InfoSection>
    </InfoPage>
  );
}
