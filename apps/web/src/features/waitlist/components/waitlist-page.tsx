import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { JoinWaitlistSchema } from '@kaminuza/shared';
import { isLanguage } from '../../../lib/languages.ts';
import { paths } from '../../../app/paths.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { useJoinWaitlist } from '../api/join-waitlist.ts';

/** Spec messages of the email rule, as translation keys. */
const EMAIL_MESSAGES: Record<string, string> = {
  'Invalid email address': 'errors.invalid_email',
  'Email is too long': 'errors.email_too_long',
};

export function WaitlistPage() {
  const { t, i18n } = useTranslation();
  const emailId = useId();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const join = useJoinWaitlist();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = JoinWaitlistSchema.safeParse({
      email: email.trim(),
      // The query string the visitor arrived with (e.g. a referral code from /signup?ref=…) is kept.
      query: window.location.search.replace(/^\?/, ''),
      language: isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en',
    });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? '';
      setFieldError(email.trim() === '' ? 'errors.email_required' : (EMAIL_MESSAGES[message] ?? 'errors.check_input'));
      return;
    }
    setFieldError(null);
    join.mutate(parsed.data);
  }

  const errorId = `${emailId}-error`;
  return (
    <section className="prose-page py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">{t('waitlist.title')}</h1>
      <p className="mt-3 text-muted">{t('waitlist.intro')}</p>
      {join.isSuccess ? (
        <p role="status" className="mt-8 rounded-xl border border-border bg-surface p-4 font-medium">
          {t(join.data.already_joined ? 'waitlist.already' : 'waitlist.success', { email: join.data.email })}
        </p>
      ) : (
        <form
          noValidate
          onSubmit={submit}
          className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5"
        >
          <div className="flex flex-col gap-2">
            <label htmlFor={emailId} className="font-medium">
              {t('waitlist.email_label')}
            </label>
            <input
              id={emailId}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={fieldError !== null}
              aria-describedby={fieldError ? errorId : undefined}
              className="field-input"
            />
            {fieldError && (
              <p id={errorId} className="text-sm text-danger">
                {t(fieldError)}
              </p>
            )}
          </div>
          {join.isError && (
            <p role="alert" className="text-sm text-danger">
              {t(errorMessageKey(join.error))}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={join.isPending}>
            {join.isPending ? t('waitlist.submitting') : t('waitlist.submit')}
          </button>
          <p className="text-sm text-muted">
            <Link to={paths.privacy} className="link">
              {t('waitlist.privacy_note')}
            </Link>
          </p>
        </form>
      )}
    </section>
  );
}
