import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CheckView, EligibilityView } from '@kaminuza/shared';
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

export function EligibilityBadge({ view }: { view: EligibilityView }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex rounded-full border px-2 py-0.5 text-sm font-medium ${TONE[view.status]}`}>
      {t(`eligibility.status.${view.status}`)}
    </span>
  );
}

function useCheckText() {
  const { t, i18n } = useTranslation();
  const number = numberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (check: CheckView): string => {
    switch (check.rule) {
      case 'standing_count':
        return t('eligibility.checks.standing_count', {
          standing: t(`eligibility.standings.${check.standing}`),
          needed: number.format(check.needed),
          have: number.format(check.have),
        });
      case 'subject_grade':
        return t(check.have === null ? 'eligibility.checks.subject_none' : 'eligibility.checks.subject', {
          subjects: check.subjects.join(t('eligibility.or')),
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
 * The answer and its reasons. `profileLink` offers the way to add results where there are none to judge
 * (not on screens that already are the profile).
 */
export function EligibilitySummary({ view, profileLink = true }: { view: EligibilityView; profileLink?: boolean }) {
  const { t } = useTranslation();
  const checkText = useCheckText();
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>
        <EligibilityBadge view={view} />
      </p>
      {view.basis === 'rules' && view.exam && <p>{t('eligibility.decided_by', { exam: view.exam })}</p>}
      {view.basis === 'no_requirements' && <p>{t('eligibility.basis.no_requirements')}</p>}
      {view.basis === 'no_results' && (
        <p>
          {t('eligibility.basis.no_results', { accepted: view.accepted.join(', ') })}{' '}
          {profileLink && (
            <Link className="underline" to="/profile?tab=education">
              {t('eligibility.add_results')}
            </Link>
          )}
        </p>
      )}
      {(view.basis === 'exam_not_listed' || view.basis === 'unknown_exam') && (
        <p>{t('eligibility.basis.exam_not_listed', { accepted: view.accepted.join(', ') })}</p>
      )}
      {view.checks.length > 0 && (
        <ul className="flex flex-col gap-1">
          {view.checks.map((check, index) => (
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
      )}
      {view.other && <p className="break-words">{t('eligibility.other', { other: view.other })}</p>}
    </div>
  );
}
