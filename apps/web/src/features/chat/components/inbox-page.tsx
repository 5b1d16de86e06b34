import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { holdsPermission, type Chat } from '@kaminuza/shared';
import { EmptyState, LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useSession } from '../../../lib/session.tsx';
import { partnerEndpoint } from '../api/keys.ts';
import { Conversation } from './conversation.tsx';
import { useInbox } from '../api/inbox.ts';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** The signed-in member's institution and whether they may answer students (the api decides again). */
function useInboxAccess() {
  const { session } = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  return {
    partnerId: user?.partner_id ?? '',
    allowed: holdsPermission(user?.staff_permissions, 'message_applicants'),
  };
}

function useTimeFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const format = dateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' });
    return (iso: string) => format.format(new Date(iso));
  }, [lang]);
}

function ChatList({
  chats,
  selected,
  onSelect,
}: {
  chats: Chat[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const time = useTimeFormat();
  return (
    <ul className="flex flex-col gap-2" aria-label={t('partner_inbox.list_label')}>
      {chats.map((chat) => {
        const name = chat.student_name ?? t('partner_inbox.unknown_student');
        return (
          <li key={chat.id}>
            <button
              type="button"
              aria-current={chat.id === selected ? 'true' : undefined}
              onClick={() => onSelect(chat.id)}
              className={`flex w-full min-w-0 items-start gap-3 rounded-xl border p-3 text-left hover:bg-surface-muted ${chat.id === selected ? 'border-brand bg-surface-muted' : 'border-border bg-surface'}`}
            >
              <span className="min-w-0 flex-1">
                <span className="block font-medium break-words">{name}</span>
                <span className="block truncate text-sm text-muted">{chat.last_message}</span>
                <time className="block text-xs text-muted" dateTime={chat.last_message_at}>
                  {time(chat.last_message_at)}
                </time>
              </span>
              {chat.unread > 0 && (
                <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">
                  <span aria-hidden="true">{chat.unread}</span>
                  <span className="sr-only">{t('partner_inbox.unread', { count: chat.unread })}</span>
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The institution's messages: students' conversations, latest first, and the one chosen (kept in
 * `?chat=`, so a reload or a link opens it). On phones the list and the conversation take turns.
 */
export function InboxPage() {
  const { t } = useTranslation();
  const { partnerId, allowed } = useInboxAccess();
  const [params, setParams] = useSearchParams();
  const inbox = useInbox(partnerId, allowed && partnerId !== '');
  const selectedId = params.get('chat');
  const selected = inbox.data?.find((chat) => chat.id === selectedId) ?? null;
  const select = (id: string | null) => setParams(id ? { chat: id } : {}, { preventScrollReset: true });

  let body;
  if (!allowed) {
    body = <p className="rounded-xl border border-border bg-surface p-4">{t('partner_inbox.no_permission')}</p>;
  } else if (inbox.isPending) {
    body = <Spinner />;
  } else if (inbox.isError) {
    body = <LoadError error={inbox.error} retryLabel={t('partner_inbox.retry')} onRetry={() => void inbox.refetch()} />;
  } else if (inbox.data.length === 0) {
    body = <EmptyState title={t('partner_inbox.empty_title')} text={t('partner_inbox.empty_text')} />;
  } else {
    body = (
      <div className="grid gap-4 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <div className={selected ? 'hidden md:block' : ''}>
          <ChatList chats={inbox.data} selected={selected?.id ?? null} onSelect={select} />
        </div>
        {selected ? (
          <section aria-labelledby="conversation-title" className="flex min-w-0 flex-col gap-3">
            <button type="button" className="link self-start text-sm md:hidden" onClick={() => select(null)}>
              {t('partner_inbox.back')}
            </button>
            <h2 id="conversation-title" className="text-xl font-semibold break-words">
              {selected.student_name ?? t('partner_inbox.unknown_student')}
            </h2>
            <Conversation
              key={selected.id}
              endpoint={partnerEndpoint(partnerId, selected.id)}
              names={{
                mine: t('partner_inbox.us'),
                theirs: selected.student_name ?? t('partner_inbox.unknown_student'),
              }}
            />
          </section>
        ) : (
          <p className="hidden text-muted md:block">{t('partner_inbox.choose')}</p>
        )}
      </div>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('partner_inbox.title')}</h1>
        <p className="mt-2 text-muted">{t('partner_inbox.intro')}</p>
      </div>
      {body}
    </div>
  );
}
