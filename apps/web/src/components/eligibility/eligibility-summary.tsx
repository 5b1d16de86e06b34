import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CheckView, ConditionView, EligibilityView } from '@kaminuza/shared';
import { numberFormat } from '../../lib/intl.ts';

/*
 * Eligibility in plain words (issue 25): whether the applicant meets a program's entry requirements, and
 * each rule with what it needs and what the applicant has ("Mathematics: C6 or better needed, you have D7").
 */

const TONE: Record<EligibilityView['status'], string> = {
  eligible: 'border-success text-success',
  needs_review: 'border-accent',
  not_eligible: 'border-danger text-danger',
};

const MARK: Record<CheckView['outcome'], string> = { met: '✓', unmet: '✗', unknown: '?' };

/** Who reads it: the applicant ("you have") or the institution's staff ("the applicant has"). */
type Reader = 'applicant' | 'staff';
const contextOf = (reader: Reader) => (reader === 'staff' ? { context: 'staff' } : {});

export function EligibilityBadge({ view, reader = 'applicant' }: { view: EligibilityView; reader?: Reader }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex rounded-full border px-2 py-0.5 text-sm font-medium ${TONE[view.status]}`}>
      {t(`eligibility.status.${view.status}`, contextOf(reader))}
    </span>
  );
}

function useCheckText(reader: Reader) {
  const { t: translate, i18n } = useTranslation();
  const t = (key: string, values: Record<string, string>) => translate(key, { ...values, ...contextOf(reader) });
  const number = numberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (check: CheckView): string => {
    switch (check.rule) {
      case 'standing_count':
        return t('eligibility.checks.standing_count', {
          standing: translate(`eligibility.standings.${check.standing}`),
          needed: number.format(check.needed),
          have: number.format(check.have),
        });
      case 'subject_grade':
        return t(check.have === null ? 'eligibility.checks.subject_none' : 'eligibility.checks.subject', {
          subjects: check.subjects.join(translate('eligibility.or')),
          needed: check.needed,
          have: check.have ?? '',
        });
      case 'aggregate':
        return t(check.have === null ? 'eligibility.checks.aggregate_unknown' : 'eligibility.checks.aggregate', {
          label: check.label,
          needed: number.format(check.needed),
          have: check.have === null ? '' : number.format(check.have),
        });
      case 'class':
        return t(check.have === null ? 'eligibility.checks.aggregate_unknown' : 'eligibility.checks.aggregate', {
          label: check.label,
          needed: check.needed,
          have: check.have ?? '',
        });
    }
  };
}

/**
 * The answer and its reasons, to the applicant (with the way to add results where there are none to
 * judge) or to the institution's staff.
 */
export function EligibilitySummary({ view, reader = 'applicant' }: { view: EligibilityView; reader?: Reader }) {
  const { t: translate } = useTranslation();
  const t = (key: string, values: Record<string, string> = {}) => translate(key, { ...values, ...contextOf(reader) });
  // Staff have no profile to add results to.
  const profileLink = reader === 'applicant';
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <EligibilityBadge view={view} reader={reader} />
      </p>
      {view.basis === 'rules' && view.exam && <p>{t('eligibility.decided_by', { exam: view.exam })}</p>}
      {view.basis === 'no_requirements' && <p>{t('eligibility.basis.no_requirements')}</p>}
      {view.basis === 'no_results' && (
        <p>
          {t('eligibility.basis.no_results', { accepted: view.accepted.join(', ') })}{' '}
          {profileLink && (
            <Link className="underline" to="/profile?tab=education">
              {translate('eligibility.add_results')}
            </Link>
          )}
        </p>
      )}
      {(view.basis === 'exam_not_listed' || view.basis === 'unknown_exam') && (
        <p>{t('eligibility.basis.exam_not_listed', { accepted: view.accepted.join(', ') })}</p>
      )}
      <CheckList checks={view.checks} reader={reader} />
      {view.other && <p className="break-words">{t('eligibility.other', { other: view.other })}</p>}
    </div>
  );
}

/** Each rule with its mark (met, unmet, unknown) and in words what it needs and what the results have. */
function CheckList({ checks, reader }: { checks: readonly CheckView[]; reader: Reader }) {
  const { t } = useTranslation();
  const checkText = useCheckText(reader);
  if (checks.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1">
      {checks.map((check, index) => (
        <li key={index} className="flex gap-2">
          <span aria-hidden="true" className="w-4 shrink-0 text-center font-bold">
            {MARK[check.outcome]}
          </span>
          <span>
            <span className="sr-only">{t(`eligibility.outcome.${check.outcome}`)}: </span>
            {checkText(check)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * An offer's examination condition (issue 26) against the results as they stand: the examination, each
 * rule with what it needs and what the applicant has, and, for the applicant without results in it, the
 * way to add them.
 */
export function ConditionChecks({ view, reader = 'applicant' }: { view: ConditionView; reader?: Reader }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-1 text-sm">
      <p className="font-medium">{view.exam}</p>
      <CheckList checks={view.checks} reader={reader} />
      {!view.has_results &&
        (reader === 'applicant' ? (
          <p>
            {t('eligibility.condition_no_results', { exam: view.exam })}{' '}
            <Link className="underline" to="/profile?tab=education">
              {t('eligibility.add_results')}
            </Link>
          </p>
        ) : (
          <p>{t('eligibility.condition_no_results_staff', { exam: view.exam })}</p>
        ))}
    </div>
  );
}
