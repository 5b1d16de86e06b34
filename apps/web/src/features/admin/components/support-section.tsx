import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TICKET_STATUSES, type SupportTicket } from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert } from '../../../components/form/field.tsx';
import { SkeletonTable } from '../../../components/skeleton-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useSendMessage, useTicketAction } from '../../../components/support-conversation/use-ticket-conversation.ts';
import { Composer, MessageThread, sendErrorText } from '../../../components/support-conversation/message-thread.tsx';
import {
  adminTicketPath,
  inboxKeys,
  useInboxConversation,
  useSupportAgents,
  useSupportInbox,
} from '../api/support-inbox.ts';
import {
  adminErrorKey,
  EmptyState,
  Pager,
  SearchBox,
  SectionError,
  useDebouncedSearch,
  useFormats,
} from './list-parts.tsx';

type Status = (typeof TICKET_STATUSES)[number];

function TicketRow({ ticket, selected, onOpen }: { ticket: SupportTicket; selected: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  const format = useFormats();
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onOpen}
      className={`flex w-full flex-col gap-1 p-4 text-left hover:bg-surface-muted ${selected ? 'bg-surface-muted' : ''}`}
    >
      <span className="flex flex-wrap items-center gap-2">
        <span className="font-semibold [overflow-wrap:anywhere]">{ticket.subject}</span>
        {ticket.unread > 0 && (
          <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">
            {t('support_inbox.unread', { count: ticket.unread })}
          </span>
        )}
      </span>
      <span className="text-sm text-muted [overflow-wrap:anywhere]">
        {ticket.student_name ?? t('support_inbox.unnamed_student')} · {format.dateTime(ticket.last_message_at)}
      </span>
      <span className="text-sm text-muted">
        {ticket.assigned_name
          ? t('support_inbox.assigned_to', { name: ticket.assigned_name })
          : t('support_inbox.unassigned')}
      </span>
    </button>
  );
}

function AssignControl({ ticket }: { ticket: SupportTicket }) {
  const { t } = useTranslation();
  const id = useId();
  const { session } = useSession();
  const me = session.status === 'signed-in' ? session.user.id : null;
  const agents = useSupportAgents();
  const assign = useTicketAction(adminTicketPath(ticket.id), 'assign');
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {t('support_inbox.assign_label')}
      </label>
      <div className="flex flex-wrap gap-2">
        <select
          id={id}
          className="field-input min-w-0 flex-1"
          value={ticket.assigned_to ?? ''}
          disabled={assign.isPending || !agents.data}
          onChange={(event) => assign.mutate({ admin_id: event.target.value || null })}
        >
          <option value="">{t('support_inbox.unassigned')}</option>
          {agents.data?.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.id === me ? t('support_inbox.me', { name: agent.name || agent.email }) : agent.name || agent.email}
            </option>
          ))}
        </select>
        {me && ticket.assigned_to !== me && (
          <button
            type="button"
            className="btn-secondary"
            disabled={assign.isPending}
            onClick={() => assign.mutate({ admin_id: me })}
          >
            {t('support_inbox.assign_me')}
          </button>
        )}
      </div>
      {assign.isError && <FormAlert>{t(adminErrorKey(assign.error))}</FormAlert>}
    </div>
  );
}

function InboxConversation({ id }: { id: string }) {
  const { t } = useTranslation();
  const conversation = useInboxConversation(id);
  const path = adminTicketPath(id);
  const send = useSendMessage(inboxKeys.ticket(id), path);
  const close = useTicketAction(path, 'close');
  const read = useTicketAction(path, 'read');
  const [confirming, setConfirming] = useState(false);
  const pages = conversation.data?.pages;
  const ticket = pages?.[0]?.ticket;

  // Reading the conversation marks the student's messages read, only when some are unread, so the
  // receipt's own event does not trigger another.
  const unread = ticket?.unread ?? 0;
  const { mutate: markRead, isPending: marking } = read;
  useEffect(() => {
    if (unread > 0 && !marking) markRead(undefined);
  }, [unread, marking, markRead]);

  if (conversation.isError) {
    const missing = conversation.error instanceof ApiError && conversation.error.status === 'NOT_FOUND';
    return missing ? (
      <FormAlert>{t('support.errors.conversation_not_found')}</FormAlert>
    ) : (
      <SectionError error={conversation.error} onRetry={() => void conversation.refetch()} />
    );
  }
  if (!pages || !ticket) return <Spinner />;
  const messages = [...pages].reverse().flatMap((page) => page.messages);

  return (
    <section aria-labelledby="support-inbox-conversation" className="flex min-w-0 flex-col gap-4">
      <header className="flex flex-col gap-1">
        <h3 id="support-inbox-conversation" className="text-lg font-semibold [overflow-wrap:anywhere]">
          {ticket.subject}
        </h3>
        <p className="text-sm text-muted">
          {ticket.student_name ?? t('support_inbox.unnamed_student')} · {t(`support.status.${ticket.status}`)}
          {ticket.status === 'closed' && ticket.closed_by && ` · ${t(`support_inbox.closed_by.${ticket.closed_by}`)}`}
        </p>
      </header>
      <AssignControl ticket={ticket} />
      <MessageThread
        viewer="team"
        messages={messages}
        otherReadAt={ticket.other_read_at}
        hasOlder={conversation.hasNextPage}
        loadingOlder={conversation.isFetchingNextPage}
        onLoadOlder={() => void conversation.fetchNextPage()}
      />
      {ticket.status === 'open' ? (
        <>
          <Composer
            pending={send.isPending}
            error={send.isError ? sendErrorText(t, send.error) : null}
            onSend={(input, done) => send.mutate({ body: input.body }, { onSuccess: done })}
          />
          <button type="button" className="btn-secondary self-start" onClick={() => setConfirming(true)}>
            {t('support_inbox.close.action')}
          </button>
        </>
      ) : (
        <p role="status" className="rounded-xl border border-border p-4 text-muted">
          {t('support_inbox.closed_notice')}
        </p>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('support_inbox.close.title')}
          description={t('support_inbox.close.description')}
          confirmLabel={t('support_inbox.close.confirm')}
          cancelLabel={t('support_inbox.close.cancel')}
          pending={close.isPending}
          error={close.isError ? t(adminErrorKey(close.error)) : undefined}
          onConfirm={() => close.mutate(undefined, { onSuccess: () => setConfirming(false) })}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

/**
 * The support team's inbox (a tab of the admin dashboard): open or closed tickets, searchable, only
 * the caller's if asked; the chosen ticket (`?ticket=`) opens beside the list, or under it on a phone.
 */
export function SupportSection() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useState<Status>('open');
  const [mine, setMine] = useState(false);
  const [page, setPage] = useState(1);
  const [text, q, setText] = useDebouncedSearch();
  const selected = params.get('ticket');
  const inbox = useSupportInbox({ status, q: q || undefined, mine: mine ? 'true' : undefined, page });
  const statusId = useId();

  const open = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('ticket', id);
        else next.delete('ticket');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  let list: ReactNode;
  if (inbox.isError) list = <SectionError error={inbox.error} onRetry={() => void inbox.refetch()} />;
  else if (!inbox.data) list = <SkeletonTable rows={5} columns={1} />;
  else if (inbox.data.items.length === 0) {
    list = <EmptyState>{q || mine ? t('support_inbox.no_match') : t(`support_inbox.empty.${status}`)}</EmptyState>;
  } else {
    list = (
      <>
        <ul
          aria-label={t('support_inbox.list_label')}
          aria-busy={inbox.isFetching}
          className="flex flex-col divide-y divide-border overflow-hidden rounded-xl border border-border bg-surface"
        >
          {inbox.data.items.map((ticket) => (
            <li key={ticket.id}>
              <TicketRow ticket={ticket} selected={ticket.id === selected} onOpen={() => open(ticket.id)} />
            </li>
          ))}
        </ul>
        <Pager page={page} pageSize={inbox.data.page_size} total={inbox.data.total} onPage={setPage} />
      </>
    );
  }

  return (
    <section aria-labelledby="admin-support-title" className="flex flex-col gap-4">
      <h2 id="admin-support-title" className="text-xl font-bold">
        {t('support_inbox.title')}
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex flex-col gap-1.5 sm:w-44">
          <label htmlFor={statusId} className="font-medium">
            {t('support_inbox.status_label')}
          </label>
          <select
            id={statusId}
            className="field-input"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as Status);
              setPage(1);
            }}
          >
            {TICKET_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`support.status.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <SearchBox
          label={t('support_inbox.search')}
          value={text}
          onChange={(value) => {
            setText(value);
            setPage(1);
          }}
        />
        <label className="flex items-center gap-2 py-2">
          <input
            type="checkbox"
            checked={mine}
            onChange={(event) => {
              setMine(event.target.checked);
              setPage(1);
            }}
          />
          {t('support_inbox.mine')}
        </label>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="flex min-w-0 flex-col gap-3">{list}</div>
        <div className="min-w-0">
          {selected ? (
            <InboxConversation key={selected} id={selected} />
          ) : (
            <p className="text-muted">{t('support_inbox.pick')}</p>
          )}
        </div>
      </div>
    </section>
  );
}
