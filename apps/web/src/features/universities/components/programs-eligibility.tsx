import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EligibilitySummary } from '../../../components/eligibility/eligibility-summary.tsx';
import { useEligibility } from '../../../components/eligibility/use-eligibility.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';

/** The Academics tab, for a signed-in student: each program with whether they meet its entry requirements. */
export function ProgramsEligibility({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const query = useEligibility(partnerId);
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('eligibility.programs_title')}
      </h2>
      <p className="text-sm text-muted">{t('eligibility.programs_hint')}</p>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <div className="flex flex-col gap-2">
          <FormAlert>{t(errorMessageKey(query.error, { fallback: 'eligibility.failed' }))}</FormAlert>
          <button type="button" className="btn-secondary self-start" onClick={() => void query.refetch()}>
            {t('profile.retry')}
          </button>
        </div>
      ) : query.data.length === 0 ? (
        <p>{t('eligibility.programs_empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {query.data.map((program) => (
            <li key={program.program_id} className="flex flex-col gap-2 rounded-xl border border-border p-3">
              <h3 className="font-semibold break-words">
                {program.name}{' '}
                <span className="text-sm font-normal text-muted">
                  {t(`catalogue.programs.${program.level}`, { defaultValue: program.level })}
                </span>
              </h3>
              <EligibilitySummary view={program.eligibility} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
