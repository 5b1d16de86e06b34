import { sql } from 'drizzle-orm';
import type { RealtimeEvent } from '@kaminuza/shared';
import type { DbOrTx } from '../modules/auth/accounts.ts';

/**
 * Tells the connected clients of an audience that something changed. Sent with NOTIFY inside the
 * caller's transaction, so PostgreSQL delivers it only once the change is committed (and never if it is
 * rolled back), to every api instance listening.
 */
export async function publish(
  db: DbOrTx,
  audience: { users?: string[]; partnerId?: string; supportTeam?: boolean },
  event: RealtimeEvent,
): Promise<void> {
  await db.execute(sql`select pg_notify('kaminuza_realtime', ${JSON.stringify({ audience, event })})`);
}
