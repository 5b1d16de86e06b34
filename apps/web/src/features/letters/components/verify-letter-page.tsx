import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VerificationCodeParamsSchema, type LetterVerification } from '@kaminuza/shared';
import { paths } from '../../../lib/paths.ts';
import { FormAlert } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useLetterVerification } from '../api/verify-letter.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** A code as the letter prints it (groups of four), from what a person typed: any case, with or without dashes. */
export function normaliseCode(input: string): string | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const grouped = compact.length === 12 ? compact.replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3') : input;
  const parsed = VerificationCodeParamsSchema.safeParse({ code: grouped });
  return parsed.success ? parsed.data.code : null;
}

const isUnknown = (error: unknown) =>
  error instanceof ApiError && (error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT');

function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex w-full max-w-xl min-w-0 flex-col gap-6 px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{t('decisions.verify.title')}</h1>
      {children}
    </section>
  );
}

function Genuine({ letter, code }: { letter: LetterVerification; code: string }) {
  const { t, i18n } = useTranslation();
  const issued = dateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${letter.issued_on}T00:00:00Z`));
  const facts: Array<[string, string]> = [
    [t('decisions.verify.student'), letter.student_name],
    [t('decisions.verify.university'), letter.university_name],
    [t('decisions.verify.program'), letter.program_name],
    [t('decisions.verify.decision'), t(`decisions.view.states.${letter.state}`)],
    [t('decisions.verify.issued_on'), issued],
  ];
  return (
    <div className="flex flex-col gap-4 rounded-2xl border-2 border-success bg-surface p-5">
      <h2 className="flex items-center gap-2 text-xl font-bold text-success">
        <span aria-hidden="true">✓</span>
        {t('decisions.verify.genuine')}
      </h2>
      <p>{t('decisions.verify.genuine_lead')}</p>
      <dl className="flex flex-col gap-3">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-sm text-muted">{term}</dt>
            <dd className="font-semibold break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted">
        {t('decisions.verify.code', { code })} · {t('decisions.verify.limited')}
      </p>
    </div>
  );
}

/** Another code to check, for a letter whose QR code could not be read or was mistyped. */
function CodeForm({ initial }: { initial: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const inputId = useId();
  const helpId = useId();
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An unreadable code goes to the page too: it answers that no letter matches, as the api would.
    void navigate(paths.letter(normaliseCode(value) ?? (value.trim() || initial)));
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <label htmlFor={inputId} className="font-medium">
        {t('decisions.verify.code_label')}
      </label>
      <p id={helpId} className="text-sm text-muted">
        {t('decisions.verify.code_help')}
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id={inputId}
          aria-describedby={helpId}
          className="field-input min-w-0 flex-1 font-mono uppercase"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          required
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="btn-primary">
          {t('decisions.verify.check')}
        </button>
      </div>
    </form>
  );
}

/**
 * /letters/{code}: the public check of an admission letter, opened by its QR code. It confirms the
 * letter is genuine and shows no more than the name, the institution, the program and the decision.
 */
export function VerifyLetterPage() {
  const { t } = useTranslation();
  const { code: raw = '' } = useParams();
  const code = normaliseCode(raw);
  const query = useLetterVerification(code);

  const unknown = code === null || (query.isError && isUnknown(query.error));
  return (
    <Frame>
      {/* One region for every outcome, present from the start, so the answer is announced when it comes. */}
      <div aria-live="polite" className="flex min-w-0 flex-col gap-2">
        {unknown ? (
          <>
            <h2 className="text-xl font-bold">{t('decisions.verify.not_found_title')}</h2>
            <FormAlert>{t('decisions.errors.letter_not_found')}</FormAlert>
            <p className="text-sm text-muted">{t('decisions.verify.not_found_hint')}</p>
          </>
        ) : query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <LoadError
            error={query.error}
            retryLabel={t('decisions.verify.retry')}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <Genuine letter={query.data} code={code} />
        )}
      </div>
      {unknown && <CodeForm key={raw} initial={raw} />}
    </Frame>
  );
}
