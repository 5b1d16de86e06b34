import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VALIDATION_MESSAGES } from '@kaminuza/shared';
import { paths } from '../../lib/paths.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { loadFormats } from '../../lib/intl.ts';
import { errorMessageKey, fieldErrors } from '../../lib/error-messages.ts';
import { CheckboxField, FormAlert, TextField, useMessage } from './field.tsx';

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  error?: string;
  ref?: React.Ref<HTMLInputElement>;
};

/** The password of a new account, with the password rules below it. */
export function NewPasswordField(props: InputProps) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.password')}
      type="password"
      autoComplete="new-password"
      hint={t('auth.password_hint')}
      {...props}
    />
  );
}

/** The sign-up forms' "I accept the terms" checkbox, with the terms and privacy policy opening beside the form. */
export function TermsField(props: InputProps) {
  const { t } = useTranslation();
  return (
    <CheckboxField label={t('auth.signup.accept_terms')} {...props}>
      <span className="flex flex-wrap gap-x-4 pl-9 text-sm">
        <Link to={paths.terms} target="_blank" className="link inline-flex min-h-6 items-center">
          {t('auth.signup.terms_link')}
        </Link>
        <Link to={paths.privacy} target="_blank" className="link inline-flex min-h-6 items-center">
          {t('auth.signup.privacy_link')}
        </Link>
      </span>
    </CheckboxField>
  );
}

/** "Already have an account? Sign in", under the sign-up forms. */
export function HaveAccountPrompt() {
  const { t } = useTranslation();
  return (
    <p className="text-sm">
      {t('auth.signup.have_account')}{' '}
      <Link to={paths.login} className="link">
        {t('auth.signup.sign_in')}
      </Link>
    </p>
  );
}

/** The general validation message above a form that has invalid fields. */
export function InvalidFormAlert({ errors }: { errors: object }) {
  const message = useMessage();
  return Object.keys(errors).length > 0 ? <FormAlert>{message(VALIDATION_MESSAGES.general)}</FormAlert> : null;
}

/**
 * The translation key of a failed sign-up's message above the form (spec section 8): a refused password or
 * address is named there too; other refused fields only beside themselves; anything else in general words.
 */
export function signUpFailureKey(error: unknown): string | null {
  const rejected = fieldErrors(error);
  if ('password' in rejected) return 'auth_errors.weak_password';
  if ('email' in rejected) return 'auth_errors.invalid_email';
  if (Object.keys(rejected).length > 0) return null;
  return errorMessageKey(error, { network: 'auth_errors.network', fallback: 'auth_errors.signup_failed' });
}

/** Puts the API's per-field messages on the form's fields (`rename` maps an API field to the form's own). */
export function showFieldErrors<F extends string>(
  error: unknown,
  setError: (field: F, error: { message: string }) => void,
  rename: (field: string) => string = (field) => field,
) {
  for (const [field, text] of Object.entries(fieldErrors(error))) setError(rename(field) as F, { message: text });
}

/**
 * Country choices named in the reader's language. The names come from the runtime's Intl data, which
 * differs between the server that prerendered a page and the visitor's browser, so a hydrating page
 * lists them once hydrated.
 */
export function useCountryOptions() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const hydrated = useHydrated();
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    if (!hydrated) return;
    let current = true;
    // The country list (phone-number data) is fetched once the page is up, not with it; the names come from
    // the language's CLDR data where the browser lacks them (already there in the app, ADR 028).
    void Promise.all([import('../../lib/countries.ts'), loadFormats(language).catch(() => undefined)]).then(
      ([{ countryOptions }]) => {
        if (current) setOptions(countryOptions(language));
      },
    );
    return () => {
      current = false;
    };
  }, [hydrated, language]);
  return options;
}
