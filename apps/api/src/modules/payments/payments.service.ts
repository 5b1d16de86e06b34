import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../auth/accounts.ts';
import { payments } from '../../db/schema/index.ts';

/** The fee payment that settled an application, if it is paid: what its submission records. */
export interface FeePayment {
  id: string;
  amount: number;
  currency: string;
}

/** The succeeded payment of an application's fee, or null while it is unpaid. */
export async function succeededPaymentOf(db: DbOrTx, applicationId: string): Promise<FeePayment | null> {
  const [row] = await db
    .select({ id: payments.id, amount: payments.amount, currency: payments.currency })
    .from(payments)
    .where(and(eq(payments.application_id, applicationId), eq(payments.status, 'succeeded')))
    .limit(1);
  return row ?? null;
}
