import type { z } from 'zod';
import type { ReadySchema } from '@kaminuza/shared';
import type { Database } from '../../db/client.ts';
import type { DrainSwitch } from './drain.ts';

export type Readiness = z.infer<typeof ReadySchema>;

/** Ready when the database answers and the instance is not shutting down (draining). */
export async function readiness(database: Pick<Database, 'ping'>, drain?: DrainSwitch): Promise<Readiness> {
  const ok = await database.ping();
  const checks = { database: ok ? ('ok' as const) : ('failed' as const) };
  if (drain?.draining) return { status: 'draining', checks };
  return { status: ok ? 'ready' : 'not_ready', checks };
}
