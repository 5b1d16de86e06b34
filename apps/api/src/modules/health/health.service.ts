import type { z } from 'zod';
import type { ReadySchema } from '@kaminuza/shared';
import type { Database } from '../../db/client.ts';

export type Readiness = z.infer<typeof ReadySchema>;

export async function readiness(database: Pick<Database, 'ping'>): Promise<Readiness> {
  const ok = await database.ping();
  return { status: ok ? 'ready' : 'not_ready', checks: { database: ok ? 'ok' : 'failed' } };
}
