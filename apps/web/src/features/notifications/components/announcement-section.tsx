import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AnnouncementSchema } from '@kaminuza/shared';
import { useSendAnnouncement } from '../api/notifications.ts';

/**
 * The admin's announcement composer: a subject and a message emailed to everyone who opted into
 * marketing emails, each with their own unsubscribe link. Sending is audit-logged.
 */
export function AnnouncementSection() {
  const { t } = useTranslation();
  const id = useId();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const send = useSendAnnouncement();
  const valid = AnnouncementSchema.safeParse({ subject, body }).success;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    send.mutate(
      { subject, body },
      {
        onSuccess: () => {
          setSubject('');
          setBody('');
        },
      },
    );
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex max-w-2xl flex-col gap-4">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {t('notifications.announcement.title')}
      </h2>
      <p className="text-muted">{t('notifications.announcement.intro')}</p>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-subject`} className="font-medium">
            {t('notifications.announcement.subject')}
          </label>
          <input
            id={`${id}-subject`}
            className="field-input"
            value={subject}
            maxLength={200}
            required
            onChange={(event) => setSubject(event.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-body`} className="font-medium">
            {t('notifications.announcement.body')}
          </label>
          <textarea
            id={`${id}-body`}
            className="field-input min-h-40"
            value={body}
            maxLength={20_000}
            required
            onChange={(event) => setBody(event.target.value)}
          />
        </div>
        <div>
          <button type="submit" className="btn-primary" disabled={!valid || send.isPending}>
            {send.isPending ? t('notifications.announcement.sending') : t('notifications.announcement.send')}
          </button>
        </div>
        {send.isSuccess && (
          <p role="status" className="font-medium">
            {t('notifications.announcement.sent', { count: send.data.recipients })}
          </p>
        )}
        {send.isError && (
          <p role="alert" className="text-danger">
            {t('notifications.announcement.failed')}
          </p>
        )}
      </form>
    </section>
  );
}
