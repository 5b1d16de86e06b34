import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SessionUser, SignIn } from '@kaminuza/shared';
import { FormAlert, EmailField, TextField } from '../../../components/form/field.tsx';
import { hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey, lockoutMinutes } from '../../../lib/error-messages.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { homeOf, paths } from '../../../lib/paths.ts';
import { useSignIn } from '../api/sign-in.ts';
import { isStudentPage, rememberReturn, takeReturn } from '../../../lib/return-to.ts';
import { useSchemaForm } from '../../../lib/schema-form.ts';
import { accountSchemas } from '../load-account-schemas.ts';
import { AuthCard } from './auth-card.tsx';

const loadSchema = () => accountSchemas().then((m) => m.SignInSchema);

/**
 * Where a sign-in may send its user back to: their own area, or (students) any student page — an
 * application's start page, an Explore search — and the fee checkout they were paying on, reference included.
 */
function mayReturnTo(type: SessionUser['type'], home: string, from: string): boolean {
  if (from.startsWith(home.split('/').slice(0, 2).join('/'))) return true;
  return type === 'student' && (isStudentPage(from) || from.startsWith(`${paths.pay}?`));
}

interface LocationState {
  from?: string;
  notice?: string | null;
}

/** Sign-in for everyone at /login; admins at /login/admin (spec section 5). */
export function SignInPage({ admin = false }: { admin?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as LocationState;
  // A reload keeps the history state, which the prerendered page did not have: its notice shows once hydrated.
  const hydrated = useHydrated();
  const signIn = useSignIn();
  const { register, handleSubmit, errors } = useSchemaForm<SignIn>(loadSchema);

  const onSubmit = handleSubmit((credentials) =>
    signIn.mutate(
      { ...credentials, admin },
      {
        onSuccess: (user) => {
          const home = homeOf(user.type);
          // Taken either way, so an older remembered page never resurfaces after a later sign-up.
          const remembered = takeReturn();
          const from = state.from ?? (user.type === 'student' ? remembered : null);
          const back = from && mayReturnTo(user.type, home, from) ? from : home;
          // Onboarding comes first for a new student: the page waits until it is done.
          if (user.type === 'student' && !user.onboarding_complete && back !== home) rememberReturn(back);
          void navigate(back, { replace: true });
        },
      },
    ),
  );

  // An unverified sign-in also re-sent the verification email (spec section 5).
  const unverified = hasReason(signIn.error, 'verify_first');
  // Locked out for a while: the wait is told in the reader's words (plural forms included).
  const waitMinutes = lockoutMinutes(signIn.error);
  return (
    <AuthCard title={admin ? t('auth.login.admin_title') : t('auth.login.title')}>
      {hydrated && state.notice && <FormAlert>{t(state.notice)}</FormAlert>}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        {signIn.isError && (
          <FormAlert>
            {waitMinutes !== null
              ? t('auth.login.locked_out', { count: waitMinutes })
              : t(errorMessageKey(signIn.error, { network: 'auth_errors.network' }))}
          </FormAlert>
        )}
        {unverified && <FormAlert tone="success">{t('auth.login.verification_resent')}</FormAlert>}
        <EmailField error={errors.email} {...register('email')} />
        <TextField
          label={t('auth.password')}
          type="password"
          autoComplete="current-password"
          error={errors.password}
          {...register('password')}
        />
        <button type="submit" className="btn-primary" disabled={signIn.isPending}>
          {signIn.isPending ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
      </form>
      <div className="flex flex-col gap-2 text-sm">
        <Link to={paths.forgotPassword} className="link self-start">
          {t('auth.login.forgot')}
        </Link>
        {!admin && (
          <p>
            {t('auth.login.no_account')}{' '}
            <Link to={paths.signupLive} className="link">
              {t('auth.login.create_account')}
            </Link>
          </p>
        )}
        {!admin && (
          <Link to={paths.partnerSignup} className="link self-start">
            {t('shell.partner.sign_up')}
          </Link>
        )}
        <Link to={admin ? paths.login : paths.loginAdmin} className="link self-start">
          {admin ? t('auth.login.user_link') : t('auth.login.admin_link')}
        </Link>
      </div>
    </AuthCard>
  );
}

export function AdminSignInPage() {
  return <SignInPage admin />;
}
