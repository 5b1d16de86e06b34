import type { Db } from './client.ts';

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
