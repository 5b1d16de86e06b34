import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  INSTITUTION_TYPES,
  PartnerSignUpSchema,
  type InstitutionDirectoryEntry,
  type PartnerSignUp,
  type PartnerSignUpInput,
} from '@kaminuza/shared';
import { EmailField, FormAlert, SelectField, TextField } from '../../../components/form/field.tsx';
import {
  HaveAccountPrompt,
  InvalidFormAlert,
  NewPasswordField,
  TermsField,
  showFieldErrors,
  signUpFailureKey,
  useCountryOptions,
} from '../../../components/form/account-fields.tsx';
import { isLanguage } from '../../../lib/languages.ts';
import { paths } from '../../../lib/paths.ts';
import { useSignUpPartner } from '../api/sign-up-partner.ts';
import { InstitutionPicker } from './institution-picker.tsx';
import { PartnerCard } from './partner-card.tsx';

type Mode = 'new' | 'join';
type Field = keyof PartnerSignUpInput;

/** Institution sign-up (spec section 5): register a new institution, or ask to join an approved one. */
export function PartnerSignUpPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const signUp = useSignUpPartner();
  const [mode, setMode] = useState<Mode>('new');
  const [selected, setSelected] = useState<InstitutionDirectoryEntry | null>(null);
  const language = i18n.resolvedLanguage ?? 'en';
  const countries = useCountryOptions();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<PartnerSignUpInput, unknown, PartnerSignUp>({
    resolver: zodResolver(PartnerSignUpSchema),
    mode: 'onTouched',
  });

  const chooseMode = (next: Mode) => {
    setMode(next);
    clearErrors();
    if (next === 'new') {
      setSelected(null);
      setValue('existing_institution_id', '');
    }
  };

  const onSubmit = handleSubmit((values) =>
    signUp.mutate(
      {
        ...values,
        existing_institution_id: mode === 'join' ? values.existing_institution_id : undefined,
        language: isLanguage(language) ? language : 'en',
      },
      {
        onSuccess: ({ email }) => void navigate(paths.partnerPending, { state: { email } }),
        onError: (error) => showFieldErrors(error, setError),
      },
    ),
  );

  const err = (field: Field) => errors[field]?.message;
  const failureKey = signUp.isError ? signUpFailureKey(signUp.error) : null;
  const joining = mode === 'join';

  return (
    <PartnerCard title={t('partner_signup.title')} intro={t('partner_signup.intro')} wide>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <InvalidFormAlert errors={errors} />
        {failureKey && <FormAlert>{t(failureKey)}</FormAlert>}

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 font-semibold">{t('partner_signup.mode.legend')}</legend>
          {(['new', 'join'] as const).map((option) => (
            <label
              key={option}
              className="flex min-h-12 cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-checked:border-brand"
            >
              <input
                type="radio"
                name="mode"
                value={option}
                checked={mode === option}
                onChange={() => chooseMode(option)}
                className="mt-0.5 size-5 shrink-0 accent-brand"
              />
              <span>
                <span className="block font-medium">{t(`partner_signup.mode.${option}`)}</span>
                <span className="block text-sm text-muted">{t(`partner_signup.mode.${option}_hint`)}</span>
              </span>
            </label>
          ))}
        </fieldset>

        {joining ? (
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-lg font-semibold">{t('partner_signup.sections.join')}</legend>
            <InstitutionPicker
              selected={selected}
              onSelect={(entry) => {
                setSelected(entry);
                setValue('existing_institution_id', entry.id, { shouldValidate: true });
              }}
            />
            <TextField
              label={t('partner_signup.fields.existing_institution_id')}
              hint={t('partner_signup.fields.existing_institution_id_hint')}
              autoComplete="off"
              error={err('existing_institution_id')}
              {...register('existing_institution_id', { onChange: () => setSelected(null) })}
            />
          </fieldset>
        ) : (
          <fieldset className="flex flex-col gap-4">
            <legend className="mb-2 text-lg font-semibold">{t('partner_signup.sections.institution')}</legend>
            <TextField
              label={t('partner_signup.fields.institution_name')}
              autoComplete="organization"
              error={err('institution_name')}
              {...register('institution_name')}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('partner_signup.fields.institution_type')}
                placeholder={t('partner_signup.choose')}
                options={INSTITUTION_TYPES.map((type) => ({ value: type, label: t(`partner.types.${type}`) }))}
                error={err('institution_type')}
                {...register('institution_type')}
              />
              <TextField
                label={t('partner_signup.fields.year_established')}
                inputMode="numeric"
                error={err('year_established')}
                {...register('year_established')}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('partner_signup.fields.country')}
                placeholder={t('partner_signup.choose')}
                options={countries}
                error={err('country')}
                {...register('country')}
              />
              <TextField
                label={t('partner_signup.fields.city')}
                autoComplete="address-level2"
                error={err('city')}
                {...register('city')}
              />
            </div>
            <TextField
              label={t('partner_signup.fields.website')}
              optional
              type="url"
              autoComplete="url"
              error={err('website')}
              {...register('website')}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label={t('partner_signup.fields.accreditation_body')}
                optional
                error={err('accreditation_body')}
                {...register('accreditation_body')}
              />
              <TextField
                label={t('partner_signup.fields.accreditation_number')}
                optional
                error={err('accreditation_number')}
                {...register('accreditation_number')}
              />
            </div>
            <TextField
              label={t('partner_signup.fields.program_count')}
              optional
              inputMode="numeric"
              error={err('program_count')}
              {...register('program_count')}
            />
          </fieldset>
        )}

        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-lg font-semibold">{t('partner_signup.sections.contact')}</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t('partner_signup.fields.contact_first_name')}
              autoComplete="given-name"
              error={err('contact_first_name')}
              {...register('contact_first_name')}
            />
            <TextField
              label={t('partner_signup.fields.contact_last_name')}
              autoComplete="family-name"
              error={err('contact_last_name')}
              {...register('contact_last_name')}
            />
          </div>
          <TextField
            label={t('partner_signup.fields.job_title')}
            autoComplete="organization-title"
            error={err('job_title')}
            {...register('job_title')}
          />
          <TextField
            label={t('partner_signup.fields.work_email')}
            type="email"
            inputMode="email"
            autoComplete="work email"
            error={err('work_email')}
            {...register('work_email')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={t('partner_signup.fields.phone_country')}
              placeholder={t('partner_signup.choose')}
              options={countries}
              error={err('phone_country')}
              {...register('phone_country')}
            />
            <TextField
              label={t('partner_signup.fields.phone')}
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              error={err('phone')}
              {...register('phone')}
            />
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-lg font-semibold">{t('partner_signup.sections.account')}</legend>
          <EmailField hint={t('partner_signup.fields.email_hint')} error={err('email')} {...register('email')} />
          <NewPasswordField error={err('password')} {...register('password')} />
          <TermsField error={err('accept_terms')} {...register('accept_terms')} />
        </fieldset>

        <button type="submit" className="btn-primary" disabled={signUp.isPending}>
          {signUp.isPending
            ? t('partner_signup.submitting')
            : joining
              ? t('partner_signup.submit_join')
              : t('partner_signup.submit_new')}
        </button>
      </form>
      <HaveAccountPrompt />
    </PartnerCard>
  );
}
