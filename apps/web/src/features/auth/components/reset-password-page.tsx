import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormAlert, TextField } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { paths } from '../../../lib/paths.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useSchemaForm } from '../../../lib/schema-form.ts';
import type { NewPassword } from '../account-schemas.ts';
import { accountSchemas } from '../load-account-schemas.ts';
import { AuthCard } from './auth-card.tsx';

const loadSchema = () => accountSchemas().then((m) => m.NewPasswordSchema);

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token');
  const reset = useResetPassword();
  const { register, handleSubmit, errors, setError } = useSchemaForm<NewPassword>(loadSchema);
  // A refused password (a common one) is shown at its field, and the link, still unused, can be used again.
  const passwordRefused = 'password' in fieldErrors(reset.error);
  // The prerendered page cannot know the link's token: which view it shows waits for the browser.
  const hydrated = useHydrated();

  if (!hydrated) {
    return (
      <AuthCard title={t('auth.reset.title')}>
        <Spinner />
      </AuthCard>
    );
  }
  if (!token || (reset.isError && !passwordRefused)) {
    return (
      <AuthCard title={t('auth.reset.title')}>
        <FormAlert>{reset.isError ? t(errorMessageKey(reset.error)) : t('auth.reset.missing_token')}</FormAlert>
        <Link to={paths.forgotPassword} className="link self-start">
          {t('auth.reset.request_new')}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('auth.reset.title')}>
      {reset.isSuccess ? (
        <>
          <FormAlert tone="success">{t('auth.reset.done')}</FormAlert>
          <Link to={paths.login} className="btn-primary self-start">
            {t('auth.reset.sign_in')}
          </Link>
        </>
      ) : (
        <form
          noValidate
          onSubmit={handleSubmit(({ password }) =>
            reset.mutate(
              { token, password },
              {
                onError: (error) => {
                  const refused = fieldErrors(error).password;
                  if (refused) setError('password', { message: refused });
                },
              },
            ),
          )}
          className="flex flex-col gap-4"
        >
          <TextField
            label={t('auth.reset.new_password')}
            type="password"
            autoComplete="new-password"
            hint={t('auth.password_hint')}
            error={errors.password}
            {...register('password')}
          />
          <TextField
            label={t('auth.reset.confirm_password')}
            type="password"
            autoComplete="new-password"
            error={errors.confirm}
            {...register('confirm')}
          />
          <button type="submit" className="btn-primary" disabled={reset.isPending}>
            {reset.isPending ? t('auth.reset.submitting') : t('auth.reset.submit')}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
