import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { ForgotPasswordSchema } from '@kaminuza/shared';
import { EmailField, FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useResendVerification } from '../api/resend-verification.ts';

/** Asks for the address when the screen does not know it, and sends a new verification link. */
export function ResendVerificationForm() {
  const { t } = useTranslation();
  const resend = useResendVerification();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({ resolver: zodResolver(ForgotPasswordSchema) });
  if (resend.isSuccess) return <FormAlert tone="success">{t('auth.verify.resent')}</FormAlert>;
  return (
    <form noValidate onSubmit={handleSubmit(({ email }) => resend.mutate(email))} className="flex flex-col gap-4">
      <p className="text-muted">{t('auth.verify.resend_intro')}</p>
      {resend.isError && <FormAlert>{t(errorMessageKey(resend.error))}</FormAlert>}
      <EmailField error={errors.email?.message} {...register('email')} />
      <button type="submit" className="btn-secondary self-start" disabled={resend.isPending}>
        {t('auth.verify.resend')}
      </button>
    </form>
  );
}
