import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * One Drizzle API over both engines. PGlite is PostgreSQL compiled to WebAssembly running in-process
 * (single connection; its driver queues queries); `pg` talks to a real server through a pool.
 */
export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;
/** An open transaction: services that write several rows take `DbOrTx` so callers can compose them. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** How another library (the job queue) reaches the same database: its own pool, or the one PGlite. */
export type DatabaseConnection = { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  connection: DatabaseConnection;
  /**
   * Applies the committed migrations not applied yet. On a server it holds a session advisory lock on a
   * connection of its own while it does, so instances booting together take turns: the first applies
   * them, the others then find nothing left to do. PGlite is one process's own database: no lock.
   */
  migrate(): Promise<void>;
  /**
   * Runs `work` while no other instance runs work under the same name (a server-wide advisory lock);
   * PGlite belongs to one process and simply runs it.
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  /**
   * How many committed migrations the database has not applied (all of them on an empty one), as
   * Drizzle's migrator counts: those newer than the last one recorded.
   */
  pendingMigrations(): Promise<number>;
  ping(): Promise<boolean>;
  /** The server pool's connections (metrics); PGlite has one in-process connection and no pool. */
  poolCounts?(): PoolCounts;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (sent by any connection, delivered
   * when the sender's transaction commits). Resolves once listening; the returned function stops it.
   * On a server the listening connection can drop: it is replaced and listens again by itself, then
   * `onResubscribed` is called, since whatever was sent while it was down was never received.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onResubscribed?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Reports failures of connections that belong to no query (an idle pooled connection, the listening
   * one), which would otherwise end the process as unhandled 'error' events; the returned function
   * stops reporting. Queries on a lost connection fail by themselves (see databaseUnavailable).
   */
  onConnectionError(report: (error: Error, source: 'pool' | 'listener') => void): () => void;
  close(): Promise<void>;
}

/**
 * Listener backoff after its connection drops: 0.25 s, 0.5 s, 1 s, then every 2 s, so that it listens
 * again within a few seconds of the server's return (one connection attempt per 2 s costs nothing).
 */
const LISTEN_RETRY_BASE_MS = 250;
const LISTEN_RETRY_MAX_MS = 2_000;
/**
 * How long opening a connection may take: a server that is gone refuses at once, one that hangs (a host
 * or network lost) is given up on after this, so requests answer 503 within 2 s instead of waiting on it.
 */
const CONNECT_TIMEOUT_MS = 1_500;
/**
 * How long a query waits for a free pooled connection when all are busy. A busy pool is load, not an
 * outage: on deadline day a request waiting a few seconds for its turn must be served, not refused.
 */
const POOL_WAIT_TIMEOUT_MS = 10_000;

/**
 * pg-pool hands its own options to each client, and uses one `connectionTimeoutMillis` both for waiting
 * in its queue and for opening a connection: the client class is where the two are told apart.
 */
class QuickConnectClient extends pg.Client {
  constructor(config: pg.ClientConfig = {}) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

export interface PoolCounts {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection because every one is busy. */
  waiting: number;
}

/**
 * The key of the advisory lock migrations run under (any fixed bigint: advisory locks are per database,
 * and nothing else here takes one with this key).
 */
export const MIGRATION_LOCK_KEY = 4_242_021_001n;

/**
 * Runs the migrations on one connection that holds the migration lock throughout: pg_advisory_lock waits
 * for another instance's migration to finish, then this one sees what it applied. The lock is a session
 * lock, released explicitly and in any case when the connection ends (a process killed mid-way).
 */
async function migrateUnderLock(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migratePg(drizzlePg({ client, casing: 'snake_case' }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      // A connection too broken to unlock is ended below, which releases the lock all the same.
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `work` while holding a session advisory lock named `name` on a connection of its own, so that
 * instances doing the same thing at the same moment (seeding an empty database at boot) take turns.
 */
async function underLock<T>(url: string, name: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

type ConnectionErrorReport = (error: Error, source: 'pool' | 'listener') => void;

function connectionErrorReports() {
  const reports = new Set<ConnectionErrorReport>();
  return {
    report(error: Error, source: 'pool' | 'listener'): void {
      for (const report of reports) report(error, source);
    },
    subscribe(report: ConnectionErrorReport): () => void {
      reports.add(report);
      return () => reports.delete(report);
    },
  };
}

/** Channel names are identifiers in LISTEN; ours are fixed lower-case words, never user input. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
}

/**
 * LISTEN on a server needs one connection of its own for as long as it listens (a pooled one would be
 * handed to other queries). It reconnects with backoff when the connection drops and listens again to
 * every channel; notifications sent while it was down are lost, which is why it tells its listeners
 * (`onResubscribed`) and they have their clients refetch rather than trust the stream.
 */
function serverListener(url: string, onError: (error: Error) => void) {
  interface Listener {
    onNotify: (payload: string) => void;
    onResubscribed?: () => void;
  }
  const channels = new Map<string, Set<Listener>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let attempts = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;
  /** Set once a connection was lost, so the next one that listens again says so. */
  let lost = false;

  function dispatch(message: pg.Notification): void {
    for (const listener of channels.get(message.channel) ?? []) listener.onNotify(message.payload ?? '');
  }

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    next.on('notification', dispatch);
    next.on('error', (error) => {
      onError(error);
      dropped(next);
    });
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
    } catch (error) {
      // Connected but not listening (the server went away between the two): never left open.
      void next.end().catch(() => undefined);
      throw error;
    }
    attempts = 0;
    client = next;
    if (lost && !closed) {
      lost = false;
      for (const listeners of channels.values()) for (const listener of listeners) listener.onResubscribed?.();
    }
    return next;
  }

  // A failed connect rejects its caller instead; only a connection that was up is replaced here.
  function dropped(which: pg.Client): void {
    if (client !== which) return;
    client = null;
    lost = true;
    void which.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer || channels.size === 0) return;
    const delay = Math.min(LISTEN_RETRY_BASE_MS * 2 ** attempts, LISTEN_RETRY_MAX_MS);
    attempts += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void ensure().catch(() => scheduleReconnect());
    }, delay);
    retryTimer.unref();
  }

  function ensure(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  function forget(channel: string, listener: Listener): boolean {
    const set = channels.get(channel);
    if (!set?.delete(listener) || set.size > 0) return false;
    channels.delete(channel);
    return true;
  }

  return {
    async listen(
      channel: string,
      onNotify: (payload: string) => void,
      onResubscribed?: () => void,
    ): Promise<() => Promise<void>> {
      assertChannel(channel);
      if (closed) throw new Error('database closed');
      const listener: Listener = { onNotify, onResubscribed };
      let listeners = channels.get(channel);
      const isNew = !listeners;
      if (!listeners) {
        listeners = new Set();
        channels.set(channel, listeners);
      }
      listeners.add(listener);
      const current = client;
      try {
        // A new connection listens to every registered channel as it connects; an open one is told here.
        const active = await ensure();
        if (isNew && active === current) await active.query(`LISTEN ${channel}`);
      } catch (error) {
        // Not listening: the caller learns it now, and nothing keeps retrying for it.
        forget(channel, listener);
        throw error;
      }
      return async () => {
        if (forget(channel, listener) && client) await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
      };
    },
    async close(): Promise<void> {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const open = client;
      client = null;
      channels.clear();
      if (open) await open.end().catch(() => undefined);
    },
  };
}

export type DatabaseOptions =
  { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string; poolSize?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const reports = connectionErrorReports();
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      Client: QuickConnectClient,
      connectionTimeoutMillis: POOL_WAIT_TIMEOUT_MS,
      // Eventually drops connections to a server that vanished without closing them (a host or network
      // gone); the kernel's default would wait two hours before its first probe.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // PostgreSQL's own plan_cache_mode (auto): a named statement (the hot paths: autosave, submit) goes
      // generic after its first five runs, while every other query is planned with its values, which the
      // searches need (a tsquery folded from its text, an array's size, a partial index's condition).
      // Forcing generic plans for the connection made those searches ten times slower.
    });
    // An idle connection that the server closes (a restart, an admin's terminate) is dropped by the pool,
    // which then emits 'error': unheard, that ends the process.
    pool.on('error', (error) => reports.report(error, 'pool'));
    // A checked-out connection that loses its server between two queries (a transaction waiting on
    // other work) emits 'error' on itself, and the pool listens only while it is idle. Heard here, its
    // next query fails instead ("not queryable") and the pool discards it on release.
    pool.on('connect', (connection) => connection.on('error', () => undefined));
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
    const listener = serverListener(options.url, (error) => reports.report(error, 'listener'));
    return {
      db,
      kind: 'postgres',
      connection: { kind: 'postgres', url: options.url },
      migrate: () => migrateUnderLock(options.url),
      exclusively: (name, work) => underLock(options.url, name, work),
      pendingMigrations: () => pendingMigrations(db),
      ping: () => ping(db),
      poolCounts: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: listener.listen,
      onConnectionError: reports.subscribe,
      async close() {
        await listener.close();
        await pool.end();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // The extensions the catalogue and school search use (migration 0004); a server has them installed.
  // Loaded only for the embedded database: an instance on a server never holds PGlite's code.
  const [{ PGlite: Embedded }, { pg_trgm }, { unaccent }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
  ]);
  const client = await Embedded.create(options.dataDir ?? undefined, { extensions: { pg_trgm, unaccent } });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    connection: { kind: 'pglite', client },
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    exclusively: (_name, work) => work(),
    pendingMigrations: () => pendingMigrations(db),
    ping: () => ping(db),
    // PGlite is one in-process connection: its NOTIFYs reach its own listeners (on commit, as on a server),
    // and it has no connection to lose, so it never needs to listen again.
    async listen(channel, onNotify) {
      assertChannel(channel);
      const stop = await client.listen(channel, onNotify);
      return () => stop();
    },
    onConnectionError: () => () => undefined,
    close: () => client.close(),
  };
}

async function pendingMigrations(db: Db): Promise<number> {
  const committed = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  // A statement naming a table that does not exist fails as it is parsed: asked separately.
  const table = await db.execute<{ exists: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (!table.rows[0]?.exists) return committed.length;
  const { rows } = await db.execute<{ last: string | null }>(
    sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const last = rows[0]?.last == null ? -Infinity : Number(rows[0].last);
  return committed.filter((migration) => migration.folderMillis > last).length;
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
