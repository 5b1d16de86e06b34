import type { z } from 'zod';
import type { ReadySchema } from '@kaminuza/shared';
import type { Database } from '../../db/client.ts';
import type { Storage } from '../../lib/storage/index.ts';
import type { DrainSwitch } from './drain.ts';

export type Readiness = z.infer<typeof ReadySchema>;

const check = (ok: boolean) => (ok ? ('ok' as const) : ('failed' as const));

/**
 * Ready when the database answers and the instance is not shutting down (draining). The stored files'
 * store is checked and reported beside it (see ReadySchema).
 */
export async function readiness(
  database: Pick<Database, 'ping'>,
  storage: Pick<Storage, 'ping'>,
  drain?: DrainSwitch,
): Promise<Readiness> {
  const [ok, stored] = await Promise.all([database.ping(), storage.ping()]);
  const checks = { database: check(ok), storage: check(stored) };
  if (drain?.draining) return { status: 'draining', checks };
  return { status: ok ? 'ready' : 'not_ready', checks };
}
