import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DevMailboxMessage, DevMailboxSummary } from '@kaminuza/shared';
import { Spinner } from '../../../components/spinner.tsx';
import { useDevMail } from '../api/get-dev-mail.ts';
import { useDevMailbox } from '../api/get-dev-mailbox.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** http(s) URLs in a plain-text part, without the punctuation that usually ends a sentence after one. */
const URL_PATTERN = /https?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]]/g;

/** The plain-text part with its links clickable; everything else stays text (React escapes it). */
function linkify(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    parts.push(
      <a key={start} href={match[0]} className="link break-all">
        {match[0]}
      </a>,
    );
    last = start + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function useDateFormat() {
  const { i18n } = useTranslation();
  const format = dateTimeFormat(i18n.resolvedLanguage ?? i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso: string) => format.format(new Date(iso));
}

function Problem({ text, onRetry }: { text: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="rounded-xl border border-border bg-surface p-4">
      <p className="text-danger">{text}</p>
      <button type="button" className="btn-secondary mt-3" onClick={onRetry}>
        {t('dev_mailbox.retry')}
      </button>
    </div>
  );
}

function MessageList({ messages, selected }: { messages: DevMailboxSummary[]; selected: string | null }) {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  return (
    <ul className="divide-y divide-border overflow-hidden rounded-xl border border-border bg-surface">
      {messages.map((message) => (
        <li key={message.id}>
          <Link
            to={{ search: `?id=${message.id}` }}
            aria-current={message.id === selected ? 'true' : undefined}
            className="block px-4 py-3 hover:bg-surface-muted aria-[current=true]:bg-surface-muted"
          >
            <span className="block truncate font-semibold">{message.subject || t('dev_mailbox.no_subject')}</span>
            <span className="block truncate text-sm text-muted">
              {t('dev_mailbox.to')}: {message.to}
            </span>
            <time dateTime={message.created_at} className="block text-xs text-muted">
              {formatDate(message.created_at)}
            </time>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function MessageView({ message }: { message: DevMailboxMessage }) {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const htmlId = useId();
  const textId = useId();
  const subject = message.subject || t('dev_mailbox.no_subject');

  // On a phone the list gives way to the message: move focus with it so a screen reader follows.
  useEffect(() => {
    headingRef.current?.focus();
  }, [message.id]);

  return (
    <article aria-labelledby={`${htmlId}-subject`} className="flex min-w-0 flex-col gap-5">
      <h2 id={`${htmlId}-subject`} ref={headingRef} tabIndex={-1} className="text-xl font-bold break-words sm:text-2xl">
        {subject}
      </h2>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-muted">{t('dev_mailbox.from')}</dt>
        <dd className="break-words">{message.from}</dd>
        <dt className="font-medium text-muted">{t('dev_mailbox.to')}</dt>
        <dd className="break-words">{message.to}</dd>
        <dt className="font-medium text-muted">{t('dev_mailbox.received')}</dt>
        <dd>
          <time dateTime={message.created_at}>{formatDate(message.created_at)}</time>
        </dd>
      </dl>

      <section aria-labelledby={htmlId}>
        <h3 id={htmlId} className="mb-2 font-semibold">
          {t('dev_mailbox.html_version')}
        </h3>
        {message.html ? (
          // sandbox="" with no allowances: no scripts, forms, popups or navigation from the message. The
          // document comes from the api, under a policy that allows the email's inline styles (a srcdoc
          // frame would inherit this page's, which refuses them).
          <iframe
            sandbox=""
            src={`/api/v1/dev/mailbox/${encodeURIComponent(message.id)}/html`}
            title={t('dev_mailbox.preview_title', { subject })}
            className="h-[28rem] w-full rounded-xl border border-border bg-white"
          />
        ) : (
          <p className="text-muted">{t('dev_mailbox.no_html')}</p>
        )}
      </section>

      <section aria-labelledby={textId}>
        <h3 id={textId} className="mb-2 font-semibold">
          {t('dev_mailbox.text_version')}
        </h3>
        {message.text ? (
          <pre className="rounded-xl border border-border bg-surface p-4 font-sans text-sm break-words whitespace-pre-wrap">
            {linkify(message.text)}
          </pre>
        ) : (
          <p className="text-muted">{t('dev_mailbox.no_text')}</p>
        )}
      </section>

      <details className="rounded-xl border border-border bg-surface p-4">
        <summary className="cursor-pointer font-semibold">{t('dev_mailbox.headers')}</summary>
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 font-mono text-xs">
          {message.headers.map((header, index) => (
            <div key={index} className="contents">
              <dt className="font-semibold">{header.name}</dt>
              <dd className="break-all">{header.value}</dd>
            </div>
          ))}
        </dl>
      </details>
    </article>
  );
}

function SelectedMessage({ id }: { id: string }) {
  const { t } = useTranslation();
  const mail = useDevMail(id);
  if (mail.isPending) return <Spinner />;
  if (mail.isError) return <Problem text={t('dev_mailbox.message_error')} onRetry={() => void mail.refetch()} />;
  return <MessageView message={mail.data} />;
}

/** The development mailbox: every email this server sent, readable without an email client. */
export function DevMailboxPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const selected = searchParams.get('id');
  const list = useDevMailbox();
  const listHeadingId = useId();

  let listContent: ReactNode;
  if (list.isPending) listContent = <Spinner />;
  else if (list.isError) {
    listContent = <Problem text={t('dev_mailbox.load_error')} onRetry={() => void list.refetch()} />;
  } else if (list.data.length === 0) {
    listContent = <p className="rounded-xl border border-border bg-surface p-4 text-muted">{t('dev_mailbox.empty')}</p>;
  } else listContent = <MessageList messages={list.data} selected={selected} />;

  return (
    <section className="container-page py-8 sm:py-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold">{t('dev_mailbox.title')}</h1>
          <p className="mt-2 text-muted">{t('dev_mailbox.intro')}</p>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <Link to="/dev/phone" className="link">
            {t('dev_mailbox.phone_link')}
          </Link>
          <button
            type="button"
            className="btn-secondary"
            onClick={() => void list.refetch()}
            disabled={list.isFetching}
          >
            {t('dev_mailbox.refresh')}
          </button>
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <nav aria-labelledby={listHeadingId} className={selected ? 'hidden lg:block' : undefined}>
          <h2 id={listHeadingId} className="mb-3 text-lg font-semibold">
            {t('dev_mailbox.messages')}
          </h2>
          {listContent}
        </nav>
        <div className={selected ? 'min-w-0' : 'hidden min-w-0 lg:block'}>
          {selected ? (
            <div className="flex flex-col gap-4">
              <Link to={{ search: '' }} className="link self-start lg:hidden">
                {t('dev_mailbox.back')}
              </Link>
              <SelectedMessage id={selected} />
            </div>
          ) : (
            <p className="rounded-xl border border-dashed border-border p-6 text-muted">{t('dev_mailbox.select')}</p>
          )}
        </div>
      </div>
    </section>
  );
}
