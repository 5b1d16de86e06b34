import { eq, sql } from 'drizzle-orm';
import type { JoinWaitlist, WaitlistEntry } from '@kaminuza/shared';
import type { Db } from '../../db/client.ts';
import { waitlist } from '../../db/schema/index.ts';

/**
 * Adds an email to the waitlist once. The unique index on lower(email) decides, so two concurrent
 * joins with the same address cannot both insert; a repeat join changes nothing and says so.
 */
export async function joinWaitlist(db: Db, input: JoinWaitlist): Promise<WaitlistEntry> {
  const [created] = await db
    .insert(waitlist)
    .values({ email: input.email, query: input.query, language: input.language })
    .onConflictDoNothing()
    .returning({ id: waitlist.id, email: waitlist.email });
  if (created) return { ...created, already_joined: false };

  const [existing] = await db
    .select({ id: waitlist.id, email: waitlist.email })
    .from(waitlist)
    .where(eq(sql`lower(${waitlist.email})`, input.email.toLowerCase()));
  if (!existing) throw new Error('Waitlist insert conflicted but no matching entry exists');
  return { ...existing, already_joined: true };
}
