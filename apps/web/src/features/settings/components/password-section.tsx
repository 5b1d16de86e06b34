import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { ChangePasswordSchema, SETTINGS_MESSAGES, VALIDATION_MESSAGES } from '@kaminuza/shared';
import { FormAlert, TextField, useMessage } from '../../../components/form/field.tsx';
import { showFieldErrors } from '../../../components/form/account-fields.tsx';
import { errorMessageKey, fieldErrors } from '../../../lib/error-messages.ts';
import { useChangePassword } from '../api/change-password.ts';
import { SettingsSection } from './settings-section.tsx';

const PasswordFormSchema = ChangePasswordSchema.extend({ confirm: z.string() }).refine(
  (value) => value.newPassword === value.confirm,
  { path: ['confirm'], message: VALIDATION_MESSAGES.passwords_mismatch },
);
type PasswordForm = z.infer<typeof PasswordFormSchema>;

/**
 * Current, new and confirmed password (spec section 5's rule). A failure says "Failed to change password"
 * (spec section 8) and why when the reason is known; success signs every other device out.
 */
export function PasswordSection() {
  const { t } = useTranslation();
  const message = useMessage();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PasswordForm>({ resolver: zodResolver(PasswordFormSchema) });

  const submit = handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => reset({ currentPassword: '', newPassword: '', confirm: '' }),
        onError: (error) => showFieldErrors(error, setError),
      },
    ),
  );

  // A refused field is named beside it; anything else in general words after the spec's sentence.
  const refused = change.isError && Object.keys(fieldErrors(change.error)).length > 0;
  const reason = change.isError && !refused ? t(errorMessageKey(change.error)) : null;

  return (
    <SettingsSection title={t('settings.password.title')} description={t('settings.password.description')}>
      <form noValidate onSubmit={submit} className="flex max-w-md flex-col gap-4">
        {change.isError && (
          <FormAlert>
            <span className="block">{message(SETTINGS_MESSAGES.change_password_failed)}</span>
            {reason && reason !== message(SETTINGS_MESSAGES.change_password_failed) && (
              <span className="block font-normal">{reason}</span>
            )}
          </FormAlert>
        )}
        {change.isSuccess && <FormAlert tone="success">{t('settings.password.done')}</FormAlert>}
        <TextField
          label={t('settings.password.current')}
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <TextField
          label={t('settings.password.new')}
          type="password"
          autoComplete="new-password"
          hint={t('auth.password_hint')}
          error={errors.newPassword?.message}
          {...register('newPassword')}
        />
        <TextField
          label={t('settings.password.confirm')}
          type="password"
          autoComplete="new-password"
          error={errors.confirm?.message}
          {...register('confirm')}
        />
        <button type="submit" className="btn-primary self-start" disabled={change.isPending}>
          {change.isPending ? t('settings.password.submitting') : t('settings.password.submit')}
        </button>
      </form>
    </SettingsSection>
  );
}
