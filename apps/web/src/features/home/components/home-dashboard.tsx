import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { HomeFixPlace, HomeMissingItem, HomeNextStep, StudentHome } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { useHome } from '../api/get-home.ts';
import { dateTimeFormat, listFormat, numberFormat, timeZoneName } from '../../../lib/intl.ts';

const PLACE_PATH: Record<HomeFixPlace, string> = {
  onboarding: paths.student.onboarding,
  personal: paths.student.profile,
  education: `${paths.student.profile}?tab=education`,
  documents: `${paths.student.profile}?tab=documents`,
};

/** Dates in the student's own time zone (students.timezone) and the interface language. */
function useFormats(timezone: string) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    dateTime(iso: string) {
      const options = { dateStyle: 'long', timeStyle: 'short' } as const;
      try {
        return dateTimeFormat(language, { ...options, timeZone: timezone }).format(new Date(iso));
      } catch {
        return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(new Date(iso));
      }
    },
    money(amount: number, currency: string) {
      try {
        return numberFormat(language, { style: 'currency', currency }).format(amount);
      } catch {
        return `${amount} ${currency}`;
      }
    },
    /** The student's zone by its name ("Central Africa Time"), not its identifier. */
    zone: timeZoneName(language, timezone),
    list(items: string[]) {
      return listFormat(language, { type: 'conjunction' }).format(items);
    },
  };
}

function Skeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" className="mt-8 flex flex-col gap-4">
      <span className="sr-only">{t('loading.loading')}</span>
      <span aria-hidden="true" className="block h-24 animate-pulse rounded-2xl bg-surface-muted" />
      <span aria-hidden="true" className="block h-40 animate-pulse rounded-2xl bg-surface-muted" />
    </div>
  );
}

function Shortcuts() {
  const { t } = useTranslation();
  const id = useId();
  const links = [
    [paths.student.partners, 'home.shortcuts.explore'],
    [paths.student.applications, 'home.shortcuts.applications'],
    [paths.student.support, 'home.shortcuts.support'],
  ] as const;
  return (
    <nav aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-xl font-bold">
        {t('home.shortcuts_title')}
      </h2>
      <ul className="flex flex-wrap gap-3">
        {links.map(([to, key]) => (
          <li key={to}>
            <Link to={to} className="btn-secondary">
              {t(key)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function missingLabel(t: TFunction, item: HomeMissingItem): string {
  return item.kind === 'field'
    ? t(`home.fields.${item.field}`)
    : t('home.document_missing', { type: t(`documents.types.${item.type}`) });
}

function Completion({ home }: { home: StudentHome }) {
  const { t } = useTranslation();
  const id = useId();
  const { percent, missing } = home.completion;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-2xl border border-border bg-surface p-5">
      <h2 id={id} className="text-xl font-bold">
        {t('home.completion_title')}
      </h2>
      <p className="font-medium">{t('home.completion', { percent })}</p>
      <progress
        className="h-3 w-full overflow-hidden rounded-full accent-brand"
        max={100}
        value={percent}
        aria-label={t('home.completion_label')}
      />
      {missing.length === 0 ? (
        <p className="text-muted">{t('home.completion_done')}</p>
      ) : (
        <details className="group">
          <summary className="cursor-pointer font-medium">
            {t('home.missing_title')} ({missing.length})
          </summary>
          <ul className="mt-2 flex flex-col divide-y divide-border">
            {missing.map((item) => {
              const label = missingLabel(t, item);
              return (
                <li
                  key={item.kind === 'field' ? item.field : item.type}
                  className="flex flex-wrap items-center justify-between gap-2 py-2"
                >
                  <span className="break-words">{label}</span>
                  <Link to={PLACE_PATH[item.place]} className="link text-sm">
                    {t(`home.fix.${item.place}`)}
                    <span className="sr-only">: {label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </section>
  );
}

function Step({ text, to, action, children }: { text: string; to: string; action: string; children?: ReactNode }) {
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded-xl border border-border bg-surface p-4">
      <p className="font-medium break-words">{text}</p>
      {children}
      <Link to={to} className="link w-fit text-sm">
        {action}
        <span className="sr-only">: {text}</span>
      </Link>
    </li>
  );
}

function NextStep({ step, home }: { step: HomeNextStep; home: StudentHome }) {
  const { t } = useTranslation();
  const format = useFormats(home.timezone);
  switch (step.kind) {
    case 'onboarding':
      return (
        <Step
          text={t('home.steps.onboarding')}
          to={paths.student.onboarding}
          action={t('home.steps.onboarding_action')}
        />
      );
    case 'documents':
      return (
        <Step
          text={t('home.steps.documents', {
            list: format.list(step.types.map((type) => t(`documents.types.${type}`))),
          })}
          to={PLACE_PATH.documents}
          action={t('home.steps.documents_action')}
        />
      );
    case 'draft': {
      const text = t('home.steps.draft', {
        name: step.partner_name,
        program: step.program_name,
        percent: step.progress_percentage,
      });
      return (
        <Step text={text} to={paths.student.areaStep('form', step.partner_id)} action={t('home.steps.draft_action')}>
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-brand"
            max={100}
            value={step.progress_percentage}
            aria-label={t('home.progress_label', { name: step.partner_name })}
          />
        </Step>
      );
    }
    case 'pay':
      return (
        <Step
          text={t('home.steps.pay', { amount: format.money(step.amount, step.currency), name: step.partner_name })}
          to={paths.student.areaStep('form', step.partner_id)}
          action={t('home.steps.pay_action')}
        />
      );
    case 'deadline':
      return (
        <Step
          text={t('home.steps.deadline', { name: step.partner_name, date: format.dateTime(step.closes_at) })}
          to={paths.student.areaStep('form', step.partner_id)}
          action={t('home.steps.deadline_action')}
        />
      );
  }
}

const stepKey = (step: HomeNextStep) => ('application_id' in step ? `${step.kind}-${step.application_id}` : step.kind);

function NextSteps({ home }: { home: StudentHome }) {
  const { t } = useTranslation();
  const format = useFormats(home.timezone);
  const id = useId();
  const brandNew = home.next_steps[0]?.kind === 'onboarding' && home.next_steps[0].step === 0;
  const hasDeadline = home.next_steps.some((step) => step.kind === 'deadline');
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="text-xl font-bold">
        {t('home.next_title')}
      </h2>
      {brandNew ? (
        <EmptyState
          title={t('home.welcome_title')}
          text={t('home.welcome_text')}
          action={
            <Link to={paths.student.onboarding} className="btn-primary">
              {t('home.welcome_action')}
            </Link>
          }
        />
      ) : home.next_steps.length === 0 ? (
        <p className="text-muted">{t('home.next_none')}</p>
      ) : (
        <>
          <ol className="grid gap-3 lg:grid-cols-2">
            {home.next_steps.map((step) => (
              <NextStep key={stepKey(step)} step={step} home={home} />
            ))}
          </ol>
          {hasDeadline && <p className="text-sm text-muted">{t('home.timezone_note', { timezone: format.zone })}</p>}
        </>
      )}
    </section>
  );
}

/**
 * What the student should do now: how complete their profile is and what is missing (each with where
 * to fix it), their next steps in order, and shortcuts. One request (GET /students/me/home).
 */
export function HomeDashboard() {
  const { t } = useTranslation();
  const home = useHome();
  if (home.isPending) return <Skeleton />;
  if (home.isError) {
    return (
      <div className="mt-8 flex flex-col gap-2">
        <p className="font-medium">{t('home.load_failed')}</p>
        <LoadError error={home.error} retryLabel={t('home.retry')} onRetry={() => void home.refetch()} />
      </div>
    );
  }
  return (
    <div className="mt-8 flex flex-col gap-8">
      <NextSteps home={home.data} />
      <Completion home={home.data} />
      <Shortcuts />
    </div>
  );
}
