import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ApplyContext } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { useApplyContext } from '../api/get-apply-context.ts';
import { useStartApplication } from '../api/start-application.ts';
import { startDestination, viewPath, type ApplicationArea } from './application-routes.ts';
import { displayName } from '../../../lib/intl.ts';
import { useApplicationFormats } from './formats.ts';
import { QueryState, ViewFrame } from './view-frame.tsx';
import { InstitutionLogo } from '../../../components/institution-logo.tsx';
import { EligibilityBadge, EligibilitySummary } from '../../../components/eligibility/eligibility-summary.tsx';
import { useEligibility } from '../../../components/eligibility/use-eligibility.ts';

/** /partners/{id}/application: sends the student on, or lets them choose a program and a campus and start. */
export function StartScreen({ partnerId }: { partnerId: string }) {
  const query = useApplyContext(partnerId);
  return (
    <QueryState area="partner" partnerId={partnerId} query={query}>
      {() => {
        const context = query.data!;
        const destination = startDestination(context);
        if (destination !== 'start') return <Navigate replace to={viewPath('partner', partnerId, destination)} />;
        return <StartForm context={context} area="partner" />;
      }}
    </QueryState>
  );
}

function StartForm({ context, area }: { context: ApplyContext; area: ApplicationArea }) {
  const { t } = useTranslation();
  const format = useApplicationFormats();
  const navigate = useNavigate();
  const start = useStartApplication(context.partner.id);
  // Before choosing (and paying): whether the applicant meets each program's entry requirements.
  const eligibility = useEligibility(context.partner.id);
  const eligibilityOf = (id: string) => eligibility.data?.find((entry) => entry.program_id === id)?.eligibility ?? null;
  const programsId = useId();
  const campusesId = useId();
  const campusErrorId = useId();
  const firstCampus = useRef<HTMLInputElement>(null);
  // Start pressed without a campus of a program taught at several: said next to the choice, which gets focus.
  const [campusAsked, setCampusAsked] = useState(0);
  const [programId, setProgramId] = useState<string | null>(
    context.programs.length === 1 ? context.programs[0]!.id : null,
  );
  const [chosenCampus, setCampus] = useState<string | null>(null);
  const program = context.programs.find((candidate) => candidate.id === programId) ?? null;
  const chosenEligibility = programId ? eligibilityOf(programId) : null;
  // One campus needs no choice; a campus of another program is no choice at all.
  const campusId =
    program?.campuses.length === 1
      ? program.campuses[0]!.id
      : program?.campuses.some((campus) => campus.id === chosenCampus)
        ? chosenCampus
        : null;
  const campusMissing = campusAsked > 0 && program !== null && program.campuses.length > 1 && campusId === null;
  useEffect(() => {
    if (campusAsked > 0) firstCampus.current?.focus();
  }, [campusAsked]);
  const cycle = context.cycle!;
  const { partner, fee } = context;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!programId) return;
    // The campus is the applicant's to choose, never picked for them.
    if (program && program.campuses.length > 1 && campusId === null) {
      setCampusAsked((count) => count + 1);
      return;
    }
    start.mutate(
      { program_id: programId, campus_id: campusId },
      {
        onSuccess: () => void navigate(viewPath(area, partner.id, 'form')),
        onError: (error) => {
          if (hasReason(error, 'cycle_closed')) {
            void navigate(viewPath(area, partner.id, 'closed'), { replace: true });
          }
        },
      },
    );
  };

  return (
    <ViewFrame theme={partner.theme}>
      <Link to={paths.student.university(partner.id)} className="link self-start text-sm">
        {t('applications.links.university', { name: partner.name })}
      </Link>
      <header className="institution-band flex min-w-0 gap-4 p-4">
        <InstitutionLogo
          src={partner.logo_url}
          name={partner.name}
          className="size-14 rounded-xl"
          letterClassName="bg-surface text-2xl"
        />
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight break-words">
            {t('applications.start.title', { name: partner.name })}
          </h1>
          <p>{t('applications.start.cycle', { cycle: cycle.name, date: format.day(cycle.closes_on) })}</p>
        </div>
      </header>
      <p className="rounded-xl border border-border bg-surface p-4">
        {fee.amount > 0
          ? t('applications.start.fee', { amount: format.money(fee.amount, fee.currency) })
          : t('applications.payment.no_fee')}
      </p>

      {context.programs.length === 0 ? (
        <p>{t('applications.start.no_programs')}</p>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-6" noValidate>
          <fieldset className="flex min-w-0 flex-col gap-3" aria-describedby={programsId}>
            <legend className="mb-1 text-xl font-semibold">{t('applications.start.program')}</legend>
            <p id={programsId} className="text-sm text-muted">
              {t('applications.start.program_hint')}
            </p>
            {context.programs.map((candidate) => (
              <label
                key={candidate.id}
                className="flex min-w-0 cursor-pointer gap-3 rounded-xl border border-border bg-surface p-4 has-[:checked]:border-brand has-[:checked]:ring-2 has-[:checked]:ring-brand"
              >
                <input
                  type="radio"
                  name="program"
                  className="mt-1 size-5 shrink-0 accent-brand"
                  checked={programId === candidate.id}
                  onChange={() => {
                    setProgramId(candidate.id);
                    setCampusAsked(0);
                  }}
                />
                <span className="flex min-w-0 flex-col">
                  <span className="font-semibold break-words">{candidate.name}</span>
                  <span className="text-sm text-muted">
                    {t('applications.start.program_facts', {
                      level: t(`catalogue.programs.${candidate.level}`, { defaultValue: candidate.level }),
                      months: candidate.duration_months,
                      language: displayName(format.lang, 'language', candidate.language),
                    })}
                  </span>
                  {eligibilityOf(candidate.id) && (
                    <span className="mt-2">
                      <EligibilityBadge view={eligibilityOf(candidate.id)!} />
                    </span>
                  )}
                </span>
              </label>
            ))}
          </fieldset>
          {chosenEligibility && (
            <section
              aria-label={t('eligibility.review_title')}
              className="rounded-xl border border-border bg-surface p-4"
            >
              <EligibilitySummary view={chosenEligibility} />
            </section>
          )}

          {program && program.campuses.length > 1 && (
            <fieldset
              role="radiogroup"
              aria-required="true"
              aria-invalid={campusMissing || undefined}
              className="flex min-w-0 flex-col gap-3"
              aria-describedby={campusMissing ? `${campusesId} ${campusErrorId}` : campusesId}
            >
              <legend className="mb-1 text-xl font-semibold">{t('applications.start.campus')}</legend>
              <p id={campusesId} className="text-sm text-muted">
                {t('applications.start.campus_hint')}
              </p>
              {campusMissing && (
                <p id={campusErrorId} className="text-sm font-medium text-danger">
                  {t('applications.start.campus_missing')}
                </p>
              )}
              {program.campuses.map((campus, index) => (
                <label
                  key={campus.id}
                  className="flex min-w-0 cursor-pointer gap-3 rounded-xl border border-border bg-surface p-4 has-[:checked]:border-brand"
                >
                  <input
                    ref={index === 0 ? firstCampus : undefined}
                    type="radio"
                    name="campus"
                    className="mt-1 size-5 shrink-0 accent-brand"
                    checked={campusId === campus.id}
                    onChange={() => setCampus(campus.id)}
                  />
                  <span className="flex min-w-0 flex-col">
                    <span className="font-semibold break-words">{campus.name}</span>
                    <span className="text-sm text-muted">{campus.city}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {program && program.campuses.length === 1 && (
            <p>{t('applications.start.only_campus', { campus: program.campuses[0]!.name })}</p>
          )}

          {start.isError && <FormAlert>{t(errorMessageKey(start.error))}</FormAlert>}
          <button type="submit" className="btn-primary self-start" disabled={!programId || start.isPending}>
            {t('applications.start.submit')}
          </button>
        </form>
      )}
    </ViewFrame>
  );
}
