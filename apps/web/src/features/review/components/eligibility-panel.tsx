import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewApplication } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EligibilitySummary } from '../../../components/eligibility/eligibility-summary.tsx';
import { ExamSittingSummary, sittingTitle } from '../../../components/exam-sitting-summary.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useVerifyExamSitting } from '../api/verify-exam-sitting.ts';

/*
 * Entry requirements (issue 25): eligibility for the program as it stood when the applicant submitted,
 * and the applicant's examination results as they stand now, each verifiable against its document.
 */
export function EligibilityPanel({ partnerId, application }: { partnerId: string; application: ReviewApplication }) {
  const { t } = useTranslation();
  const headingId = useId();
  const resultsId = useId();
  const verify = useVerifyExamSitting(partnerId, application.id);
  const [confirming, setConfirming] = useState<string | null>(null);
  const sittings = application.exam_sittings ?? [];
  const chosen = sittings.find((sitting) => sitting.id === confirming) ?? null;
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby={headingId}
        className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      >
        <h2 id={headingId} className="text-lg font-semibold">
          {t('review.eligibility.title')}
        </h2>
        {application.eligibility ? (
          <>
            <p className="text-sm text-muted">{t('review.eligibility.when_submitted')}</p>
            <EligibilitySummary view={application.eligibility} reader="staff" />
          </>
        ) : (
          <p className="text-muted">{t('review.eligibility.none')}</p>
        )}
      </section>
      <section aria-labelledby={resultsId} className="flex flex-col gap-3">
        <h2 id={resultsId} className="text-lg font-semibold">
          {t('review.eligibility.results_title')}
        </h2>
        <p className="text-sm text-muted">{t('review.eligibility.results_hint')}</p>
        {sittings.length === 0 ? (
          <p className="text-muted">{t('review.eligibility.no_results')}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {sittings.map((sitting) => (
              <li key={sitting.id} className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-3">
                <ExamSittingSummary sitting={sitting} />
                {sitting.verified ? (
                  <p className="text-sm font-medium text-success">
                    {t('profile.exams.verified', { institution: sitting.verified.by })}
                  </p>
                ) : (
                  <button
                    type="button"
                    className="btn-secondary self-start"
                    aria-label={t('review.eligibility.verify', { exam: sittingTitle(sitting) })}
                    onClick={() => {
                      verify.reset();
                      setConfirming(sitting.id);
                    }}
                  >
                    {t('review.eligibility.verify_short')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {chosen && (
        <ConfirmDialog
          tone="primary"
          title={t('review.eligibility.verify_title', { exam: sittingTitle(chosen) })}
          description={t('review.eligibility.verify_description')}
          confirmLabel={t('review.eligibility.verify_confirm')}
          cancelLabel={t('review.cancel')}
          pending={verify.isPending}
          error={verify.isError ? t(errorMessageKey(verify.error)) : undefined}
          onClose={() => setConfirming(null)}
          onConfirm={() => verify.mutate(chosen.id, { onSuccess: () => setConfirming(null) })}
        />
      )}
      {verify.isSuccess && !chosen && <FormAlert tone="success">{t('review.eligibility.verified')}</FormAlert>}
    </div>
  );
}
