import type { CustomStage, StoredPartnerSettings } from '@kaminuza/shared';
import type { DbOrTx } from '../../db/client.ts';
import { getSettings } from '../partner-settings/index.ts';
import type { StaffCaller } from '../partners/index.ts';
import { reviewAccess } from '../submissions/index.ts';

/** Who is reviewing, and what of the institution's settings the review reads. */
export interface ReviewQueryContext {
  partnerId: string;
  staffId: string;
  blind: boolean;
  canDecide: boolean;
  /** The institution's time zone: the queue's date filters are its days. */
  timezone: string;
  stages: CustomStage[];
  settings: StoredPartnerSettings;
}

export async function reviewContext(db: DbOrTx, caller: StaffCaller): Promise<ReviewQueryContext> {
  const settings = await getSettings(db, caller.partnerId);
  const access = reviewAccess(caller, settings.admissions);
  return {
    partnerId: caller.partnerId,
    staffId: caller.staffId,
    blind: access.blind,
    canDecide: access.canDecide,
    timezone: settings.general.timezone,
    stages: [...settings.admissions.custom_stages].sort((a, b) => a.order - b.order),
    settings,
  };
}
