import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { UseQueryResult } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError } from '../lib/api-client.ts';
import { FormAlert } from './form/field.tsx';
import { LoadError } from './list-states.tsx';
import { Spinner } from './spinner.tsx';

/*
 * The public pages a printed QR code opens (an admission letter, a payment receipt) answer the same way:
 * the document is genuine, no document has this code, or the check failed and may be retried. What each
 * document shows, its texts and its api call stay with its feature.
 */

/**
 * A code as the document prints it (groups of four), from what a person typed: any case, with or without
 * dashes. The schema is the api route's own, so the page refuses exactly the codes the route would.
 */
export function normaliseVerificationCode(input: string, schema: z.ZodType<{ code: string }>): string | null {
  const compact = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const grouped = compact.length === 12 ? compact.replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3') : input;
  const parsed = schema.safeParse({ code: grouped });
  return parsed.success ? parsed.data.code : null;
}

// A malformed code the api refuses names no document either: the reader is told so, not shown an error.
const isUnknown = (error: unknown) =>
  error instanceof ApiError && (error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT');

/** The answer for a code that names a genuine document: what it proves, and the code it was checked by. */
export function GenuineDocument({
  title,
  lead,
  facts,
  footer,
}: {
  title: string;
  lead: string;
  facts: Array<[term: string, value: string]>;
  footer: string;
}) {
  return (
    <div className="flex flex-col gap-4 rounded-2xl border-2 border-success bg-surface p-5">
      <h2 className="flex items-center gap-2 text-xl font-bold text-success">
        <span aria-hidden="true">✓</span>
        {title}
      </h2>
      <p>{lead}</p>
      <dl className="flex flex-col gap-3">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-sm text-muted">{term}</dt>
            <dd className="font-semibold break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm break-words text-muted">{footer}</p>
    </div>
  );
}

/** What a reader of a verification page reads, in the words of the document it checks. */
export interface VerificationTexts {
  title: string;
  notFoundTitle: string;
  notFound: string;
  notFoundHint?: string;
  retry: string;
  codeLabel: string;
  codeHelp: string;
  check: string;
}

/** Another code to check, for a document whose QR code could not be read or was mistyped. */
function CodeForm({
  initial,
  texts,
  normalise,
  pathOf,
}: {
  initial: string;
  texts: VerificationTexts;
  normalise: (input: string) => string | null;
  pathOf: (code: string) => string;
}) {
  const navigate = useNavigate();
  const inputId = useId();
  const helpId = useId();
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An unreadable code goes to the page too: it answers that no document matches, as the api would.
    void navigate(pathOf(normalise(value) ?? (value.trim() || initial)));
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2">
      <label htmlFor={inputId} className="font-medium">
        {texts.codeLabel}
      </label>
      <p id={helpId} className="text-sm text-muted">
        {texts.codeHelp}
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
          {texts.check}
        </button>
      </div>
    </form>
  );
}

/**
 * A public verification page: the code from the address (`raw`, and `code` once read, null when it
 * cannot be one), the api's answer for it, and `children` drawing the genuine document. An unknown code
 * offers a form to check another one, which `pathOf` turns into the page's address.
 */
export function VerificationPage<T>({
  raw,
  code,
  query,
  texts,
  normalise,
  pathOf,
  children,
}: {
  raw: string;
  code: string | null;
  query: UseQueryResult<T>;
  texts: VerificationTexts;
  normalise: (input: string) => string | null;
  pathOf: (code: string) => string;
  children: (data: T, code: string) => ReactNode;
}) {
  const unknown = code === null || (query.isError && isUnknown(query.error));
  return (
    <section className="mx-auto flex w-full max-w-xl min-w-0 flex-col gap-6 px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{texts.title}</h1>
      {/* One region for every outcome, present from the start, so the answer is announced when it comes. */}
      <div aria-live="polite" className="flex min-w-0 flex-col gap-2">
        {unknown ? (
          <>
            <h2 className="text-xl font-bold">{texts.notFoundTitle}</h2>
            <FormAlert>{texts.notFound}</FormAlert>
            {texts.notFoundHint && <p className="text-sm text-muted">{texts.notFoundHint}</p>}
          </>
        ) : query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <LoadError error={query.error} retryLabel={texts.retry} onRetry={() => void query.refetch()} />
        ) : (
          children(query.data, code)
        )}
      </div>
      {unknown && <CodeForm key={raw} initial={raw} texts={texts} normalise={normalise} pathOf={pathOf} />}
    </section>
  );
}
