import { useId, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SITTING_LIMITS, VALIDATION_MESSAGES, type StudentProfile } from '@kaminuza/shared';
import {
  OTHER_EXAM,
  examSittingInputSchema,
  examSystem,
  examSystems,
  scaleOf,
  type ExamSitting,
} from '@kaminuza/shared/exams';
import { ExamSittingSummary, examLabel, sittingTitle } from '../../../components/exam-sitting-summary.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert, SelectField, TextField, useMessage } from '../../../components/form/field.tsx';
import { FieldMessage } from '../../../components/profile-fields/field-message.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { useChangeSittings } from '../api/exam-sittings.ts';
import { useDocuments } from '../api/get-documents.ts';
import {
  emptyResult,
  emptySitting,
  formPathOf,
  sittingFormValues,
  subjectIdOf,
  toSittingInput,
  type SittingFormValues,
} from './sitting-form.ts';

/*
 * National examination results on the Education tab (issue 25): each sitting entered with its subjects
 * and grades from the examination's own scale, saved on its own, and locked once an institution has
 * verified it against the attached document.
 */

export function ExamSittingsSection({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const headingId = useId();
  const sittings = profile.exam_sittings;
  const close = (saved: string | null) => {
    setEditing(null);
    setNotice(saved);
  };
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        {t('profile.exams.title')}
      </h2>
      <p className="text-sm text-muted">{t('profile.exams.hint')}</p>
      {notice && <FormAlert tone="success">{notice}</FormAlert>}
      {sittings.length === 0 && editing !== 'new' && <p className="text-sm text-muted">{t('profile.exams.empty')}</p>}
      <ul className="flex flex-col gap-3">
        {sittings.map((sitting) => (
          <li key={sitting.id}>
            {editing === sitting.id ? (
              <SittingForm sitting={sitting} onDone={close} />
            ) : (
              <SittingCard
                sitting={sitting}
                onEdit={() => {
                  setNotice(null);
                  setEditing(sitting.id);
                }}
                onRemoved={() => setNotice(t('profile.exams.removed'))}
                disabled={editing !== null}
              />
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <SittingForm sitting={null} onDone={close} />
      ) : (
        sittings.length < SITTING_LIMITS.sittings && (
          <button
            type="button"
            className="btn-secondary self-start"
            disabled={editing !== null}
            onClick={() => {
              setNotice(null);
              setEditing('new');
            }}
          >
            {t('profile.exams.add')}
          </button>
        )
      )}
    </section>
  );
}

function SittingCard({
  sitting,
  onEdit,
  onRemoved,
  disabled,
}: {
  sitting: ExamSitting;
  onEdit: () => void;
  onRemoved: () => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const change = useChangeSittings();
  const online = useOnline();
  const title = sittingTitle(sitting);
  return (
    <article className="flex flex-col gap-2 rounded-xl border border-border p-3" aria-label={title}>
      {sitting.verified && (
        <span className="self-start rounded-full bg-surface-muted px-2 py-0.5 text-sm">
          {t('profile.exams.verified', { institution: sitting.verified.by })}
        </span>
      )}
      <ExamSittingSummary sitting={sitting} />
      {sitting.verified ? (
        <p className="text-sm text-muted">{t('profile.exams.verified_hint')}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary" disabled={disabled} onClick={onEdit}>
            {t('profile.exams.edit')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={disabled || !online}
            onClick={() => setConfirming(true)}
          >
            {t('profile.exams.remove')}
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('profile.exams.remove_title', { exam: title })}
          description={t('profile.exams.remove_description')}
          confirmLabel={t('profile.exams.remove')}
          cancelLabel={t('profile.exams.cancel')}
          pending={change.isPending}
          error={change.isError ? t(errorMessageKey(change.error)) : undefined}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            change.mutate(
              { action: 'remove', id: sitting.id },
              {
                onSuccess: () => {
                  setConfirming(false);
                  onRemoved();
                },
              },
            )
          }
        />
      )}
    </article>
  );
}

function SittingForm({ sitting, onDone }: { sitting: ExamSitting | null; onDone: (saved: string | null) => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const online = useOnline();
  const change = useChangeSittings();
  const documents = useDocuments();
  const offlineId = useId();
  const form = useForm<SittingFormValues>({
    defaultValues: sitting ? sittingFormValues(sitting, examSystem(sitting.exam)) : emptySitting(),
  });
  const { register, control, formState, setError } = form;
  const rows = useFieldArray({ control, name: 'results' });
  const exam = useWatch({ control, name: 'exam' });
  const results = useWatch({ control, name: 'results' });
  const system = exam && exam !== OTHER_EXAM ? examSystem(exam) : null;
  const subjectsId = useId();
  const { errors } = formState;
  const uploaded = (documents.data ?? []).filter((document) => document.status !== 'not_uploaded');

  const onSubmit = form.handleSubmit((values) => {
    const input = toSittingInput(values, system);
    const parsed = examSittingInputSchema(examSystem).safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        setError(formPathOf(issue.path.join('.'), values) as Path<SittingFormValues>, { message: issue.message });
      return;
    }
    const saved = sitting ? t('profile.exams.saved') : t('profile.exams.added');
    change.mutate(
      sitting ? { action: 'change', id: sitting.id, input: parsed.data } : { action: 'add', input: parsed.data },
      {
        onSuccess: () => onDone(saved),
        onError: (error) => {
          for (const [path, text] of Object.entries(fieldErrors(error)))
            setError(formPathOf(path, values) as Path<SittingFormValues>, { message: text });
        },
      },
    );
  });

  const failure =
    change.isError && Object.keys(fieldErrors(change.error)).length === 0 ? t(errorMessageKey(change.error)) : null;
  const resultErrors = errors.results;
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4 rounded-xl border border-accent p-3"
      aria-label={sitting ? t('profile.exams.edit_title') : t('profile.exams.add_title')}
    >
      {Object.keys(errors).length > 0 && <FormAlert>{message(VALIDATION_MESSAGES.general)}</FormAlert>}
      {failure && <FormAlert>{failure}</FormAlert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('profile.exams.examination')}
          placeholder={t('onboarding.choose')}
          options={[
            ...examSystems().map((candidate) => ({ value: candidate.id, label: examLabel(candidate) })),
            { value: OTHER_EXAM, label: t('profile.exams.other_exam') },
          ]}
          error={errors.exam?.message}
          {...register('exam')}
        />
        <TextField
          label={t('profile.exams.year')}
          inputMode="numeric"
          autoComplete="off"
          error={errors.year?.message}
          {...register('year')}
        />
        {exam === OTHER_EXAM && (
          <>
            <TextField
              label={t('profile.exams.other_name')}
              error={errors.other_name?.message}
              {...register('other_name')}
            />
            <TextField label={t('profile.exams.overall')} error={errors.overall?.message} {...register('overall')} />
          </>
        )}
        <TextField
          label={t('profile.exams.index_number')}
          optional
          autoComplete="off"
          error={errors.index_number?.message}
          {...register('index_number')}
        />
        <SelectField
          label={t('profile.exams.document')}
          placeholder={t('profile.exams.no_document')}
          hint={uploaded.length === 0 ? t('profile.exams.document_hint') : undefined}
          options={uploaded.map((document) => ({
            value: document.type,
            label: `${t(`documents.types.${document.type}`)} — ${document.file_name ?? ''}`,
          }))}
          error={errors.document_type?.message}
          {...register('document_type')}
        />
        {system?.aggregate.method === 'declared' && (
          <TextField
            label={t('profile.exams.declared', { label: system.aggregate.label })}
            inputMode="decimal"
            optional
            error={errors.declared?.message}
            {...register('declared')}
          />
        )}
      </div>
      {system && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 font-semibold">{t('profile.exams.subjects')}</legend>
          {resultErrors?.message && <FieldMessage text={resultErrors.message} />}
          {resultErrors?.root?.message && <FieldMessage text={resultErrors.root.message} />}
          <datalist id={subjectsId}>
            {[...system.subjects]
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((subject) => (
                <option key={subject.id} value={subject.name} />
              ))}
          </datalist>
          {rows.fields.map((row, index) => {
            const typed = results?.[index]?.subject ?? '';
            const scale = scaleOf(system, subjectIdOf(system, typed));
            const rowErrors = resultErrors?.[index];
            return (
              <div key={row.id} className="grid grid-cols-[1fr_7rem] items-start gap-2 sm:grid-cols-[1fr_8rem_auto]">
                <TextField
                  label={t('profile.exams.subject', { number: index + 1 })}
                  list={subjectsId}
                  autoComplete="off"
                  error={rowErrors?.subject?.message}
                  {...register(`results.${index}.subject`)}
                />
                {scale.kind === 'grades' ? (
                  <SelectField
                    label={t('profile.exams.grade', { number: index + 1 })}
                    placeholder={t('onboarding.choose')}
                    options={scale.grades.map((grade) => ({ value: grade.grade, label: grade.grade }))}
                    error={rowErrors?.grade?.message}
                    {...register(`results.${index}.grade`)}
                  />
                ) : (
                  <TextField
                    label={t('profile.exams.mark', { number: index + 1, min: scale.min, max: scale.max })}
                    inputMode="decimal"
                    error={rowErrors?.grade?.message}
                    {...register(`results.${index}.grade`)}
                  />
                )}
                <button
                  type="button"
                  className="btn-secondary col-span-2 justify-self-start sm:col-span-1 sm:mt-7"
                  onClick={() => rows.remove(index)}
                  aria-label={t('profile.exams.remove_subject', { number: index + 1 })}
                >
                  {t('profile.exams.remove_subject_short')}
                </button>
              </div>
            );
          })}
          {rows.fields.length < SITTING_LIMITS.subjects && (
            <button type="button" className="btn-secondary self-start" onClick={() => rows.append(emptyResult())}>
              {t('profile.exams.add_subject')}
            </button>
          )}
        </fieldset>
      )}
      {!online && (
        <p id={offlineId} className="rounded-xl border border-accent p-3 text-sm">
          {t('profile.device.offline')}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className="btn-primary"
          disabled={change.isPending || !online}
          aria-describedby={online ? undefined : offlineId}
        >
          {change.isPending ? t('onboarding.saving') : t('profile.exams.save')}
        </button>
        <button type="button" className="btn-secondary" onClick={() => onDone(null)}>
          {t('profile.exams.cancel')}
        </button>
      </div>
    </form>
  );
}
