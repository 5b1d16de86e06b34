import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmailField, FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { paths } from '../../../lib/paths.ts';
import { useForgotPassword } from '../api/forgot-password.ts';
import { useSchemaForm } from '../../../lib/schema-form.ts';
import { accountSchemas } from '../load-account-schemas.ts';
import { AuthCard } from './auth-card.tsx';

const loadSchema = () => accountSchemas().then((m) => m.ForgotPasswordSchema);

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const { register, handleSubmit, errors } = useSchemaForm<{ email: string }>(loadSchema);
  const [sentTo, setSentTo] = useState('');
  return (
    <AuthCard title={t('auth.forgot.title')} intro={t('auth.forgot.intro')}>
      {forgot.isSuccess ? (
        <FormAlert tone="success">{t('auth.forgot.sent', { email: sentTo })}</FormAlert>
      ) : (
        <form
          noValidate
          onSubmit={handleSubmit(({ email }) => {
            setSentTo(email);
            forgot.mutate(email);
          })}
          className="flex flex-col gap-4"
        >
          {forgot.isError && <FormAlert>{t(errorMessageKey(forgot.error))}</FormAlert>}
          <EmailField error={errors.email} {...register('email')} />
          <button type="submit" className="btn-primary" disabled={forgot.isPending}>
            {forgot.isPending ? t('auth.forgot.submitting') : t('auth.forgot.submit')}
          </button>
        </form>
      )}
      <Link to={paths.login} className="link self-start text-sm">
        {t('auth.forgot.back')}
      </Link>
    </AuthCard>
  );
}
