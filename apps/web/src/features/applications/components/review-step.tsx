import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  localized,
  messageKey,
  type ApplicationDocument,
  type EligibilityView,
  type FormSection,
  type Language,
} from '@kaminuza/shared';
import { EligibilitySummary } from '../../../components/eligibility/eligibility-summary.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { shownAnswer } from '../../../components/application-form/shown-answer.ts';
import type { Answers } from './use-draft-autosave.ts';

export interface ReviewStepProps {
  sections: readonly FormSection[];
  answers: Answers;
  language: Language;
  documents: readonly ApplicationDocument[];
  /** Question id → refusal (the client check, then the server's). */
  issues: Readonly<Record<string, string>>;
  /** Reasons submitting is not possible yet, translated (no campus, fee unpaid). */
  blockers: readonly string[];
  submitting: boolean;
  /** Submitting needs the server: offline the button waits, and says why. */
  online: boolean;
  error: string | null;
  onEdit: (sectionIndex: number, questionId?: string) => void;
  onSubmit: () => void;
  /** Whether the applicant meets the program's entry requirements (null: not known here). */
  eligibility?: EligibilityView | null;
}

/** Every answer read-only, what still needs attention (with links to it), and Submit application. */
export function ReviewStep(props: ReviewStepProps) {
  const { sections, answers, language, documents, issues, blockers, submitting, online, error, onEdit, onSubmit } =
    props;
  const eligibility = props.eligibility ?? null;
  const eligibilityId = useId();
  const { t } = useTranslation();
  const yesNo = (value: boolean) => t(value ? 'application_form.yes' : 'application_form.no');
  const translate = (text: string) => {
    const key = messageKey(text);
    return key ? t(key) : text;
  };
  const attention = sections.flatMap((section, index) =>
    section.questions
      .filter((question) => question.id in issues)
      .map((question) => ({ section: index, question, message: issues[question.id]! })),
  );
  const ready = attention.length === 0 && blockers.length === 0;

  return (
    <div className="flex flex-col gap-6">
      {!ready && (
        <div className="flex flex-col gap-2 rounded-xl border border-danger bg-surface p-4">
          <h3 className="font-semibold">{t('applications.review.attention')}</h3>
          <ul className="flex list-disc flex-col gap-1 ps-5">
            {blockers.map((blocker) => (
              <li key={blocker}>{blocker}</li>
            ))}
            {attention.map(({ section, question, message }) => (
              <li key={question.id}>
                <button type="button" className="link text-start" onClick={() => onEdit(section, question.id)}>
                  {localized(question.label, language)}
                </button>
                {' — '}
                {translate(message)}
              </li>
            ))}
          </ul>
        </div>
      )}

      {eligibility && (
        <section
          aria-labelledby={eligibilityId}
          className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
        >
          <h3 id={eligibilityId} className="text-lg font-semibold">
            {t('eligibility.review_title')}
          </h3>
          <EligibilitySummary view={eligibility} />
        </section>
      )}

      {sections.map((section, index) => (
        <section
          key={section.id}
          className="flex min-w-0 flex-col gap-3 rounded-xl border border-border bg-surface p-4"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-lg font-semibold break-words">{localized(section.title, language)}</h3>
            <button
              type="button"
              className="btn-secondary"
              aria-label={t('applications.review.edit_section', { section: localized(section.title, language) })}
              onClick={() => onEdit(index)}
            >
              {t('applications.review.edit')}
            </button>
          </div>
          <dl className="flex flex-col gap-3">
            {section.questions.map((question) => {
              const value = answers[question.id];
              return (
                <div key={question.id} className="min-w-0">
                  <dt className="text-sm text-muted break-words">{localized(question.label, language)}</dt>
                  <dd className="break-words whitespace-pre-line">
                    {value === undefined ? (
                      <span className="text-muted italic">{t('applications.review.not_answered')}</span>
                    ) : (
                      shownAnswer(question, value, language, documents, yesNo, (ids) =>
                        t('applications.review.referees_invited', { count: ids.length }),
                      )
                    )}
                    {question.id in issues && (
                      <span className="block text-sm font-medium text-danger">{translate(issues[question.id]!)}</span>
                    )}
                  </dd>
                </div>
              );
            })}
          </dl>
        </section>
      ))}

      {error && <FormAlert>{error}</FormAlert>}
      {!online && (
        <p id="submit-offline" className="rounded-xl border border-accent bg-surface p-3 text-sm">
          {t('applications.review.offline')}
        </p>
      )}
      <button
        type="button"
        className="btn-primary self-start"
        disabled={!ready || submitting || !online}
        aria-describedby={online ? undefined : 'submit-offline'}
        onClick={onSubmit}
      >
        {t(submitting ? 'applications.review.submitting' : 'applications.review.submit')}
      </button>
    </div>
  );
}
