import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { submissions } from '../../db/schema/index.ts';

/*
 * The submissions an institution decides on automatically (`auto_decide`, issue 25) whose job has not
 * been created yet: what the review module's relay reads and marks (lib/jobs/relay.ts).
 */

const unqueued = and(eq(submissions.auto_decide, true), isNull(submissions.auto_decision_queued_at));

/** Up to `limit` of them, oldest first. */
export async function pendingAutoDecisions(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(unqueued)
    .orderBy(asc(submissions.created_at))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Marks their jobs created. */
export async function markAutoDecisionsQueued(db: DbOrTx, ids: readonly string[]): Promise<void> {
  await db
    .update(submissions)
    .set({ auto_decision_queued_at: sql`now()` })
    .where(and(inArray(submissions.id, [...ids]), unqueued));
}
