import { useTranslation } from 'react-i18next';
import { Controller, useFieldArray, useWatch, type FieldValues, type Path } from 'react-hook-form';
import {
  EDUCATION_LEVELS,
  EXAMINATIONS,
  type EducationProfile,
  type EducationProfileInput,
  type SchoolChoiceInput,
} from '@kaminuza/shared';
import { SelectField, TextField } from '../form/field.tsx';
import { FieldMessage } from './field-message.tsx';
import { fieldOf, type FormBinding } from './form-binding.ts';
import { EMPTY_SCHOOL, SchoolPicker } from './school-picker.tsx';

type SchoolErrors = Partial<Record<'name' | 'city' | 'country' | 'state_province', { message?: string }>>;

/** Education level and the most recent school, as onboarding asks them and the Education form edits them. */
export function EducationFields<T extends FieldValues & { education_level: unknown; school: unknown }, O>({
  form,
  residence,
  Heading,
}: {
  form: FormBinding<T, O>;
  /** The student's country of residence, where a hand-entered school starts. */
  residence: string;
  /** The school's heading, one level below the form's own. */
  Heading: 'h2' | 'h3';
}) {
  const { t } = useTranslation();
  const schoolErrors = form.formState.errors.school as SchoolErrors | undefined;
  return (
    <>
      <SelectField
        label={t('onboarding.fields.education_level')}
        placeholder={t('onboarding.choose')}
        options={EDUCATION_LEVELS.map((l) => ({ value: l, label: t(`onboarding.education_levels.${l}`) }))}
        {...fieldOf(form)('education_level')}
      />
      <div className="flex flex-col gap-2">
        <Heading className="font-semibold">{t('onboarding.fields.school')}</Heading>
        <Controller
          control={form.control}
          name={'school' as Path<T>}
          render={({ field }) => (
            <SchoolPicker
              value={(field.value as SchoolChoiceInput | undefined) ?? EMPTY_SCHOOL}
              onChange={field.onChange}
              country={residence}
              errors={{
                name: schoolErrors?.name?.message,
                city: schoolErrors?.city?.message,
                country: schoolErrors?.country?.message,
                state_province: schoolErrors?.state_province?.message,
              }}
            />
          )}
        />
      </div>
    </>
  );
}

/** National examination results: rows added and removed by the student, "other" with its own name. */
export function ExamResultsFields({ form }: { form: FormBinding<EducationProfileInput, EducationProfile> }) {
  const { t } = useTranslation();
  const exams = useFieldArray({ control: form.control, name: 'exam_results' });
  const examValues = useWatch({ control: form.control, name: 'exam_results' });
  const { errors } = form.formState;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 font-semibold">{t('profile.exams.title')}</legend>
      {exams.fields.length === 0 && <p className="text-sm text-muted">{t('profile.exams.empty')}</p>}
      {errors.exam_results?.message && <FieldMessage text={errors.exam_results.message} />}
      {exams.fields.map((exam, index) => {
        const rowErrors = errors.exam_results?.[index];
        const examination = examValues?.[index]?.examination;
        return (
          <fieldset key={exam.id} className="flex flex-col gap-3 rounded-lg border border-border p-3">
            <legend className="px-1 text-sm font-medium">{t('profile.exams.row', { number: index + 1 })}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <SelectField
                label={t('profile.exams.examination')}
                placeholder={t('onboarding.choose')}
                options={EXAMINATIONS.map((e) => ({ value: e, label: t(`profile.exams.names.${e}`) }))}
                error={rowErrors?.examination?.message}
                {...form.register(`exam_results.${index}.examination`)}
              />
              {examination === 'other' && (
                <TextField
                  label={t('profile.exams.other_name')}
                  error={rowErrors?.name?.message}
                  {...form.register(`exam_results.${index}.name`)}
                />
              )}
              <TextField
                label={t('profile.exams.grade')}
                error={rowErrors?.grade?.message}
                {...form.register(`exam_results.${index}.grade`)}
              />
              <TextField
                label={t('profile.exams.year')}
                inputMode="numeric"
                error={rowErrors?.year?.message}
                {...form.register(`exam_results.${index}.year`)}
              />
            </div>
            <button type="button" className="btn-secondary self-start" onClick={() => exams.remove(index)}>
              {t('profile.exams.remove', { number: index + 1 })}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="btn-secondary self-start"
        onClick={() => exams.append({ examination: '' as never, name: '', grade: '', year: '' })}
      >
        {t('profile.exams.add')}
      </button>
    </fieldset>
  );
}
