import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/list-states.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../lib/paths.ts';
import { studentEndpoint } from '../api/keys.ts';
import { useChatWithPartner } from '../api/student-chats.ts';
import { Conversation } from './conversation.tsx';

/**
 * The student's conversation with one institution, opened from its page ("Message this university").
 * The conversation is created on the first visit; the institution sees it once the student writes.
 */
export function ChatPage() {
  const { t } = useTranslation();
  const { partnerId = '' } = useParams();
  const chat = useChatWithPartner(partnerId);

  const back = (
    <Link to={paths.student.university(partnerId)} className="link self-start text-sm">
      {t('chat.back')}
    </Link>
  );

  let content;
  if (chat.isPending) {
    content = <Spinner />;
  } else if (chat.isError) {
    const refused =
      chat.error instanceof ApiError &&
      (chat.error.status === 'PERMISSION_DENIED' || chat.error.status === 'NOT_FOUND');
    content = refused ? (
      <p role="alert" className="rounded-xl border border-border bg-surface p-4">
        {t('support.errors.institution_unavailable')}
      </p>
    ) : (
      <LoadError error={chat.error} retryLabel={t('chat.retry')} onRetry={() => void chat.refetch()} />
    );
  } else {
    content = (
      <>
        <h1 className="text-2xl font-bold tracking-tight break-words sm:text-3xl">
          {t('chat.title', { name: chat.data.partner_name })}
        </h1>
        <p className="text-muted">{t('chat.intro')}</p>
        <Conversation
          endpoint={studentEndpoint(chat.data.id)}
          names={{ mine: t('chat.you'), theirs: chat.data.partner_name }}
        />
      </>
    );
  }

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      {back}
      {content}
    </section>
  );
}
