import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnswerValue, SubmissionReceipt } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { ApplicationFormView } from '../../../components/application-form/application-form-view.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError, hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { isLanguage } from '../../../lib/languages.ts';
import { useOnBehalfForm } from '../api/get-form.ts';
import { useSubmitOnBehalf } from '../api/submit-on-behalf.ts';
import { answerErrorsOf, checkAnswers, staffSections, type ApplicantForm } from './on-behalf-form.ts';
import type { ProgramChoice } from './program-step.tsx';

/** Step 3: the program's form in the member's language, without its document questions, then submit. */
export function AnswersStep({
  partnerId,
  applicant,
  choice,
  onBack,
  onSubmitted,
}: {
  partnerId: string;
  applicant: ApplicantForm;
  choice: ProgramChoice;
  onBack: () => void;
  onSubmitted: (receipt: SubmissionReceipt) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const form = useOnBehalfForm(partnerId, choice.program.id);
  const submit = useSubmitOnBehalf(partnerId);
  const [values, setValues] = useState<Record<string, AnswerValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const all = form.data?.form.sections;
  const sections = useMemo(() => staffSections(all ?? []), [all]);
  const questionIds = useMemo(
    () => new Set(sections.flatMap((section) => section.questions.map((question) => question.id))),
    [sections],
  );
  const filesLeftOut = (all ?? []).some((section) => section.questions.some((question) => question.type === 'file'));
  const back = (
    <button type="button" className="btn-secondary" onClick={onBack}>
      {t('on_behalf.back')}
    </button>
  );

  if (form.isPending) return <Spinner />;
  if (form.isError) {
    const noForm = hasReason(form.error, 'no_form');
    return (
      <div className="flex flex-col items-start gap-4">
        {noForm ? (
          <EmptyState
            title={t('on_behalf.answers.no_form_title')}
            text={t('applications.errors.no_form')}
            action={
              <Link to={paths.partner.forms} className="btn-primary">
                {t('on_behalf.answers.open_forms')}
              </Link>
            }
          />
        ) : (
          <LoadError error={form.error} retryLabel={t('on_behalf.retry')} onRetry={() => void form.refetch()} />
        )}
        {back}
      </div>
    );
  }

  const change = (questionId: string, value: AnswerValue | undefined) => {
    setValues((current) => {
      const { [questionId]: _previous, ...rest } = current;
      return value === undefined ? rest : { ...rest, [questionId]: value };
    });
    if (errors[questionId]) setErrors(({ [questionId]: _fixed, ...rest }) => rest);
    // A refusal describes the answers it was given; once they change it no longer applies.
    if (submit.isError) submit.reset();
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    const checked = checkAnswers(sections, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    submit.mutate(
      { applicant, program_id: choice.program.id, campus_id: choice.campus.id, answers: checked.answers },
      {
        onSuccess: onSubmitted,
        onError: (error) => setErrors(error instanceof ApiError ? answerErrorsOf(error.details, questionIds) : {}),
      },
    );
  };

  const invalid = Object.keys(errors).length;
  const name = `${applicant.first_name} ${applicant.last_name}`;
  return (
    <form noValidate aria-label={t('on_behalf.answers.form_label')} onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="break-words text-muted">
        {t('on_behalf.answers.for', { name, program: choice.program.name, campus: choice.campus.name })}
      </p>
      {filesLeftOut && <p className="text-sm text-muted">{t('on_behalf.answers.no_files')}</p>}
      <ApplicationFormView
        sections={sections}
        language={language}
        values={values}
        errors={errors}
        onChange={change}
        documents={[]}
      />
      {invalid > 0 && <FormAlert>{t('on_behalf.answers.invalid', { count: invalid })}</FormAlert>}
      {submit.isError && invalid === 0 && <FormAlert>{t(errorMessageKey(submit.error))}</FormAlert>}
      <div className="flex flex-wrap justify-between gap-2">
        {back}
        <button type="submit" className="btn-primary" disabled={submit.isPending} aria-busy={submit.isPending}>
          {submit.isPending ? t('on_behalf.answers.submitting') : t('on_behalf.answers.submit')}
        </button>
      </div>
    </form>
  );
}
