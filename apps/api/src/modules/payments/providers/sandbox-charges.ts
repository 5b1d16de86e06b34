import { eq } from 'drizzle-orm';
import type { PaymentEvent } from '@kaminuza/shared';
import type { Db } from '../../../db/client.ts';
import { sandboxCharges } from '../../../db/schema/index.ts';

/** Where the sandbox keeps the outcomes it decided (its "provider side"). */
export interface SandboxCharges {
  /** Keeps a checkout's outcome; the first decision of a checkout stands. */
  record(event: PaymentEvent): Promise<void>;
  find(reference: string): Promise<PaymentEvent | null>;
}

export function sandboxChargesIn(db: Db): SandboxCharges {
  return {
    async record(event) {
      await db.insert(sandboxCharges).values({ reference: event.data.reference, event }).onConflictDoNothing();
    },
    async find(reference) {
      const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.reference, reference)).limit(1);
      return row?.event ?? null;
    },
  };
}
