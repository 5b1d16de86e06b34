import { useTranslation } from 'react-i18next';
import { Controller, type FieldValues, type Path } from 'react-hook-form';
import { EDUCATION_LEVELS, type SchoolChoiceInput } from '@kaminuza/shared';
import { SelectField } from '../form/field.tsx';
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
