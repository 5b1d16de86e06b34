import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CreateTicketSchema,
  MESSAGE_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  type CreateTicket,
  type SupportTicket,
} from '@kaminuza/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormAlert, TextAreaField, TextField, useMessage } from '../../../components/form/field.tsx';
import { EmptyState } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import {
  studentTicketPath,
  supportKeys,
  useAttachableDocuments,
  useConversation,
  useCreateTicket,
  useTickets,
} from '../api/support.ts';
import { useSendMessage, useTicketAction } from '../../../components/support-conversation/use-ticket-conversation.ts';
import {
  Composer,
  MessageThread,
  sendErrorText,
  withError,
} from '../../../components/support-conversation/message-thread.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

/** How long the notice of a ticket closed by the team shows before the student is taken to a new one. */
export const CLOSED_REDIRECT_MS = 4000;

const ticketLink = (id: string) => `${paths.student.support}?ticket=${encodeURIComponent(id)}`;

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-start gap-3">
      <FormAlert>{t('support.errors.connection_failed')}</FormAlert>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        {t('support.retry')}
      </button>
    </div>
  );
}

function StatusBadge({ ticket }: { ticket: SupportTicket }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${
        ticket.status === 'open' ? 'border-green-700 text-green-800 dark:text-green-300' : 'border-border text-muted'
      }`}
    >
      {t(`support.status.${ticket.status}`)}
    </span>
  );
}

function TicketList() {
  const { t, i18n } = useTranslation();
  const tickets = useTickets();
  const date = dateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' });
  let body;
  if (tickets.isError) body = <LoadFailed onRetry={() => void tickets.refetch()} />;
  else if (!tickets.data) body = <Spinner />;
  else if (tickets.data.length === 0) {
    body = <EmptyState title={t('support.list.empty_title')} text={t('support.list.empty_text')} />;
  } else {
    body = (
      <ul className="flex flex-col divide-y divide-border rounded-xl border border-border bg-surface">
        {tickets.data.map((ticket) => (
          <li key={ticket.id}>
            <Link
              to={ticketLink(ticket.id)}
              className="flex flex-col gap-1 p-4 hover:bg-surface-muted focus-visible:bg-surface-muted"
            >
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-semibold [overflow-wrap:anywhere]">{ticket.subject}</span>
                <StatusBadge ticket={ticket} />
                {ticket.unread > 0 && (
                  <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">
                    {t('support.list.unread', { count: ticket.unread })}
                  </span>
                )}
              </span>
              <span className="text-sm text-muted">
                {t('support.list.last_message', { date: date.format(new Date(ticket.last_message_at)) })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section aria-labelledby="support-list-title" className="flex flex-col gap-3">
      <h2 id="support-list-title" className="text-xl font-bold">
        {t('support.list.title')}
      </h2>
      {body}
    </section>
  );
}

function NewConversation() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const create = useCreateTicket();
  const documents = useAttachableDocuments();
  const form = useForm<z.input<typeof CreateTicketSchema>, unknown, CreateTicket>({
    resolver: zodResolver(CreateTicketSchema),
    defaultValues: { subject: '', body: '', document_id: null },
  });
  const submit = form.handleSubmit((values) =>
    create.mutate(
      { ...values, document_id: values.document_id || null },
      { onSuccess: (conversation) => void navigate(ticketLink(conversation.ticket.id)) },
    ),
  );
  return (
    <section aria-labelledby="support-new-title" className="flex flex-col gap-3">
      <h2 id="support-new-title" className="text-xl font-bold">
        {t('support.new.title')}
      </h2>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
      >
        {create.isError && <FormAlert>{withError(t, 'support.errors.init_failed', create.error)}</FormAlert>}
        <TextField
          label={t('support.new.subject')}
          optional
          maxLength={SUBJECT_MAX_LENGTH}
          error={message(form.formState.errors.subject?.message)}
          {...form.register('subject')}
        />
        <TextAreaField
          label={t('support.new.body')}
          rows={4}
          maxLength={MESSAGE_MAX_LENGTH}
          error={message(form.formState.errors.body?.message)}
          {...form.register('body')}
        />
        {documents.data && documents.data.length > 0 && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="support-new-attach" className="font-medium">
              {t('support.composer.attach')}
            </label>
            <select id="support-new-attach" className="field-input" {...form.register('document_id')}>
              <option value="">{t('support.composer.no_attachment')}</option>
              {documents.data.map((document) => (
                <option key={document.id} value={document.id}>
                  {t(`documents.types.${document.type}`, { defaultValue: document.type })} — {document.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="submit" className="btn-primary self-start" disabled={create.isPending}>
          {create.isPending ? t('support.new.starting') : t('support.new.start')}
        </button>
      </form>
    </section>
  );
}

function Conversation({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const conversation = useConversation(id);
  const documents = useAttachableDocuments();
  const path = studentTicketPath(id);
  const send = useSendMessage(supportKeys.ticket(id), path);
  const resolve = useTicketAction(path, 'resolve');
  const read = useTicketAction(path, 'read');
  const [confirming, setConfirming] = useState(false);
  const pages = conversation.data?.pages;
  const ticket = pages?.[0]?.ticket;
  const closedByTeam = ticket?.status === 'closed' && ticket.closed_by === 'team';

  // Opening the conversation reads what the team wrote; only when there is something unread, so the
  // receipt's own event does not start another round.
  const unread = ticket?.unread ?? 0;
  const { mutate: markRead, isPending: marking } = read;
  useEffect(() => {
    if (unread > 0 && !marking) markRead(undefined);
  }, [unread, marking, markRead]);

  // A ticket the team closed takes no more messages: after a moment, a new conversation.
  useEffect(() => {
    if (!closedByTeam) return;
    const timer = setTimeout(() => void navigate(paths.student.support, { replace: true }), CLOSED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [closedByTeam, navigate]);

  if (conversation.isError) {
    const missing = conversation.error instanceof ApiError && conversation.error.status === 'NOT_FOUND';
    return missing ? (
      <div className="flex flex-col items-start gap-3">
        <FormAlert>{t('support.errors.conversation_not_found')}</FormAlert>
        <Link className="link" to={paths.student.support}>
          {t('support.back')}
        </Link>
      </div>
    ) : (
      <LoadFailed onRetry={() => void conversation.refetch()} />
    );
  }
  if (!pages || !ticket) return <Spinner />;

  const messages = [...pages].reverse().flatMap((page) => page.messages);
  return (
    <section aria-labelledby="support-conversation-title" className="flex flex-col gap-4">
      <Link className="link self-start" to={paths.student.support}>
        {t('support.back')}
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="support-conversation-title" className="text-xl font-bold [overflow-wrap:anywhere]">
          {ticket.subject}
        </h2>
        <StatusBadge ticket={ticket} />
      </header>
      <MessageThread
        viewer="student"
        messages={messages}
        otherReadAt={ticket.other_read_at}
        hasOlder={conversation.hasNextPage}
        loadingOlder={conversation.isFetchingNextPage}
        onLoadOlder={() => void conversation.fetchNextPage()}
      />
      {ticket.status === 'open' ? (
        <>
          <Composer
            documents={documents.data}
            pending={send.isPending}
            error={send.isError ? sendErrorText(t, send.error) : null}
            onSend={(input, done) => send.mutate(input, { onSuccess: done })}
          />
          <button type="button" className="btn-secondary self-start" onClick={() => setConfirming(true)}>
            {t('support.resolve.action')}
          </button>
        </>
      ) : closedByTeam ? (
        <div role="status" className="flex flex-col items-start gap-2 rounded-xl border border-border p-4">
          <p className="font-medium">{t('support.errors.ticket_closed')}</p>
          <p className="text-sm text-muted">{t('support.closed.by_team')}</p>
          <Link className="link" to={paths.student.support} replace>
            {t('support.closed.new_now')}
          </Link>
        </div>
      ) : (
        <div role="status" className="flex flex-col items-start gap-2 rounded-xl border border-border p-4">
          <p className="font-medium">{t('support.closed.resolved')}</p>
          <Link className="link" to={paths.student.support}>
            {t('support.closed.new_now')}
          </Link>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          tone="primary"
          title={t('support.resolve.title')}
          description={t('support.resolve.description')}
          confirmLabel={t('support.resolve.confirm')}
          cancelLabel={t('support.resolve.cancel')}
          pending={resolve.isPending}
          error={resolve.isError ? withError(t, 'support.errors.resolve_failed', resolve.error) : undefined}
          onConfirm={() => resolve.mutate(undefined, { onSuccess: () => setConfirming(false) })}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

/**
 * The student's support page (spec section 2, /support): their conversations with the support team and
 * a new one, or one conversation when `?ticket=` names it.
 */
export function SupportPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const ticket = params.get('ticket');
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('support.title')}</h1>
        <p className="text-muted">{t('footer.support_hours')}</p>
      </header>
      {ticket ? (
        <Conversation key={ticket} id={ticket} />
      ) : (
        <>
          <NewConversation />
          <TicketList />
        </>
      )}
    </div>
  );
}
