import { and, eq } from 'drizzle-orm';
import { SETUP_MESSAGES } from '@kaminuza/shared';
import { cycles } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../auth/accounts.ts';

/** Refuses (404) a cycle id that is not one of this institution's cycles. */
export async function assertCycleOfPartner(db: DbOrTx, partnerId: string, cycleId: string): Promise<void> {
  const [found] = await db
    .select({ id: cycles.id })
    .from(cycles)
    .where(and(eq(cycles.partner_id, partnerId), eq(cycles.id, cycleId)))
    .limit(1);
  if (!found) throw new AppError('NOT_FOUND', SETUP_MESSAGES.cycle_not_found);
}
