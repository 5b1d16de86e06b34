import { useTranslation } from 'react-i18next';
import type { ConditionView, ConditionsStatus, OfferCondition } from '@kaminuza/shared';
import { ConditionChecks } from './eligibility-summary.tsx';

/*
 * A conditional offer's conditions (issue 26, ADR 051), as the applicant and staff read them: each
 * written condition as written, each examination condition with its rules against the applicant's
 * results as they stand now, and where the conditions stand.
 */

type Reader = 'applicant' | 'staff';

const STATUS_TONE: Record<ConditionsStatus, string> = {
  pending: 'border-accent',
  met: 'border-success text-success',
  not_met: 'border-danger text-danger',
};

export function ConditionsStatusBadge({ status, reader }: { status: ConditionsStatus; reader: Reader }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-flex rounded-full border px-2 py-0.5 text-sm font-medium ${STATUS_TONE[status]}`}>
      {t(`offers.status.${status}`, reader === 'staff' ? { context: 'staff' } : {})}
    </span>
  );
}

export function OfferConditions({
  conditions,
  views,
  status,
  reader = 'applicant',
  headingId,
}: {
  conditions: readonly OfferCondition[];
  views: readonly (ConditionView | null)[];
  status: ConditionsStatus | null;
  reader?: Reader;
  /** The heading the list is labelled by, when the caller shows one. */
  headingId?: string;
}) {
  const { t } = useTranslation();
  if (conditions.length === 0 || !status) return null;
  return (
    <div className="flex flex-col gap-2">
      <p>
        <ConditionsStatusBadge status={status} reader={reader} />
      </p>
      <ol aria-labelledby={headingId} className="flex list-decimal flex-col gap-3 pl-5">
        {conditions.map((condition, index) => {
          const view = views[index] ?? null;
          return (
            <li key={index} className="break-words">
              {condition.kind === 'text' ? (
                <span className="whitespace-pre-line">{condition.text}</span>
              ) : view ? (
                <ConditionChecks view={view} reader={reader} />
              ) : (
                <span>{t('offers.exam_condition', { exam: condition.requirement.exam })}</span>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
