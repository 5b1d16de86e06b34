import pg from 'pg';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';

/** The channel on which an instance asks the others to let go of an upload (the payload is its id). */
export const UPLOAD_RELEASE_CHANNEL = 'tus_upload_release';
/** How often a waiting request tries the lock again. */
const RETRY_MS = 50;

interface Holder {
  requestRelease: RequestRelease;
}

/**
 * tus's lock on an upload, shared by every api instance through PostgreSQL advisory locks, so that two
 * requests for one upload never write it at once, whichever instances they reach (tus's own
 * MemoryLocker sees only its process).
 *
 * Each instance keeps one connection of its own for its locks (a session lock lives as long as its
 * connection, and pooled connections go back to other queries): it holds the advisory lock of every
 * upload a request of this instance is writing, and LISTENs on a channel where a request elsewhere asks
 * for one. As with MemoryLocker, a request that wants a held upload first asks its holder to let go
 * (`requestRelease`, which ends the holder's request: the client that resumes has given up on it), then
 * waits for the lock, up to `acquireLockTimeoutMs`.
 *
 * If that connection drops, the server has already released its locks: every holder of this instance is
 * asked to stop, and the next lock opens a new connection.
 */
export class PostgresLocker implements Locker {
  readonly #url: string;
  readonly acquireLockTimeoutMs: number;
  readonly #holders = new Map<string, Holder>();
  #client: Promise<pg.Client> | null = null;
  #closed = false;

  constructor(url: string, options: { acquireLockTimeoutMs?: number } = {}) {
    this.#url = url;
    this.acquireLockTimeoutMs = options.acquireLockTimeoutMs ?? 30_000;
  }

  newLock(id: string): Lock {
    return new PostgresLock(this, id);
  }

  /** Ends the connection; the server releases whatever it still held. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    if (client) await (await client.catch(() => null))?.end().catch(() => undefined);
  }

  async #connection(): Promise<pg.Client> {
    if (this.#closed) throw new Error('upload locker closed');
    if (!this.#client) {
      const opening = (async () => {
        const client = new pg.Client({ connectionString: this.#url, keepAlive: true, connectionTimeoutMillis: 10_000 });
        const lost = () => {
          if (this.#client !== opening) return;
          this.#client = null;
          // The server dropped this session's locks with it: nobody here may go on writing.
          for (const holder of this.#holders.values()) void holder.requestRelease();
          this.#holders.clear();
        };
        client.on('error', lost);
        client.on('end', lost);
        client.on('notification', (message) => {
          if (message.channel !== UPLOAD_RELEASE_CHANNEL || !message.payload) return;
          void this.#holders.get(message.payload)?.requestRelease();
        });
        await client.connect();
        await client.query(`LISTEN ${UPLOAD_RELEASE_CHANNEL}`);
        return client;
      })();
      this.#client = opening;
      opening.catch(() => {
        if (this.#client === opening) this.#client = null;
      });
    }
    return this.#client;
  }

  /** One attempt: the holder's token when this request now holds the upload, null otherwise. */
  async tryAcquire(id: string, requestRelease: RequestRelease): Promise<object | null> {
    const local = this.#holders.get(id);
    if (local) {
      // Held by another request of this instance: the session already owns the advisory lock, so
      // PostgreSQL would say yes again; the holder is asked to let go, as MemoryLocker does.
      await local.requestRelease();
      return null;
    }
    // Reserved before the round trip, so that two requests of this instance never both ask the server.
    const holder: Holder = { requestRelease };
    this.#holders.set(id, holder);
    try {
      const client = await this.#connection();
      const { rows } = await client.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock(hashtextextended('tus-upload:' || $1, 0)) AS locked",
        [id],
      );
      if (rows[0]?.locked) return holder;
      this.#holders.delete(id);
      // Held by another instance: ask it to let go, then try again.
      await client.query('SELECT pg_notify($1, $2)', [UPLOAD_RELEASE_CHANNEL, id]);
      return null;
    } catch (error) {
      if (this.#holders.get(id) === holder) this.#holders.delete(id);
      throw error;
    }
  }

  /** Lets go of the upload if `token` still holds it (a lost connection may have given it to another). */
  async release(id: string, token: object): Promise<void> {
    if (this.#holders.get(id) !== token) return;
    this.#holders.delete(id);
    const client = this.#client;
    if (!client) return;
    // A lost connection took the lock with it: nothing left to release.
    await (
      await client
    )
      .query("SELECT pg_advisory_unlock(hashtextextended('tus-upload:' || $1, 0))", [id])
      .catch(() => undefined);
  }
}

class PostgresLock implements Lock {
  readonly #locker: PostgresLocker;
  readonly #id: string;
  #token: object | null = null;

  constructor(locker: PostgresLocker, id: string) {
    this.#locker = locker;
    this.#id = id;
  }

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.#locker.acquireLockTimeoutMs;
    while (!stopSignal.aborted && Date.now() < deadline) {
      const token = await this.#locker.tryAcquire(this.#id, requestRelease);
      if (token) {
        if (!stopSignal.aborted) {
          this.#token = token;
          return;
        }
        // The request went away while the server answered: not kept.
        await this.#locker.release(this.#id, token);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    throw ERRORS.ERR_LOCK_TIMEOUT;
  }

  async unlock(): Promise<void> {
    const token = this.#token;
    this.#token = null;
    if (token) await this.#locker.release(this.#id, token);
  }
}
