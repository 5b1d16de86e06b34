import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UniversityDetail } from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { Tabs } from '../../../components/tabs.tsx';
import { institutionThemeProps } from '../../../components/institution-theme.ts';
import { useUniversity } from '../api/get-university.ts';
import { SaveButton } from './save-button.tsx';
import { useFormats } from './formats.ts';
import { applicationPath } from './paths.ts';
import { InstitutionLogo } from '../../../components/institution-logo.tsx';
import { useSession } from '../../../lib/session.tsx';
import { ProgramsEligibility } from './programs-eligibility.tsx';

function Facts({ items }: { items: Array<[string, string]> }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
      {items.map(([term, value]) => (
        <div key={term} className="min-w-0 rounded-lg bg-surface-muted/60 p-3">
          <dt className="text-sm text-muted">{term}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const SECTIONS = ['overview', 'admissions', 'academics', 'costs', 'campus_life'] as const;
type Section = (typeof SECTIONS)[number];

function Panels({ university }: { university: UniversityDetail }) {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('overview');
  const format = useFormats();
  const none = t('university.not_provided');
  const list = (values: string[]) => (values.length > 0 ? values.join(', ') : none);
  const location = t('explore.location', {
    city: university.address.city,
    country: format.country(university.address.country),
  });
  const { contact } = university;
  const { session } = useSession();
  const student = session.status === 'signed-in' && session.user.type === 'student';

  const overview = (
    <div className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-semibold">{t('university.about')}</h2>
        <p className="mt-1 whitespace-pre-line">{university.description || t('university.no_description')}</p>
      </div>
      <Facts
        items={[
          [t('university.type'), t(`catalogue.types.${university.institution_type}`)],
          [t('university.location'), location],
          [t('university.region'), t(`catalogue.regions.${university.region}`)],
          [
            t('university.accreditation'),
            [university.accreditation_body, university.accreditation_number].filter(Boolean).join(' — ') || none,
          ],
        ]}
      />
      <div>
        <h2 className="text-lg font-semibold">{t('university.contact')}</h2>
        <dl className="mt-2 grid gap-2">
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-muted">{t('university.email')}</dt>
            <dd className="min-w-0 break-all">
              {contact.email ? (
                <a className="link" href={`mailto:${contact.email}`}>
                  {contact.email}
                </a>
              ) : (
                none
              )}
            </dd>
          </div>
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-muted">{t('university.phone')}</dt>
            <dd>
              {contact.phone ? (
                <a className="link" href={`tel:${contact.phone.replace(/\s/g, '')}`}>
                  {contact.phone}
                </a>
              ) : (
                none
              )}
            </dd>
          </div>
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-muted">{t('university.website')}</dt>
            <dd className="min-w-0 break-all">
              {contact.website ? (
                <a className="link" href={contact.website} target="_blank" rel="noopener noreferrer">
                  {contact.website}
                </a>
              ) : (
                none
              )}
            </dd>
          </div>
        </dl>
      </div>
    </div>
  );

  const admissions = (
    <Facts
      items={[
        [
          t('university.deadline'),
          university.application_deadline ? format.date(university.application_deadline) : t('explore.no_deadline'),
        ],
        [t('university.acceptance_rate'), format.rate(university.acceptance_rate)],
        [
          t('university.sat_range'),
          university.sat_range
            ? t('university.range_value', { min: university.sat_range.min, max: university.sat_range.max })
            : none,
        ],
        [
          t('university.application_fee'),
          university.application_fee
            ? format.money(university.application_fee.amount, university.application_fee.currency)
            : none,
        ],
      ]}
    />
  );

  const academics = (
    <div className="flex flex-col gap-6">
      <Facts
        items={[
          [t('university.fields'), list(university.fields.map((f) => t(`catalogue.fields.${f}`)))],
          [t('university.program_levels'), list(university.programs.map((p) => t(`catalogue.programs.${p}`)))],
          [t('university.program_count'), format.number(university.program_count)],
          [
            t('university.student_faculty_ratio'),
            university.student_faculty_ratio > 0
              ? t('university.ratio_value', { ratio: format.number(university.student_faculty_ratio) })
              : none,
          ],
          [t('university.graduation_rate'), format.rate(university.graduation_rate)],
        ]}
      />
      {student && <ProgramsEligibility partnerId={university.id} />}
    </div>
  );

  const costs = (
    <Facts
      items={[
        [t('university.tuition'), format.money(university.tuition_usd)],
        [
          t('university.tuition_range'),
          t('university.range_value', {
            min: format.money(university.tuition_range.min_usd),
            max: format.money(university.tuition_range.max_usd),
          }),
        ],
        [t('university.avg_cost_after_aid'), format.money(university.avg_cost_after_aid_usd)],
      ]}
    />
  );

  const campusLife = (
    <Facts
      items={[
        [t('university.setting'), t(`catalogue.settings.${university.setting}`)],
        [t('university.size'), t(`catalogue.sizes.${university.size}`)],
        [t('university.total_enrollment'), format.number(university.total_enrollment)],
        [t('university.location'), location],
        [t('university.established'), String(university.year_established)],
      ]}
    />
  );

  const panels: Record<Section, React.JSX.Element> = {
    overview,
    admissions,
    academics,
    costs,
    campus_life: campusLife,
  };

  return (
    <Tabs
      label={t('university.sections')}
      items={SECTIONS.map((id) => ({ id, label: t(`university.tabs.${id}`) }))}
      value={section}
      onChange={setSection}
    >
      {panels[section]}
    </Tabs>
  );
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link to={paths.student.partners} className="link self-start text-sm">
      {t('university.back')}
    </Link>
  );
}

/** A university's details: header, list toggle, Apply, and the tabs. */
export function UniversityPage() {
  const { t } = useTranslation();
  const { partnerId = '' } = useParams();
  const format = useFormats();
  const { data, isPending, isError, error, isFetching, refetch } = useUniversity(partnerId);

  if (isPending) {
    return (
      <section className="mx-auto flex max-w-4xl flex-col gap-4" aria-busy="true">
        <div role="status">
          <span className="sr-only">{t('university.loading')}</span>
          <div aria-hidden="true" className="flex flex-col gap-3">
            <span className="block h-8 w-2/3 animate-pulse rounded bg-surface-muted" />
            <span className="block h-4 w-1/3 animate-pulse rounded bg-surface-muted" />
            <span className="block h-40 animate-pulse rounded-xl bg-surface-muted" />
          </div>
        </div>
      </section>
    );
  }

  if (isError) {
    const missing = error instanceof ApiError && error.status === 'NOT_FOUND';
    return (
      <section className="mx-auto flex max-w-4xl flex-col items-start gap-4">
        <BackLink />
        {missing ? (
          <>
            <h1 className="text-3xl font-bold">{t('university.not_found_title')}</h1>
            <p className="text-muted">{t('university.not_found_text')}</p>
            <Link to={paths.student.partners} className="btn-primary">
              {t('shell.student.explore')}
            </Link>
          </>
        ) : (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 rounded-xl border border-border bg-surface p-6"
          >
            <p className="min-w-0 flex-1">{t('university.error')}</p>
            <button type="button" className="btn-secondary" disabled={isFetching} onClick={() => void refetch()}>
              {t('university.retry')}
            </button>
          </div>
        )}
      </section>
    );
  }

  const { theme } = data;
  const compact = theme?.layout.header_style === 'compact';
  const { className: themeClass, ...themeProps } = institutionThemeProps(theme);
  return (
    <article
      // The institution's colours, font and corners on its header band only; the page keeps the app's look.
      {...themeProps}
      className={`mx-auto flex w-full max-w-4xl flex-col gap-6 ${themeClass}`}
    >
      <BackLink />
      <header className={`flex flex-col gap-4 ${theme ? '' : 'sm:flex-row sm:items-start sm:justify-between'}`}>
        <div className={`flex min-w-0 gap-4 ${theme ? `institution-band ${compact ? 'p-3' : 'p-4 sm:p-6'}` : ''}`}>
          <InstitutionLogo
            src={data.images.logo_url}
            name={data.name}
            className="size-16 rounded-xl"
            letterClassName="bg-surface-muted text-2xl"
          />
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{data.name}</h1>
            <p className={theme ? '' : 'text-muted'}>
              {t('explore.location', { city: data.address.city, country: format.country(data.address.country) })}
            </p>
            {data.is_demo && (
              <span
                className={`mt-1 inline-block rounded-full border px-2.5 py-0.5 text-xs font-medium ${theme ? 'border-current' : 'border-border text-muted'}`}
              >
                {t('university.demo')}
              </span>
            )}
          </div>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <Link to={applicationPath(data.id)} className="btn-primary">
            {t('university.apply')}
          </Link>
          <SaveButton partnerId={data.id} name={data.name} saved={data.saved} />
          <Link to={paths.student.chat(data.id)} className="btn-secondary">
            {t('chat.message_university')}
          </Link>
        </div>
      </header>
      <Panels university={data} />
    </article>
  );
}
