import { eq } from 'drizzle-orm';
import type { StoredPartnerSettings } from '@kaminuza/shared';
import { partnerSettings } from '../../db/schema/index.ts';
import type { DbOrTx } from '../auth/accounts.ts';

/** The institution's current admission cycle (settings.general.current_cycle_id), if it has chosen one. */
export async function currentCycleId(db: DbOrTx, partnerId: string): Promise<string | null> {
  const [row] = await db
    .select({ general: partnerSettings.general })
    .from(partnerSettings)
    .where(eq(partnerSettings.partner_id, partnerId))
    .limit(1);
  return (row?.general as StoredPartnerSettings['general'] | undefined)?.current_cycle_id ?? null;
}
