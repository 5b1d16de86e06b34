import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * One Drizzle API over both engines. PGlite is PostgreSQL compiled to WebAssembly running in-process
 * (single connection; its driver queues queries); `pg` talks to a real server through a pool.
 */
export type Db = ReturnType<typeof drizzlePglite<typeof schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (sent by any connection, delivered
   * when the sender's transaction commits). Resolves once listening; the returned function stops it.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Listener backoff after its connection drops: 0.5 s, 1 s, 2 s … at most 30 s. */
const LISTEN_RETRY_BASE_MS = 500;
const LISTEN_RETRY_MAX_MS = 30_000;

/** Channel names are identifiers in LISTEN; ours are fixed lower-case words, never user input. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
}

/**
 * LISTEN on a server needs one connection of its own for as long as it listens (a pooled one would be
 * handed to other queries). It reconnects with backoff when the connection drops and listens again to
 * every channel; notifications sent while it was down are lost, which is why clients refetch after a
 * reconnect rather than trust the stream.
 */
function serverListener(url: string) {
  const channels = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let attempts = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;

  function dispatch(message: pg.Notification): void {
    for (const callback of channels.get(message.channel) ?? []) callback(message.payload ?? '');
  }

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', dispatch);
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    await next.connect();
    for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
    attempts = 0;
    client = next;
    return next;
  }

  // A failed connect rejects its caller instead; only a connection that was up is replaced here.
  function dropped(which: pg.Client): void {
    if (client !== which) return;
    client = null;
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

  return {
    async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
      assertChannel(channel);
      if (closed) throw new Error('database closed');
      let callbacks = channels.get(channel);
      const isNew = !callbacks;
      if (!callbacks) {
        callbacks = new Set();
        channels.set(channel, callbacks);
      }
      callbacks.add(onNotify);
      const current = client;
      // A new connection listens to every registered channel as it connects; an open one is told here.
      const active = await ensure();
      if (isNew && active === current) await active.query(`LISTEN ${channel}`);
      return async () => {
        const set = channels.get(channel);
        if (!set?.delete(onNotify) || set.size > 0) return;
        channels.delete(channel);
        if (client) await client.query(`UNLISTEN ${channel}`).catch(() => undefined);
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
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Named statements (the hot paths: autosave, submit) are primary-key lookups whose best plan never
      // depends on the values: plan them once per connection instead of five custom plans first.
      options: '-c plan_cache_mode=force_generic_plan',
    });
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
    const listener = serverListener(options.url);
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
      ping: () => ping(db),
      listen: listener.listen,
      async close() {
        await listener.close();
        await pool.end();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // The extensions the catalogue and school search use (migration 0004); a server has them installed.
  const client = await PGlite.create(options.dataDir ?? undefined, { extensions: { pg_trgm, unaccent } });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: () => ping(db),
    // PGlite is one in-process connection: its NOTIFYs reach its own listeners (on commit, as on a server).
    async listen(channel, onNotify) {
      assertChannel(channel);
      const stop = await client.listen(channel, onNotify);
      return () => stop();
    },
    close: () => client.close(),
  };
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
