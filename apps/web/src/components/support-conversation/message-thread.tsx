import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_MAX_LENGTH,
  SendMessageSchema,
  type AttachableDocument,
  type SendMessage,
  type SupportMessage,
} from '@kaminuza/shared';
import { FormAlert, TextAreaField, useMessage } from '../form/field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorMessageKey } from '../../lib/error-messages.ts';
import { dateTimeFormat } from '../../lib/intl.ts';

type Translate = ReturnType<typeof useTranslation>['t'];

/** Fills the spec's `{error}` placeholder (single braces, as the spec writes it, so not i18next's). */
export function withError(t: Translate, key: string, error: unknown): string {
  const detail = error instanceof ApiError ? t(errorMessageKey(error)) : t('errors.generic');
  return t(key).replace('{error}', detail);
}

/**
 * Why a message was not sent, in the spec's words: the ticket is closed, the database failed, or
 * "Failed to send message: {error}" with the reason.
 */
export function sendErrorText(t: Translate, error: unknown): string {
  if (error instanceof ApiError && error.reason === 'ticket_closed') {
    return t('support.errors.ticket_closed');
  }
  if (error instanceof ApiError && error.reason === 'support_database_failed') {
    return t('support.errors.database_failed');
  }
  return withError(t, 'support.errors.send_failed', error);
}

/**
 * A conversation's messages, oldest first. Bodies are plain text children (React escapes them), with
 * line breaks kept; a newer message scrolls the list to the bottom.
 */
export function MessageThread({
  viewer,
  messages,
  otherReadAt,
  hasOlder,
  loadingOlder,
  onLoadOlder,
}: {
  viewer: 'student' | 'team';
  messages: SupportMessage[];
  otherReadAt: string | null;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}) {
  const { t, i18n } = useTranslation();
  const end = useRef<HTMLLIElement>(null);
  const newest = messages.at(-1)?.id;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [newest]);
  const time = dateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });
  const lastOwn = [...messages].reverse().find((message) => message.sender_side === viewer);
  const seen = Boolean(lastOwn && otherReadAt && otherReadAt >= lastOwn.created_at);

  return (
    <div className="flex flex-col gap-3">
      {hasOlder && (
        <button type="button" className="btn-secondary self-center" disabled={loadingOlder} onClick={onLoadOlder}>
          {loadingOlder ? t('support.thread.loading_older') : t('support.thread.load_older')}
        </button>
      )}
      {/* The log role sits on a wrapper: on the list itself it would hide the list from screen readers. */}
      <div role="log" aria-live="polite" aria-label={t('support.thread.label')}>
        <ol className="flex flex-col gap-3">
          {messages.map((message) => {
            const own = message.sender_side === viewer;
            const author = own
              ? t('support.thread.you')
              : message.sender_side === 'team'
                ? t('support.thread.team')
                : (message.sender_name ?? t('support.thread.student'));
            return (
              <li
                key={message.id}
                className={`flex max-w-[85%] flex-col gap-1 rounded-2xl px-4 py-2 ${
                  own ? 'self-end bg-brand text-on-brand' : 'self-start border border-border bg-surface'
                }`}
              >
                <p className={`text-xs ${own ? 'opacity-90' : 'text-muted'}`}>
                  <span className="font-semibold">{author}</span> ·{' '}
                  <time dateTime={message.created_at}>{time.format(new Date(message.created_at))}</time>
                </p>
                <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{message.body}</p>
                {message.document && (
                  <p className="text-sm">
                    {t('support.thread.attached', {
                      name: message.document.name,
                      type: t(`documents.types.${message.document.type}`, { defaultValue: message.document.type }),
                    })}
                  </p>
                )}
              </li>
            );
          })}
          <li ref={end} aria-hidden="true" />
        </ol>
      </div>
      {seen && <p className="self-end text-xs text-muted">{t('support.thread.seen')}</p>}
    </div>
  );
}

/** Writes a message (and, for students, picks a profile document to share). Cleared once stored. */
export function Composer({
  documents,
  pending,
  error,
  onSend,
}: {
  documents?: AttachableDocument[];
  pending: boolean;
  error: string | null;
  onSend: (input: SendMessage, done: () => void) => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const form = useForm<SendMessage>({
    resolver: zodResolver(SendMessageSchema),
    defaultValues: { body: '', document_id: null },
  });
  const submit = form.handleSubmit((values) =>
    onSend({ body: values.body, document_id: values.document_id || null }, () =>
      form.reset({ body: '', document_id: null }),
    ),
  );
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
      {error && <FormAlert>{error}</FormAlert>}
      <TextAreaField
        label={t('support.composer.label')}
        rows={3}
        maxLength={MESSAGE_MAX_LENGTH}
        error={message(form.formState.errors.body?.message)}
        onKeyDown={(event) => {
          // Ctrl/Cmd+Enter sends; Enter alone makes a new line, as people write longer questions.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
        }}
        {...form.register('body')}
      />
      <div className="flex flex-wrap items-end justify-between gap-3">
        {documents && documents.length > 0 ? (
          <div className="flex min-w-0 flex-col gap-1.5">
            <label htmlFor="support-attach" className="text-sm font-medium">
              {t('support.composer.attach')}
            </label>
            <select id="support-attach" className="field-input" {...form.register('document_id')}>
              <option value="">{t('support.composer.no_attachment')}</option>
              {documents.map((document) => (
                <option key={document.id} value={document.id}>
                  {t(`documents.types.${document.type}`, { defaultValue: document.type })} — {document.name}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <span />
        )}
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? t('support.composer.sending') : t('support.composer.send')}
        </button>
      </div>
    </form>
  );
}
