import { useId } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { INSTRUCTION_LANGUAGES, PROGRAM_LEVELS, STUDY_FIELDS, type Campus, type Program } from '@kaminuza/shared';
import { Dialog } from '../../../components/dialog.tsx';
import {
  CheckboxField,
  FormAlert,
  SelectField,
  TextAreaField,
  TextField,
  useMessage,
} from '../../../components/form/field.tsx';
import { showFieldErrors } from '../../../components/form/account-fields.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useCreateProgram } from '../api/create-program.ts';
import { useUpdateProgram } from '../api/update-program.ts';
import { EntryRulesFields } from './entry-rules-fields.tsx';
import {
  ProgramFormSchema,
  programFormValues,
  ruleFieldOf,
  toProgramInput,
  TUITION_CURRENCIES,
  type ProgramForm,
} from './program-form.ts';

const number = (value: unknown) => (value === '' || value === null ? Number.NaN : Number(value));
const fieldsetClass = 'flex min-w-0 flex-col gap-3 rounded-xl border border-border p-4';
const legendClass = 'px-1 font-semibold';

/** Adds a program, or edits `program`: what it is, how long, in which language, at what cost, where. */
export function ProgramDialog({
  partnerId,
  program,
  campuses,
  onClose,
}: {
  partnerId: string;
  program: Program | null;
  campuses: Campus[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const id = useId();
  const create = useCreateProgram(partnerId);
  const update = useUpdateProgram(partnerId);
  const save = program ? update : create;
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm<ProgramForm>({
    resolver: zodResolver(ProgramFormSchema),
    defaultValues: programFormValues(
      program,
      campuses.map((campus) => campus.id),
    ),
  });
  const unlimited = useWatch({ control, name: 'seats_unlimited' });

  const onSubmit = handleSubmit((form) => {
    const input = toProgramInput(form);
    const options = {
      onSuccess: onClose,
      onError: (error: unknown) =>
        showFieldErrors(error, setError, (field) =>
          field === 'duration_months'
            ? 'duration_years'
            : field.startsWith('campus_ids')
              ? 'campus_ids'
              : field.startsWith('entry_rules.')
                ? ruleFieldOf(field)
                : field,
        ),
    };
    if (program) update.mutate({ id: program.id, input }, options);
    else create.mutate(input, options);
  });

  const f = (key: string) => t(`programs.program_form.${key}`);
  const campusError = errors.campus_ids?.message ?? errors.campus_ids?.root?.message;
  return (
    <Dialog wide title={program ? f('edit_title') : f('add_title')} description={f('description')} onClose={onClose}>
      {() => (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <TextField label={f('name')} autoComplete="off" error={errors.name?.message} {...register('name')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={f('level')}
              placeholder={f('choose')}
              options={PROGRAM_LEVELS.map((value) => ({ value, label: t(`partner.program_levels.${value}`) }))}
              error={errors.level?.message}
              {...register('level')}
            />
            <SelectField
              label={f('field')}
              placeholder={f('choose')}
              options={STUDY_FIELDS.map((value) => ({ value, label: t(`partner.study_fields.${value}`) }))}
              error={errors.field?.message}
              {...register('field')}
            />
          </div>

          <fieldset className={fieldsetClass}>
            <legend className={legendClass}>{f('duration')}</legend>
            <div className="grid grid-cols-2 gap-4">
              <TextField
                label={f('years')}
                type="number"
                inputMode="numeric"
                min={0}
                max={10}
                error={errors.duration_years?.message}
                {...register('duration_years', { setValueAs: number })}
              />
              <TextField
                label={f('months')}
                type="number"
                inputMode="numeric"
                min={0}
                max={11}
                error={errors.duration_extra_months?.message}
                {...register('duration_extra_months', { setValueAs: number })}
              />
            </div>
          </fieldset>

          <SelectField
            label={f('language')}
            placeholder={f('choose')}
            options={INSTRUCTION_LANGUAGES.map((value) => ({ value, label: t(`programs.languages.${value}`) }))}
            error={errors.language?.message}
            {...register('language')}
          />

          <fieldset className={fieldsetClass}>
            <legend className={legendClass}>{f('tuition')}</legend>
            <div className="grid grid-cols-2 gap-4">
              <TextField
                label={f('tuition_amount')}
                type="number"
                inputMode="numeric"
                min={0}
                error={errors.tuition_amount?.message}
                {...register('tuition_amount', { setValueAs: number })}
              />
              <SelectField
                label={f('currency')}
                placeholder={f('choose')}
                options={TUITION_CURRENCIES.map((value) => ({ value, label: value }))}
                error={errors.tuition_currency?.message}
                {...register('tuition_currency')}
              />
            </div>
          </fieldset>

          <fieldset className={fieldsetClass}>
            <legend className={legendClass}>{f('seats')}</legend>
            <CheckboxField label={f('seats_unlimited')} {...register('seats_unlimited')} />
            {!unlimited && (
              <TextField
                label={f('seats_number')}
                type="number"
                inputMode="numeric"
                min={1}
                error={errors.seats?.message}
                {...register('seats', { setValueAs: (value) => (value === '' ? null : Number(value)) })}
              />
            )}
          </fieldset>

          <EntryRulesFields control={control} register={register} errors={errors} />

          <TextAreaField
            label={f('requirements')}
            optional
            rows={4}
            hint={f('requirements_hint')}
            error={errors.requirements?.message}
            {...register('requirements')}
          />

          <Controller
            control={control}
            name="campus_ids"
            render={({ field }) => (
              <fieldset className={fieldsetClass} aria-describedby={campusError ? `${id}-campus-error` : undefined}>
                <legend className={legendClass}>{f('campuses')}</legend>
                <ul className="flex flex-col gap-2">
                  {campuses.map((campus) => (
                    <li key={campus.id}>
                      <CheckboxField
                        label={campus.name}
                        checked={field.value.includes(campus.id)}
                        onBlur={field.onBlur}
                        onChange={(event) =>
                          field.onChange(
                            event.target.checked
                              ? [...field.value, campus.id]
                              : field.value.filter((value) => value !== campus.id),
                          )
                        }
                      />
                    </li>
                  ))}
                </ul>
                {campusError && (
                  <p id={`${id}-campus-error`} className="text-sm font-medium text-danger">
                    {message(campusError)}
                  </p>
                )}
              </fieldset>
            )}
          />

          {save.isError && Object.keys(fieldErrors(save.error)).length === 0 && (
            <FormAlert>{t(errorMessageKey(save.error))}</FormAlert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose}>
              {t('programs.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={save.isPending}>
              {save.isPending ? t('programs.saving') : f('save')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
