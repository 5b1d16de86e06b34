import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../../components/form/field.tsx';
import { countryOptions } from '../../../lib/countries.ts';
import { ApplicantFormSchema, emptyApplicant, type ApplicantForm, type ApplicantFormInput } from './on-behalf-form.ts';

/** Step 1: who the application is for, and where their receipt goes. */
export function ApplicantStep({
  initial,
  onDone,
}: {
  initial: ApplicantForm | null;
  onDone: (applicant: ApplicantForm) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const countries = useMemo(() => countryOptions(language), [language]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ApplicantFormInput, unknown, ApplicantForm>({
    resolver: zodResolver(ApplicantFormSchema),
    defaultValues: initial ? { ...emptyApplicant, ...initial } : emptyApplicant,
  });
  const a = (key: string) => t(`on_behalf.applicant.${key}`);

  return (
    <form noValidate onSubmit={handleSubmit(onDone)} className="flex flex-col gap-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label={a('first_name')}
          autoComplete="off"
          error={errors.first_name?.message}
          {...register('first_name')}
        />
        <TextField
          label={a('last_name')}
          autoComplete="off"
          error={errors.last_name?.message}
          {...register('last_name')}
        />
      </div>
      <TextField
        label={a('email')}
        hint={a('email_hint')}
        type="email"
        inputMode="email"
        autoComplete="off"
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label={a('phone')}
          optional
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={30}
          error={errors.phone?.message}
          {...register('phone')}
        />
        <TextField
          label={a('date_of_birth')}
          optional
          type="date"
          error={errors.date_of_birth?.message}
          {...register('date_of_birth')}
        />
      </div>
      {/* Optional: the first choice, "Choose a country", stands for no answer. */}
      <SelectField
        label={`${a('nationality')} (${t('auth.optional')})`}
        placeholder={a('choose_country')}
        options={countries}
        error={errors.nationality?.message}
        {...register('nationality')}
      />
      <div className="flex justify-end">
        <button type="submit" className="btn-primary">
          {t('on_behalf.continue')}
        </button>
      </div>
    </form>
  );
}
