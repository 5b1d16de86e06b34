import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStudentChats } from '../api/student-chats.ts';
import { paths } from '../../../lib/paths.ts';

/**
 * The student's conversations with institutions, shown above Explore once there is one: the way back
 * to a conversation without finding the university again. Nothing shows while loading or without any.
 */
export function MyConversations() {
  const { t } = useTranslation();
  const chats = useStudentChats();
  const written = (chats.data ?? []).filter((chat) => chat.last_message !== null);
  if (written.length === 0) return null;
  return (
    <section aria-labelledby="my-conversations" className="flex flex-col gap-2">
      <h2 id="my-conversations" className="text-lg font-semibold">
        {t('chat.my_conversations')}
      </h2>
      <ul className="flex flex-col gap-2">
        {written.map((chat) => (
          <li key={chat.id}>
            <Link
              to={paths.student.chat(chat.partner_id)}
              className="flex min-w-0 items-center gap-3 rounded-xl border border-border bg-surface p-3 hover:bg-surface-muted"
            >
              <span className="min-w-0 flex-1">
                <span className="block font-medium break-words">{chat.partner_name}</span>
                <span className="block truncate text-sm text-muted">{chat.last_message}</span>
              </span>
              {chat.unread > 0 && (
                <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-on-brand">
                  <span aria-hidden="true">{chat.unread}</span>
                  <span className="sr-only">{t('chat.unread', { count: chat.unread })}</span>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
