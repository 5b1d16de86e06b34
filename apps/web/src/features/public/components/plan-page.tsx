import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { InfoPage, InfoSection, NextLinks } from './page-parts.tsx';

/** Milestones counted back from the first deadline, each with its checklist items. */
const MILESTONES = [
  ['m12', ['fields', 'requirements', 'budget', 'passport']],
  ['m9', ['tests', 'shortlist', 'scholarships']],
  ['m6', ['recommenders', 'transcripts', 'statement']],
  ['m3', ['profile', 'revise', 'forms']],
  ['m1', ['check', 'submit', 'reference']],
  ['deadline', ['confirm', 'time_zone', 'support']],
  ['after', ['messages', 'offers', 'next_steps']],
] as const;

export function PlanPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.plan' });
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <InfoSection title={t('timeline_title')}>
        <ol className="space-y-8 border-l-2 border-border pl-6">
          {MILESTONES.map(([milestone, items]) => (
            <li key={milestone} className="relative min-w-0">
              <span
                aria-hidden="true"
                className="absolute top-1.5 -left-[33px] size-4 rounded-full border-4 border-bg bg-brand"
              />
              <h3 className="text-lg font-semibold">{t(`${milestone}.title`)}</h3>
              <ul className="mt-3 space-y-2">
                {items.map((item) => (
                  <li key={item} className="flex gap-2">
                    <svg
                      aria-hidden="true"
                      viewBox="0 0 20 20"
                      className="mt-0.5 size-5 shrink-0 fill-none stroke-current text-brand"
                      strokeWidth="2"
                    >
                      <rect x="2.5" y="2.5" width="15" height="15" rx="3" />
                      <path d="m6.5 10 2.5 2.5 4.5-5" strokeLinecap="round" strokeLinejoin="round" />
                    </svg>
                    <span className="min-w-0">{t(`${milestone}.${item}`)}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </InfoSection>
      <InfoSection title={t('more.title')}>
        <p>{t('more.text')}</p>
        <NextLinks>
          <Link to={paths.resources} className="btn-primary">
            {t('more.resources')}
          </Link>
          <Link to={paths.aboutStudent} className="btn-secondary">
            {t('more.student')}
          </Link>
        </NextLinks>
      </InfoSection>
    </InfoPage>
  );
}
