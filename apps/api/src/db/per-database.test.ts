import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase } from '../test/database.ts';
import type { Database, DbOrTx } from './client.ts';
import { perConnection, preparedSql } from './per-database.ts';
import { waitlist } from './schema/index.ts';

/*
 * Statements built once per database and run on the caller's connection (ADR 047): inside a transaction
 * they must see its uncommitted rows and be undone with it, on PGlite and on PostgreSQL alike.
 */
describe('statements built once per database', () => {
  let database: Database;
  let builds = 0;

  const emailOf = perConnection((db: DbOrTx) => {
    builds += 1;
    return db
      .select({ email: waitlist.email })
      .from(waitlist)
      .where(eq(waitlist.email, sql.placeholder('email')))
      .prepare('test_waitlist_email');
  });
  const addEmail = perConnection((db: DbOrTx) =>
    preparedSql<{ email: string }>(
      db,
      'test_waitlist_add',
      sql`with added as (insert into ${waitlist} ("email") values (${sql.placeholder('email')}) returning "email")
          select "email" from added`,
    ),
  );

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('are built once, whichever connection calls them', async () => {
    await emailOf(database.db).execute({ email: 'nobody@example.com' });
    await database.db.transaction((tx) => emailOf(tx).execute({ email: 'nobody@example.com' }));
    await emailOf(database.db).execute({ email: 'nobody@example.com' });
    expect(builds).toBe(1);
  });

  it("run on the caller's transaction: they see its uncommitted rows, and its rollback undoes their writes", async () => {
    const undo = new Error('undo');
    const outcome = database.db.transaction(async (tx) => {
      const { rows } = await addEmail(tx).execute({ email: 'inside@example.com' });
      expect(rows).toEqual([{ email: 'inside@example.com' }]);
      // On PostgreSQL another connection (the pool's) would not see this row before the commit.
      expect(await emailOf(tx).execute({ email: 'inside@example.com' })).toEqual(rows);
      throw undo;
    });
    await expect(outcome).rejects.toBe(undo);
    expect(await emailOf(database.db).execute({ email: 'inside@example.com' })).toEqual([]);
  });

  it('write what their transaction commits', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await addEmail(tx).execute({ email: 'committed@example.com' });
      return emailOf(tx).execute({ email: 'committed@example.com' });
    });
    expect(seen).toEqual([{ email: 'committed@example.com' }]);
    expect(await emailOf(database.db).execute({ email: 'committed@example.com' })).toEqual(seen);
  });
});
