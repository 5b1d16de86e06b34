import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EDUCATION_LEVELS, GENDERS, type StudentSignUp, type StudentSignUpInput } from '@kaminuza/shared';
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
import { useSignUpStudent } from '../api/sign-up.ts';
import { rememberPendingEmail } from './pending-email.ts';
import { useSchemaForm } from '../../../lib/schema-form.ts';
import { signUpSchemas } from '../load-account-schemas.ts';
import { AuthCard } from './auth-card.tsx';

const loadSchema = () => signUpSchemas().then((m) => m.StudentSignUpSchema);

export function SignUpPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const signUp = useSignUpStudent();
  const language = i18n.resolvedLanguage ?? 'en';
  const countries = useCountryOptions();
  const { register, handleSubmit, setError, errors } = useSchemaForm<StudentSignUpInput, StudentSignUp>(loadSchema, {
    mode: 'touched',
  });

  const onSubmit = handleSubmit((values) =>
    signUp.mutate(
      { ...values, language: isLanguage(language) ? language : 'en' },
      {
        onSuccess: ({ email }) => {
          rememberPendingEmail(email);
          void navigate(paths.pending, { state: { email } });
        },
        onError: (error) => showFieldErrors(error, setError),
      },
    ),
  );

  const err = (field: keyof StudentSignUpInput) => errors[field];
  const failureKey = signUp.isError ? signUpFailureKey(signUp.error) : null;
  return (
    <AuthCard title={t('auth.signup.title')} intro={t('auth.signup.intro')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <InvalidFormAlert errors={errors} />
        {failureKey && <FormAlert>{t(failureKey)}</FormAlert>}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('auth.signup.first_name')}
            autoComplete="given-name"
            error={err('first_name')}
            {...register('first_name')}
          />
          <TextField
            label={t('auth.signup.last_name')}
            autoComplete="family-name"
            error={err('last_name')}
            {...register('last_name')}
          />
        </div>
        <TextField
          label={t('auth.signup.preferred_name')}
          optional
          autoComplete="nickname"
          error={err('preferred_name')}
          {...register('preferred_name')}
        />
        <EmailField error={err('email')} {...register('email')} />
        <NewPasswordField error={err('password')} {...register('password')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('auth.signup.date_of_birth')}
            type="date"
            autoComplete="bday"
            error={err('date_of_birth')}
            {...register('date_of_birth')}
          />
          <SelectField
            label={t('auth.signup.gender')}
            placeholder={t('auth.signup.choose')}
            options={GENDERS.map((g) => ({ value: g, label: t(`auth.signup.genders.${g}`) }))}
            error={err('gender')}
            {...register('gender')}
          />
        </div>
        <SelectField
          label={t('auth.signup.education_level')}
          placeholder={t('auth.signup.choose')}
          options={EDUCATION_LEVELS.map((l) => ({ value: l, label: t(`auth.signup.education_levels.${l}`) }))}
          error={err('education_level')}
          {...register('education_level')}
        />
        <SelectField
          label={t('auth.signup.country')}
          placeholder={t('auth.signup.choose')}
          options={countries}
          autoComplete="country"
          error={err('country')}
          {...register('country')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('auth.signup.city')}
            autoComplete="address-level2"
            error={err('city')}
            {...register('city')}
          />
          <TextField
            label={t('auth.signup.phone')}
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            hint={t('auth.signup.phone_hint')}
            error={err('phone')}
            {...register('phone')}
          />
        </div>
        <TermsField error={err('accept_terms')} {...register('accept_terms')} />
        <button type="submit" className="btn-primary" disabled={signUp.isPending}>
          {signUp.isPending ? t('auth.signup.submitting') : t('auth.signup.submit')}
        </button>
      </form>
      <HaveAccountPrompt />
    </AuthCard>
  );
}
