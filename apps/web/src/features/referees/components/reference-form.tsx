import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  localized,
  REFEREE_MESSAGES as R,
  REFERENCE_ANSWER_MAX_CHARS,
  REFERENCE_LETTER_MAX_BYTES,
  REFERENCE_LETTER_MAX_CHARS,
  type ReferenceRequest,
} from '@kaminuza/shared';
import { ApiError } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import { dateTimeFormat, numberFormat } from '../../../lib/intl.ts';
import { useOnline } from '../../../lib/use-online.ts';
import { FormAlert, TextAreaField, useMessage } from '../../../components/form/field.tsx';
import { useSendReference, useUploadLetter } from '../api/reference.ts';

interface Draft {
  answers: string[];
  letter: string;
}

/**
 * What the referee has written so far, kept in this tab (a reload or a lost connection loses nothing)
 * and forgotten once the reference is sent. Never in lasting storage: the computer may be shared.
 */
function useDraft(token: string, prompts: number) {
  const key = `kaminuza-reference-draft:${token}`;
  const [draft, setDraft] = useState<Draft>(() => {
    const empty = { answers: Array.from({ length: prompts }, () => ''), letter: '' };
    try {
      const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<Draft> | null;
      if (!saved) return empty;
      return {
        answers: empty.answers.map((_, i) => (typeof saved.answers?.[i] === 'string' ? saved.answers[i] : '')),
        letter: typeof saved.letter === 'string' ? saved.letter : '',
      };
    } catch {
      return empty;
    }
  });
  useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify(draft));
    } catch {
      // Storage refused or full: the draft stays on the page only.
    }
  }, [key, draft]);
  const forget = () => {
    try {
      sessionStorage.removeItem(key);
    } catch {
      // Nothing was kept.
    }
  };
  return { draft, setDraft, forget };
}

/** Why a chosen file cannot be the letter, before sending it: not a PDF, or too large. */
export function letterFileProblem(file: File): string | null {
  const pdf = file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name));
  if (!pdf) return R.letter_not_pdf;
  if (file.size > REFERENCE_LETTER_MAX_BYTES) return R.letter_too_large;
  return null;
}

/** A refusal of the link (used, expired) or of a call, in the reader's language; the rate limit has its own words. */
function useFailureText() {
  const { t } = useTranslation();
  return (error: unknown) =>
    error instanceof ApiError && error.status === 'RESOURCE_EXHAUSTED'
      ? t('referees.page.rate_limited_text')
      : t(errorMessageKey(error));
}

/** The PDF letter: choose a file (checked here first), uploaded at once; another file replaces it. */
function LetterUpload({ token, fileName, online }: { token: string; fileName: string | null; online: boolean }) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const failure = useFailureText();
  const id = useId();
  const upload = useUploadLetter(token);
  const [problem, setProblem] = useState<string | null>(null);
  const language = i18n.resolvedLanguage ?? i18n.language;
  const megabytes = REFERENCE_LETTER_MAX_BYTES / (1024 * 1024);
  const size = useMemo(() => {
    try {
      return numberFormat(language, { style: 'unit', unit: 'megabyte', unitDisplay: 'short' }).format(megabytes);
    } catch {
      return `${megabytes} MB`;
    }
  }, [language, megabytes]);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    upload.reset();
    const refused = letterFileProblem(file);
    setProblem(refused);
    if (refused) {
      input.value = '';
      return;
    }
    upload.mutate(file, {
      onSettled: () => {
        input.value = '';
      },
    });
  };

  const error = problem ? message(problem) : upload.isError ? failure(upload.error) : null;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div aria-live="polite">
        {upload.isPending && upload.variables ? (
          <p className="text-sm [overflow-wrap:anywhere]">
            {t('referees.page.uploading', { name: upload.variables.name })}
          </p>
        ) : (
          fileName && (
            <p className="flex items-start gap-2 text-sm font-medium [overflow-wrap:anywhere]">
              <span aria-hidden="true" className="text-success">
                ✓
              </span>
              <span>{t('referees.page.uploaded', { name: fileName })}</span>
            </p>
          )
        )}
      </div>
      {/*
       * The browser's own file control writes "No file chosen" in its language, not the page's: it stays for
       * keyboards and screen readers, and its label is the button seen (focus shows on the label).
       */}
      <div>
        <input
          id={id}
          type="file"
          accept="application/pdf"
          disabled={upload.isPending || !online}
          aria-invalid={error !== null}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={choose}
          className="peer sr-only"
        />
        <label
          htmlFor={id}
          className="btn-secondary cursor-pointer peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-accent peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
        >
          {fileName ? t('referees.page.pdf_replace') : t('referees.page.pdf_label')}
        </label>
      </div>
      <p id={hintId} className="text-sm text-muted">
        {t('referees.page.pdf_hint', { size })}
      </p>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

interface Problems {
  answers: Array<string | undefined>;
  letter?: string;
}

/** The request as the referee reads it, their answers and letter, and the one send. */
export function ReferenceForm({
  token,
  request,
  onSent,
}: {
  token: string;
  request: ReferenceRequest;
  onSent: (request: ReferenceRequest) => void;
}) {
  const { t, i18n } = useTranslation();
  const failure = useFailureText();
  const online = useOnline();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const form = useRef<HTMLFormElement>(null);
  const { draft, setDraft, forget } = useDraft(token, request.prompts.length);
  const [problems, setProblems] = useState<Problems>({ answers: [] });
  const [checked, setChecked] = useState(0);
  const send = useSendReference(token);
  const letterHintId = useId();
  const count = numberFormat(language);
  const expires = dateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(request.expires_at),
  );

  // After a refused check, the first field to fix takes focus (its message is read with it).
  useEffect(() => {
    if (checked > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [checked]);

  const characters = (used: number, max: number) =>
    t('referees.page.characters', { used: count.format(used), max: count.format(max) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const answers = draft.answers.map((answer) => answer.trim());
    const letter = draft.letter.trim();
    const found: Problems = {
      answers: answers.map((answer) => (answer === '' ? t('referees.page.answer_required') : undefined)),
      letter: letter === '' && !request.letter_file_name ? R.letter_required : undefined,
    };
    setProblems(found);
    if (found.letter || found.answers.some(Boolean)) {
      setChecked((n) => n + 1);
      return;
    }
    send.mutate(letter ? { answers, letter_text: letter } : { answers }, {
      onSuccess: () => {
        forget();
        onSent(request);
      },
    });
  };

  return (
    <>
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
          {t('referees.page.heading', { applicant: request.applicant_name })}
        </h1>
        <p className="text-lg text-muted [overflow-wrap:anywhere]">
          {t('referees.page.program_at', { program: request.program_name, institution: request.institution_name })}
        </p>
      </header>

      <div className="flex flex-col gap-3">
        <p className="font-medium">{t('referees.page.greeting', { name: request.referee_name })}</p>
        <p>{t('referees.page.intro', { applicant: request.applicant_name, institution: request.institution_name })}</p>
        <p className="text-sm text-muted">
          {t('referees.page.asked_as', { kind: t(`referees.kinds.${request.kind}`) })}
        </p>
        <div className="flex flex-col gap-1 rounded-xl border border-border bg-surface p-4">
          <p className="font-semibold" data-testid="waiver">
            {request.waived ? t('referees.page.waived') : t('referees.page.not_waived')}
          </p>
          <p className="text-sm text-muted">
            {request.waived ? t('referees.page.waived_detail') : t('referees.page.not_waived_detail')}
          </p>
        </div>
        <p className="text-sm">{t('referees.page.expires', { date: expires })}</p>
      </div>

      <form ref={form} noValidate onSubmit={submit} className="flex flex-col gap-8">
        {request.prompts.length > 0 && (
          <fieldset className="flex min-w-0 flex-col gap-5">
            <legend className="mb-3 text-xl font-bold">
              {t('referees.page.questions_title', { institution: request.institution_name })}
            </legend>
            {request.prompts.map((prompt, i) => (
              <TextAreaField
                key={i}
                label={localized(prompt, language)}
                rows={4}
                required
                maxLength={REFERENCE_ANSWER_MAX_CHARS}
                value={draft.answers[i] ?? ''}
                hint={characters((draft.answers[i] ?? '').length, REFERENCE_ANSWER_MAX_CHARS)}
                error={problems.answers[i]}
                onChange={(event) => {
                  const value = event.target.value;
                  setDraft((old) => ({ ...old, answers: old.answers.map((answer, j) => (j === i ? value : answer)) }));
                  setProblems((old) => ({ ...old, answers: old.answers.map((p, j) => (j === i ? undefined : p)) }));
                }}
              />
            ))}
          </fieldset>
        )}

        <fieldset className="flex min-w-0 flex-col gap-5" aria-describedby={letterHintId}>
          <legend className="mb-3 text-xl font-bold">{t('referees.page.letter_title')}</legend>
          <p id={letterHintId} className="text-muted">
            {t('referees.page.letter_intro')}
          </p>
          <TextAreaField
            label={t('referees.page.letter_label')}
            rows={12}
            maxLength={REFERENCE_LETTER_MAX_CHARS}
            value={draft.letter}
            hint={characters(draft.letter.length, REFERENCE_LETTER_MAX_CHARS)}
            error={request.letter_file_name ? undefined : problems.letter}
            onChange={(event) => {
              const value = event.target.value;
              setDraft((old) => ({ ...old, letter: value }));
              setProblems((old) => ({ ...old, letter: undefined }));
            }}
          />
          <LetterUpload token={token} fileName={request.letter_file_name} online={online} />
        </fieldset>

        <div className="flex flex-col gap-3">
          {send.isError && <FormAlert>{failure(send.error)}</FormAlert>}
          {!online && <FormAlert tone="success">{t('referees.page.offline_send')}</FormAlert>}
          <p className="text-sm text-muted">{t('referees.page.send_hint')}</p>
          <button type="submit" className="btn-primary self-stretch sm:self-start" disabled={send.isPending || !online}>
            {send.isPending ? t('referees.page.sending') : t('referees.page.send')}
          </button>
        </div>
      </form>
    </>
  );
}
