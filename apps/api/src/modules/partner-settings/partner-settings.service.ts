import { eq } from 'drizzle-orm';
import { DEFAULTS, type StoredPartnerSettings } from '@kaminuza/shared';
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

/** The institution's time zone (settings.general.timezone), in which its cycles open and close. */
export async function partnerTimezone(db: DbOrTx, partnerId: string): Promise<string> {
  const [row] = await db
    .select({ general: partnerSettings.general })
    .from(partnerSettings)
    .where(eq(partnerSettings.partner_id, partnerId))
    .limit(1);
  return (row?.general as StoredPartnerSettings['general'] | undefined)?.timezone ?? DEFAULTS.timezone;
}
