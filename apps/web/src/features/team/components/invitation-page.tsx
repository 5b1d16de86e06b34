import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AcceptInvitationSchema, type AcceptInvitation, type InvitationPreview } from '@kaminuza/shared';
import {
  InvalidFormAlert,
  NewPasswordField,
  showFieldErrors,
  TermsField,
} from '../../../components/form/account-fields.tsx';
import { FormAlert, TextField } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { paths } from '../../../lib/paths.ts';
import { useAcceptInvitation } from '../api/accept-invitation.ts';
import { useInvitationPreview } from '../api/preview-invitation.ts';

/** The emailed invitation link lands here: the invited person checks the offer, sets a password and joins. */
export function InvitationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const preview = useInvitationPreview(token);
  const invalid = token === '' || hasReason(preview.error, 'invitation_invalid');

  return (
    <section className="mx-auto w-full max-w-xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight break-words">
        {invalid ? t('team.invitation_page.invalid_title') : t('team.invitation_page.title')}
      </h1>
      <div className="mt-6 flex flex-col gap-5 rounded-2xl border border-border bg-surface p-5 sm:p-6">
        {invalid && (
          <>
            <p>{t('setup.errors.invitation_invalid')}</p>
            <Link to={paths.login} className="btn-primary self-start">
              {t('team.invitation_page.sign_in')}
            </Link>
          </>
        )}
        {!invalid && preview.isPending && <Spinner />}
        {!invalid && preview.isError && <FormAlert>{t(errorMessageKey(preview.error))}</FormAlert>}
        {preview.data && <AcceptForm token={token} invitation={preview.data} />}
      </div>
    </section>
  );
}

function AcceptForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AcceptInvitation>({
    resolver: zodResolver(AcceptInvitationSchema),
    mode: 'onTouched',
    defaultValues: {
      token,
      first_name: invitation.first_name,
      last_name: invitation.last_name,
      password: '',
    },
  });
  const onSubmit = handleSubmit((values) =>
    accept.mutate(values, {
      onSuccess: () => void navigate(paths.partner.dashboard, { replace: true }),
      onError: (error) => showFieldErrors(error, setError),
    }),
  );

  return (
    <>
      <p>{t('team.invitation_page.intro', { institution: invitation.institution_name })}</p>
      <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="font-medium">{t('team.invitation_page.institution')}</dt>
        <dd className="break-words text-muted">{invitation.institution_name}</dd>
        <dt className="font-medium">{t('team.fields.email')}</dt>
        <dd className="break-words text-muted">{invitation.email}</dd>
        <dt className="font-medium">{t('team.fields.role')}</dt>
        <dd className="break-words text-muted">{invitation.role}</dd>
      </dl>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <InvalidFormAlert errors={errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('team.fields.first_name')}
            autoComplete="given-name"
            error={errors.first_name?.message}
            {...register('first_name')}
          />
          <TextField
            label={t('team.fields.last_name')}
            autoComplete="family-name"
            error={errors.last_name?.message}
            {...register('last_name')}
          />
        </div>
        <NewPasswordField error={errors.password?.message} {...register('password')} />
        <TermsField error={errors.accept_terms?.message} {...register('accept_terms')} />
        {accept.isError && <FormAlert>{t(errorMessageKey(accept.error))}</FormAlert>}
        <button type="submit" className="btn-primary" disabled={accept.isPending}>
          {accept.isPending ? t('team.invitation_page.joining') : t('team.invitation_page.join')}
        </button>
      </form>
    </>
  );
}
