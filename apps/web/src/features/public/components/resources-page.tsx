import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { BulletList, InfoPage, InfoSection, NextLinks } from './page-parts.tsx';

const GUIDES = [
  ['personal_statement', ['prompt', 'stories', 'fit', 'own_words', 'revise']],
  ['recommendations', ['who', 'when', 'brief', 'honesty', 'thanks']],
  ['documents', ['scan', 'format', 'names', 'translations', 'originals']],
  ['costs', ['budget', 'university_aid', 'sources', 'deadlines', 'scams']],
] as const;

const anchor = (guide: string) => `guide-${guide.replaceAll('_', '-')}`;

export function ResourcesPage() {
  const { t } = useTranslation(undefined, { keyPrefix: 'public.resources' });
  return (
    <InfoPage title={t('title')} intro={t('intro')}>
      <nav aria-label={t('toc_label')} className="mt-8 rounded-xl border border-border bg-surface p-5">
        <p className="font-semibold">{t('toc_label')}</p>
        <ul className="mt-2 space-y-1">
          {GUIDES.map(([guide]) => (
            <li key={guide}>
              <a href={`#${anchor(guide)}`} className="link">
                {t(`${guide}.title`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {GUIDES.map(([guide, tips]) => (
        <InfoSection key={guide} id={anchor(guide)} title={t(`${guide}.title`)}>
          <p>{t(`${guide}.intro`)}</p>
          <BulletList items={tips.map((tip) => t(`${guide}.${tip}`))} />
        </InfoSection>
      ))}
      <InfoSection title={t('more.title')}>
        <p>{t('more.text')}</p>
        <NextLinks>
          <Link to={paths.planForUniversity} className="btn-primary">
            {t('more.plan')}
          </Link>
          <Link to={paths.help} className="btn-secondary">
            {t('more.help')}
          </Link>
        </NextLinks>
      </InfoSection>
    </InfoPage>
  );
}
