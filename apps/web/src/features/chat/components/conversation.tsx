import { useEffect, useMemo, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { MESSAGE_MAX_LENGTH, SendMessageSchema, type ChatMessage } from '@kaminuza/shared';
import { FormAlert, TextAreaField } from '../../../components/form/field.tsx';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError, hasReason } from '../../../lib/api-client.ts';
import { errorMessageKey } from '../../../lib/error-messages.ts';
import type { ChatEndpoint } from '../api/keys.ts';
import { useChat, useChatMessages, useMarkChatRead, useSendChatMessage } from '../api/conversation.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

const ComposerSchema = SendMessageSchema.pick({ body: true });
type Composer = z.infer<typeof ComposerSchema>;

/** Message times in the reader's language and time zone. */
function useTimeFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const format = dateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
    return (iso: string) => format.format(new Date(iso));
  }, [lang]);
}

function Bubble({
  message,
  mine,
  seen,
  senderLabel,
}: {
  message: ChatMessage;
  mine: boolean;
  seen: boolean;
  senderLabel: string;
}) {
  const { t } = useTranslation();
  const time = useTimeFormat();
  return (
    <li className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <article
        aria-label={t('chat.message_from', { name: senderLabel })}
        className={`max-w-[85%] min-w-0 rounded-2xl px-4 py-2 sm:max-w-[70%] ${mine ? 'bg-brand text-on-brand' : 'border border-border bg-surface'}`}
      >
        <p className="text-xs font-medium opacity-80">{senderLabel}</p>
        {/* Text, never HTML: React escapes it, so markup a sender typed shows as typed. */}
        <p className="whitespace-pre-wrap break-words">{message.body}</p>
        <p className="mt-1 text-xs opacity-80">
          <time dateTime={message.created_at}>{time(message.created_at)}</time>
          {mine && seen && <span> · {t('chat.seen')}</span>}
        </p>
      </article>
    </li>
  );
}

/** Why a message was not sent, in the spec's words: "Failed to send message: {error}". */
function useSendError() {
  const { t } = useTranslation();
  return (error: unknown) => {
    if (hasReason(error, 'institution_unavailable')) {
      return t('support.errors.institution_unavailable');
    }
    if (error instanceof ApiError && (error.status === 'UNAVAILABLE' || error.status === 'DEADLINE_EXCEEDED')) {
      return t('support.errors.database_failed');
    }
    // The catalogue keeps the spec's "{error}" placeholder as written, so it is filled in here.
    return t('support.errors.send_failed').replace('{error}', t(errorMessageKey(error)));
  };
}

/**
 * One conversation, shared by the student's chat and the institution's inbox: its messages (older
 * pages on demand), a composer, and read receipts. Opening it marks it read; new messages arrive
 * through the ['messaging'] queries the realtime client refreshes.
 */
export function Conversation({
  endpoint,
  names,
}: {
  endpoint: ChatEndpoint;
  /** How each side is labelled to this reader. */
  names: { mine: string; theirs: string };
}) {
  const { t } = useTranslation();
  const chat = useChat(endpoint);
  const messages = useChatMessages(endpoint);
  const send = useSendChatMessage(endpoint);
  const markRead = useMarkChatRead(endpoint);
  const sendError = useSendError();
  const endRef = useRef<HTMLDivElement>(null);

  const unread = chat.data?.unread ?? 0;
  const { mutate: markAsRead, isPending: marking } = markRead;
  useEffect(() => {
    // Whatever arrived while the conversation is open has been seen: tell the other side.
    if (unread > 0 && !marking) markAsRead();
  }, [unread, marking, markAsRead]);

  const ordered = useMemo(
    () => (messages.data ? [...messages.data.pages].reverse().flatMap((page) => page.messages) : []),
    [messages.data],
  );
  const newestId = ordered.at(-1)?.id;
  useEffect(() => {
    // Keep the newest message in view as messages arrive (not when older pages are loaded above).
    endRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [newestId]);

  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors },
  } = useForm<Composer>({ resolver: zodResolver(ComposerSchema), defaultValues: { body: '' } });
  const length = useWatch({ control, name: 'body' }).length;

  const submit = handleSubmit((values) =>
    send.mutateAsync(values.body).then(
      () => reset({ body: '' }),
      () => undefined,
    ),
  );

  if (messages.isPending) return <Spinner />;
  if (messages.isError) {
    return <LoadError error={messages.error} retryLabel={t('chat.retry')} onRetry={() => void messages.refetch()} />;
  }

  const otherReadAt = chat.data?.other_read_at ?? null;
  const lastMine = [...ordered].reverse().find((m) => m.sender_side === endpoint.side);

  return (
    <div className="flex min-h-0 flex-col gap-4">
      <div className="flex flex-col gap-3 rounded-2xl border border-border bg-surface-muted/40 p-3 sm:p-4">
        {messages.hasNextPage && (
          <button
            type="button"
            className="btn-secondary self-center"
            disabled={messages.isFetchingNextPage}
            onClick={() => void messages.fetchNextPage()}
          >
            {messages.isFetchingNextPage ? t('chat.loading_older') : t('chat.load_older')}
          </button>
        )}
        {ordered.length === 0 ? (
          <p className="p-4 text-center text-muted">{t('chat.empty')}</p>
        ) : (
          // The log announces arrivals; the list inside keeps the messages a list for screen readers.
          <div role="log" aria-live="polite" aria-label={t('chat.messages_label')}>
            <ol className="flex flex-col gap-2">
              {ordered.map((message) => {
                const mine = message.sender_side === endpoint.side;
                return (
                  <Bubble
                    key={message.id}
                    message={message}
                    mine={mine}
                    seen={message.id === lastMine?.id && otherReadAt !== null && otherReadAt >= message.created_at}
                    senderLabel={
                      mine
                        ? names.mine
                        : message.sender_name
                          ? `${message.sender_name} · ${names.theirs}`
                          : names.theirs
                    }
                  />
                );
              })}
            </ol>
          </div>
        )}
        <div ref={endRef} />
      </div>

      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
        {send.isError && <FormAlert>{sendError(send.error)}</FormAlert>}
        <TextAreaField
          label={t('chat.message_label')}
          rows={3}
          maxLength={MESSAGE_MAX_LENGTH}
          hint={t('chat.length', { count: length, max: MESSAGE_MAX_LENGTH })}
          error={errors.body?.message}
          {...register('body')}
        />
        <button type="submit" className="btn-primary self-end" disabled={send.isPending}>
          {send.isPending ? t('chat.sending') : t('chat.send')}
        </button>
      </form>
    </div>
  );
}
