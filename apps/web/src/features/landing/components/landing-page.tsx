import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../lib/paths.ts';
import { JoinLinks } from '../../../components/account-links.tsx';
import { CatalogueSection } from './catalogue-section.tsx';

const STEPS = ['profile', 'explore', 'apply', 'pay', 'decide'] as const;

/** Language names are written in their own language so anyone can find theirs. */
const LANGUAGE_NAMES = [
  ['en', 'English'],
  ['fr', 'Français'],
  ['rw', 'Kinyarwanda'],
] as const;

export function LandingPage() {
  const { t } = useTranslation();
  return (
    <>
      <section className="border-b border-border bg-surface">
        <div className="container-page py-14 sm:py-20">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand">{t('landing.hero.eyebrow')}</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight break-words sm:text-5xl">
            {t('landing.hero.title')}
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-muted">{t('landing.hero.lead')}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <JoinLinks />
          </div>
          <Link to={paths.aboutStudent} className="link mt-5 inline-block">
            {t('landing.hero.secondary_cta')}
          </Link>
        </div>
      </section>

      <CatalogueSection />

      <section className="container-page py-12">
        <h2 className="text-2xl font-bold tracking-tight">{t('landing.steps.title')}</h2>
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {STEPS.map((step, index) => (
            <li key={step} className="min-w-0 rounded-xl border border-border bg-surface p-5">
              <span
                aria-hidden="true"
                className="grid size-9 place-items-center rounded-full bg-brand font-bold text-on-brand"
              >
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold">{t(`landing.steps.${step}.title`)}</h3>
              <p className="mt-1 text-sm text-muted">{t(`landing.steps.${step}.text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <div className="container-page grid gap-4 py-4 md:grid-cols-2">
        <section className="min-w-0 rounded-xl border border-border bg-surface p-6">
          <h2 className="text-xl font-bold">{t('landing.institutions.title')}</h2>
          <p className="mt-2 text-muted">{t('landing.institutions.text')}</p>
          <Link to={paths.aboutPartner} className="link mt-4 inline-block">
            {t('landing.institutions.cta')}
          </Link>
        </section>
        <section className="min-w-0 rounded-xl border border-border bg-surface p-6">
          <h2 className="text-xl font-bold">{t('landing.languages.title')}</h2>
          <p className="mt-2 text-muted">{t('landing.languages.text')}</p>
          <ul className="mt-4 flex flex-wrap gap-2">
            {LANGUAGE_NAMES.map(([code, name]) => (
              <li key={code} lang={code} className="rounded-full bg-surface-muted px-3 py-1 text-sm font-medium">
                {name}
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section className="container-page py-12">
        <div className="rounded-xl bg-surface-muted p-6 sm:p-8">
          <h2 className="text-xl font-bold">{t('landing.support.title')}</h2>
          <p className="mt-2">{t('landing.support.text')}</p>
          <p className="mt-2 text-muted">{t('footer.support_hours')}</p>
          <Link to={paths.help} className="link mt-4 inline-block">
            {t('landing.support.cta')}
          </Link>
        </div>
      </section>
    </>
  );
}
