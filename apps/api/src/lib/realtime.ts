import { sql } from 'drizzle-orm';
import type { RealtimeEvent } from '@kaminuza/shared';
import type { DbOrTx } from '../modules/auth/accounts.ts';

/** Who receives an event: user ids, an institution's messaging staff, and/or the support team (admins). */
export interface RealtimeAudience {
  users?: string[];
  partnerId?: string;
  supportTeam?: boolean;
}

/**
 * Announces an event to its audience on every api instance. NOTIFY inside the caller's transaction is
 * delivered on commit only, so a client never hears of a message that was rolled back.
 */
export async function publish(db: DbOrTx, audience: RealtimeAudience, event: RealtimeEvent): Promise<void> {
  await db.execute(sql`select pg_notify('kaminuza_realtime', ${JSON.stringify({ audience, event })})`);
}
