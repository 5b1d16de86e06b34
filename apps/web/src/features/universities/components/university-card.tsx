import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UniversityCard as Card } from '@kaminuza/shared';
import { SaveButton } from './save-button.tsx';
import { useFormats } from './formats.ts';
import { applicationPath, universityPath } from './paths.ts';
import { InstitutionLogo } from '../../../components/institution-logo.tsx';

export function UniversityCard({ university }: { university: Card }) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <div className="flex min-w-0 gap-3">
        <InstitutionLogo
          src={university.images.logo_url}
          name={university.name}
          className="size-11 rounded-lg"
          letterClassName="bg-surface-muted text-lg"
        />
        <div className="min-w-0">
          <h2 className="font-semibold break-words">
            <Link to={universityPath(university.id)} className="link">
              {university.name}
            </Link>
          </h2>
          <p className="text-sm break-words text-muted">
            {t('explore.location', {
              city: university.address.city,
              country: format.country(university.address.country),
            })}
          </p>
          <p className="text-sm text-muted">{t(`catalogue.types.${university.institution_type}`)}</p>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <div className="min-w-0">
          <dt className="text-muted">{t('explore.tuition_label')}</dt>
          <dd className="font-medium break-words">
            {t('explore.tuition_value', { amount: format.money(university.tuition_usd) })}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted">{t('explore.acceptance')}</dt>
          <dd className="font-medium">{format.rate(university.acceptance_rate)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-muted">{t('explore.deadline_label')}</dt>
          <dd className="font-medium break-words">
            {university.application_deadline ? format.date(university.application_deadline) : t('explore.no_deadline')}
          </dd>
        </div>
      </dl>
      <div className="mt-auto flex flex-wrap gap-2">
        {university.accepting_applications && (
          <Link
            to={applicationPath(university.id)}
            className="btn-primary"
            aria-label={t('explore.apply_label', { name: university.name })}
          >
            {t('explore.apply')}
          </Link>
        )}
        <SaveButton partnerId={university.id} name={university.name} saved={university.saved} />
      </div>
    </li>
  );
}
