import pg from 'pg';

/**
 * Holds back every write to one table from a second connection (PostgreSQL only), so a request that
 * writes it stays in flight until `release`: reads go on, inserts wait. `waitForBlocked` resolves once
 * some other session is waiting for the table.
 */
export async function holdWrites(url: string, table: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE "${table}" IN EXCLUSIVE MODE`);
  return {
    async waitForBlocked(timeoutMs = 5_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const { rows } = await client.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_locks
            WHERE relation = $1::regclass AND NOT granted AND pid <> pg_backend_pid()`,
          [table],
        );
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no write to ${table} was held back within ${timeoutMs} ms`);
    },
    async release(): Promise<void> {
      await client.query('COMMIT');
      await client.end();
    },
  };
}
