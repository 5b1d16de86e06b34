import { and, eq, inArray } from 'drizzle-orm';
import { SETUP_MESSAGES } from '@kaminuza/shared';
import { programs } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { DbOrTx } from '../auth/accounts.ts';

/** Refuses (404) any program id that is not one of this institution's programs. */
export async function assertProgramsOfPartner(db: DbOrTx, partnerId: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: programs.id })
    .from(programs)
    .where(and(eq(programs.partner_id, partnerId), inArray(programs.id, wanted)));
  if (found.length !== wanted.length) throw new AppError('NOT_FOUND', SETUP_MESSAGES.program_not_found);
}
