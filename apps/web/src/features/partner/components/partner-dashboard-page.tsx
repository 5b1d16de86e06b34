import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission, type PartnerProfile } from '@kaminuza/shared';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOwnPartnerProfile } from '../api/get-partner-profile.ts';
import { useReadiness } from '../api/get-readiness.ts';
import { useStaffRequests } from '../api/get-staff-requests.ts';

/** What students need before a listing is useful: the profile facts the catalogue filters and shows. */
export function missingProfileFacts(profile: PartnerProfile): string[] {
  const missing: string[] = [];
  if (!profile.description) missing.push('description');
  if (!profile.contact_email) missing.push('contact_email');
  if (profile.fields.length === 0) missing.push('fields');
  if (profile.program_levels.length === 0) missing.push('program_levels');
  if (profile.total_enrollment === 0) missing.push('total_enrollment');
  return missing;
}

/** The partner dashboard's overview: the institution, its state and what is left to do. */
export function PartnerDashboardPage() {
  const { t } = useTranslation();
  const { partnerId, profile } = useOwnPartnerProfile();

  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">{t('partner.dashboard.title')}</h1>
      {profile.isPending && <Spinner />}
      {profile.isError && <FormAlert>{t(errorMessageKey(profile.error))}</FormAlert>}
      {profile.data && <Overview profile={profile.data} />}
      <Readiness partnerId={partnerId} />
      <JoinRequestsLink partnerId={partnerId} />
      <OnBehalfLink />
    </div>
  );
}

/** For members who may submit for applicants: where to do it (spec section 6). */
function OnBehalfLink() {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.dashboard.on_behalf' });
  const { session } = useSession();
  if (session.status !== 'signed-in' || !holdsPermission(session.user.staff_permissions, 'submit_applications')) {
    return null;
  }
  return (
    <section aria-labelledby="on-behalf-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="on-behalf-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="mt-2 text-muted">{t('text')}</p>
      <Link to={paths.partner.onBehalf} className="btn-secondary mt-4 inline-flex">
        {t('open')}
      </Link>
    </section>
  );
}

/** How many people wait to join, for members who decide; the requests themselves are on the Team page. */
function JoinRequestsLink({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.requests' });
  const { session } = useSession();
  const decides =
    session.status === 'signed-in' && holdsPermission(session.user.staff_permissions ?? [], 'manage_team');
  const requests = useStaffRequests(partnerId, decides);
  if (!decides || !requests.data) return null;
  const count = requests.data.length;
  return (
    <section aria-labelledby="requests-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="requests-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="mt-2 text-muted">{count > 0 ? t('waiting', { count }) : t('empty')}</p>
      <Link to={`${paths.partner.team}?tab=requests`} className="btn-secondary mt-4 inline-flex">
        {t('open')}
      </Link>
    </section>
  );
}

function Overview({ profile }: { profile: PartnerProfile }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.dashboard' });
  const { t: tRoot } = useTranslation();
  const missing = missingProfileFacts(profile);
  const checklist = [
    { key: 'profile_complete', done: missing.length === 0 },
    { key: 'published', done: profile.published },
  ];
  return (
    <section aria-labelledby="overview-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="overview-title" className="text-xl font-semibold break-words">
        {profile.name}
      </h2>
      <dl className="mt-4 grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="font-medium">{t('status')}</dt>
        <dd>{tRoot(`partner.statuses.${profile.status}`)}</dd>
        <dt className="font-medium">{t('visibility')}</dt>
        <dd>{profile.published ? t('published') : t('not_published')}</dd>
        <dt className="font-medium">{t('location')}</dt>
        <dd className="break-words">
          {profile.address_city}, {profile.address_country}
        </dd>
      </dl>
      <h3 className="mt-6 font-semibold">{t('checklist')}</h3>
      <ul className="mt-2 flex flex-col gap-2">
        {checklist.map((item) => (
          <ChecklistItem key={item.key} done={item.done} label={t(`items.${item.key}`)} />
        ))}
      </ul>
      {missing.length > 0 && (
        <p className="mt-3 text-sm text-muted">
          {t('missing', { fields: missing.map((field) => tRoot(`partner.profile.fields.${field}`)).join(', ') })}
        </p>
      )}
      <Link to={paths.partner.profile} className="btn-primary mt-5 inline-flex">
        {t('edit_profile')}
      </Link>
    </section>
  );
}

/** One step of a checklist: a mark, its name, whether it is done, and where to do it while it is not. */
function ChecklistItem({ done, label, to, action }: { done: boolean; label: string; to?: string; action?: string }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.dashboard' });
  return (
    <li className="flex flex-wrap items-start gap-2">
      <span
        aria-hidden="true"
        className={`mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${done ? 'bg-brand text-white' : 'border border-border'}`}
      >
        {done ? '✓' : ''}
      </span>
      <span className="min-w-0 flex-1 break-words">
        {label} <span className="text-muted">({done ? t('done') : t('to_do')})</span>
      </span>
      {!done && to && action && (
        <Link to={to} className="text-sm font-medium text-brand underline">
          {action}
        </Link>
      )}
    </li>
  );
}

/** Whether students can apply now, and the setup steps left before they can. */
function Readiness({ partnerId }: { partnerId: string }) {
  const { t } = useTranslation(undefined, { keyPrefix: 'partner.dashboard.readiness' });
  const readiness = useReadiness(partnerId);
  const data = readiness.data;
  const cycle = data?.current_cycle;
  const steps = data
    ? [
        { key: 'published', done: data.published, to: paths.partner.profile },
        { key: 'campus', done: data.campuses > 0, to: `${paths.partner.programs}?tab=campuses` },
        { key: 'program', done: data.programs > 0, to: paths.partner.programs },
        { key: 'cycle', done: Boolean(cycle?.accepting_applications), to: paths.partner.cycles },
        { key: 'open_programs', done: Boolean(cycle && cycle.open_programs > 0), to: paths.partner.cycles },
        { key: 'form', done: Boolean(cycle && cycle.forms > 0), to: paths.partner.forms },
      ]
    : [];
  return (
    <section aria-labelledby="readiness-title" className="rounded-2xl border border-border bg-surface p-5 sm:p-6">
      <h2 id="readiness-title" className="text-xl font-semibold">
        {t('title')}
      </h2>
      {readiness.isPending && <Spinner />}
      {readiness.isError && <FormAlert>{t('error')}</FormAlert>}
      {data && (
        <>
          <p className="mt-2 font-medium" role="status">
            {data.ready ? t('ready') : t('not_ready', { count: steps.filter((step) => !step.done).length })}
          </p>
          {cycle && <p className="mt-1 text-sm text-muted break-words">{t('current_cycle', { name: cycle.name })}</p>}
          <ul className="mt-3 flex flex-col gap-2">
            {steps.map((step) => (
              <ChecklistItem
                key={step.key}
                done={step.done}
                label={t(`steps.${step.key}`)}
                to={step.to}
                action={t(`actions.${step.key}`)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
