import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { useVerifyEmail } from '../api/verify-email.ts';
import { homeOf } from '../../../lib/paths.ts';
import { AuthCard } from './auth-card.tsx';
import { ResendVerificationForm } from './resend-verification-form.tsx';

/** The verification link lands here: the code is consumed once, then the user is signed in. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const verify = useVerifyEmail();
  const started = useRef(false);
  // The prerendered page cannot know the link's code: until the browser reads it, the page is loading.
  const hydrated = useHydrated();

  useEffect(() => {
    // Once only, even under StrictMode's double effects: a code is single-use.
    if (!code || started.current) return;
    started.current = true;
    verify.mutate(code, { onSuccess: (user) => void navigate(homeOf(user.type), { replace: true }) });
  }, [code, verify, navigate]);

  return (
    <AuthCard title={t('auth.verify.title')}>
      {!hydrated && <Spinner />}
      {hydrated && !code && <FormAlert>{t('auth.verify.missing_code')}</FormAlert>}
      {hydrated && code && !verify.isError && <Spinner />}
      {verify.isError && <FormAlert>{t(errorMessageKey(verify.error))}</FormAlert>}
      {hydrated && (!code || verify.isError) && <ResendVerificationForm />}
    </AuthCard>
  );
}
