import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JoinLinks } from '../../../components/account-links.tsx';
import { paths } from '../../../lib/paths.ts';
import { BulletList, InfoPage, InfoSection, NextLinks, SubSection } from './page-parts.tsx';

const STEPS = ['account', 'onboarding', 'profile', 'explore', 'apply', 'pay', 'submit', 'decide'] as const;
const DOCUMENTS = ['transcript', 'test_scores', 'recommendation', 'personal_statement', 'passport'] as const;
const DECISIONS = ['accepted', 'unsuccessful', 'waitlisted'] as const;

export function AboutStudentPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.about_student' });
  const { t: tRoot } = useTranslation();
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <InfoSection title={t('journey.title')}>
        <ol className="space-y-6">
          {STEPS.map((step, index) => (
            <li key={step} className="flex gap-4">
              <span
                aria-hidden="true"
                className="grid size-9 shrink-0 place-items-center rounded-full bg-brand font-bold text-on-brand"
              >
                {index + 1}
              </span>
              <div className="min-w-0">
                <SubSection title={t(`journey.${step}.title`)}>
                  <p>{t(`journey.${step}.text`)}</p>
                </SubSection>
              </div>
            </li>
          ))}
        </ol>
      </InfoSection>
      <InfoSection title={t('documents.title')}>
        <p>{t('documents.intro')}</p>
        <BulletList items={DOCUMENTS.map((d) => t(`documents.${d}`))} />
      </InfoSection>
      <InfoSection title={t('fees.title')}>
        <p>{t('fees.text')}</p>
      </InfoSection>
      <InfoSection title={t('decisions.title')}>
        {DECISIONS.map((decision) => (
          <SubSection key={decision} title={t(`decisions.${decision}.title`)}>
            <p>{t(`decisions.${decision}.text`)}</p>
          </SubSection>
        ))}
      </InfoSection>
      <InfoSection title={t('help.title')}>
        <p>{t('help.text')}</p>
        <p className="text-muted">{tRoot('footer.support_hours')}</p>
        <NextLinks>
          <JoinLinks />
          <Link to={paths.planForUniversity} className="btn-secondary">
            {t('help.plan_link')}
          </Link>
        </NextLinks>
      </InfoSection>
    </InfoPage>
  );
}
