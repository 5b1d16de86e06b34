import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { campuses, cycles } from '../db/schema/index.ts';

/** A campus of the institution, for tests that write submissions directly (they must name a real one). */
export async function insertTestCampus(db: Db, partnerId: string): Promise<string> {
  const [row] = await db
    .insert(campuses)
    .values({ partner_id: partnerId, name: `Campus ${randomBytes(4).toString('hex')}`, city: 'Kigali', country: 'RW' })
    .returning({ id: campuses.id });
  if (!row) throw new Error('test campus insert returned no row');
  return row.id;
}

/** A draft cycle of the institution, for tests that write submissions directly. */
export async function insertTestCycle(db: Db, partnerId: string): Promise<string> {
  const [row] = await db
    .insert(cycles)
    .values({ partner_id: partnerId, name: 'Test cycle', opens_on: '2026-01-01', closes_on: '2026-12-31' })
    .returning({ id: cycles.id });
  if (!row) throw new Error('test cycle insert returned no row');
  return row.id;
}
