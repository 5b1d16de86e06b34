import type { Query, SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.ts';

/**
 * A prepared statement built once per database rather than on every call: Drizzle's query building costs
 * more than the query on the requests of deadline day (ADR 045). Name the statement (`.prepare('name')`)
 * so PostgreSQL plans it once per connection too, and set any column Drizzle would compute on update
 * (`updated_at`) in the statement itself: Drizzle computes it when the statement is built.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}

/** Where Drizzle keeps a database's or a transaction's connection, and what both share (ADR 047). */
interface DrizzleInternals {
  dialect?: { sqlToQuery(query: SQL): Query };
  session?: { client?: unknown };
}

/**
 * perDatabase for statements that also run inside transactions, such as the submit's (ADR 047). A
 * prepared statement is bound to the connection it was built on; this one is built once per database
 * (the first caller's), and each call answers it bound to the caller's own connection: the pool for the
 * database, the transaction's connection for a transaction. Drizzle has no public way to do this: a
 * database and its transactions share one dialect object, which keys the statement, and Drizzle's
 * node-postgres and PGlite sessions keep their connection in `client`, which the rebound statement
 * shadows. Both are checked on every call, so a Drizzle upgrade that moves them fails loudly (and the
 * submit tests with it) instead of running a statement on the wrong connection.
 */
export function perConnection<T extends object>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    const { dialect, session } = db as unknown as DrizzleInternals;
    const client = session?.client;
    if (!dialect || !client) throw new Error('perConnection: Drizzle keeps its dialect or connection elsewhere');
    let statement = built.get(dialect);
    if (!statement) {
      statement = build(db);
      if (!('client' in statement)) throw new Error('perConnection: a prepared statement keeps no connection');
      built.set(dialect, statement);
    }
    return Object.create(statement, { client: { value: client } }) as T;
  };
}

/**
 * A named statement from SQL that Drizzle's builders cannot prepare themselves (data-modifying CTEs:
 * several writes in one round trip), with `sql.placeholder` for its values; it answers its rows as
 * objects. Build it in a perConnection builder, so its text is rendered once per database.
 */
export function preparedSql<Row>(db: DbOrTx, name: string, query: SQL) {
  const { dialect } = db as unknown as DrizzleInternals;
  if (!dialect) throw new Error('preparedSql: Drizzle keeps its dialect elsewhere');
  return db._.session.prepareQuery<{
    execute: { rows: Row[] };
    all: unknown;
    values: unknown;
  }>(dialect.sqlToQuery(query), undefined, name, false);
}
