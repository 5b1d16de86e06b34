import { desc, eq } from 'drizzle-orm';
import type { DevMailboxMessage, DevMailboxSummary } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { devMailbox } from '../../db/schema/index.ts';
import type { ReceivedMail } from '../../lib/mailer.ts';

const LIST_LIMIT = 100;

/** Stores what the in-process SMTP server received (the default mode's mail destination). */
export async function storeDevMail(db: Db, mail: ReceivedMail): Promise<string> {
  const [row] = await db
    .insert(devMailbox)
    .values({
      message_id: mail.messageId,
      envelope_to: mail.envelopeTo,
      to: mail.to,
      from: mail.from,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers,
    })
    .returning({ id: devMailbox.id });
  if (!row) throw new Error('dev mailbox insert returned no row');
  return row.id;
}

const summaryColumns = {
  id: devMailbox.id,
  to: devMailbox.to,
  from: devMailbox.from,
  subject: devMailbox.subject,
  created_at: devMailbox.created_at,
};

const iso = (timestamp: string) => new Date(timestamp).toISOString();

/** The newest messages first. */
export async function listDevMail(db: Db): Promise<DevMailboxSummary[]> {
  const rows = await db
    .select(summaryColumns)
    .from(devMailbox)
    .orderBy(desc(devMailbox.created_at), desc(devMailbox.id))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({ ...row, created_at: iso(row.created_at) }));
}

export async function getDevMail(db: Db, id: string): Promise<DevMailboxMessage | null> {
  const [row] = await db
    .select({ ...summaryColumns, html: devMailbox.html, text: devMailbox.text, headers: devMailbox.headers })
    .from(devMailbox)
    .where(eq(devMailbox.id, id));
  return row ? { ...row, created_at: iso(row.created_at) } : null;
}
