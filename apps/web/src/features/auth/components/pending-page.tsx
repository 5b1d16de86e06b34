import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/field.tsx';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { paths } from '../../../lib/paths.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { pendingEmail } from './pending-email.ts';
import { AuthCard } from './auth-card.tsx';
import { ResendVerificationForm } from './resend-verification-form.tsx';

/** After sign-up: the account waits for its email to be verified. */
export function PendingPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [remembered] = useState(() => (location.state as { email?: string } | null)?.email ?? pendingEmail());
  // The prerendered page knows neither the history state nor session storage: it shows the address once
  // the browser has read them.
  const email = useHydrated() ? remembered : null;
  const resend = useResendVerification();
  return (
    <AuthCard title={t('auth.pending.title')}>
      <p>{email ? t('auth.pending.text', { email }) : t('auth.pending.text_no_email')}</p>
      {email ? (
        <>
          {resend.isSuccess && <FormAlert tone="success">{t('auth.pending.resent')}</FormAlert>}
          {resend.isError && <FormAlert>{t(errorMessageKey(resend.error))}</FormAlert>}
          <button
            type="button"
            className="btn-secondary self-start"
            disabled={resend.isPending}
            onClick={() => resend.mutate(email)}
          >
            {resend.isPending ? t('auth.pending.resending') : t('auth.pending.resend')}
          </button>
        </>
      ) : (
        <ResendVerificationForm />
      )}
      <Link to={paths.login} className="link">
        {t('auth.pending.sign_in')}
      </Link>
    </AuthCard>
  );
}
