import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/**
 * The PostgreSQL server programs: PG_BIN, else the newest Debian cluster version installed; null when
 * there are none (the tests needing a server of their own are then skipped).
 */
export function postgresBinaries(): string | null {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .filter((version) => /^\d+$/.test(version))
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : [];
  return candidates.find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) ?? null;
}

export interface PostgresCluster {
  /** The superuser's URL of the `postgres` database. */
  url: string;
  port: number;
  /** `pg_ctl stop`: `fast` ends every session (as a restart does), `immediate` kills the server as a crash would. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of its own, for tests that stop and start the server (the shared one
 * other test files use must stay up). initdb refuses to run as root, so as root (CI) the programs run
 * as the `postgres` user in a folder it owns.
 */
export async function startPostgresCluster(
  bin: string,
  options: {
    /** Names its temporary folder (`kz-<name>-pg-…`), so a leftover one tells which test made it. */
    name?: string;
  } = {},
): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), `kz-${options.name ?? 'outage'}-pg-`));
  const data = join(dir, 'data');
  const port = await freePort();
  const user = 'postgres';
  const pg = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', user, '--', join(bin, program), ...args]) : run(join(bin, program), args);
  if (asRoot) {
    const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
    chownSync(dir, Number(uid.stdout.trim()), Number(gid.stdout.trim()));
  }
  await pg('initdb', ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // fsync off loses nothing when only the server process dies (the kernel keeps what was written), so a
  // committed transaction survives `stop -m immediate`; synchronous_commit stays on for the same reason.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let running = false;
  const cluster: PostgresCluster = {
    url: `postgres://${user}@127.0.0.1:${port}/postgres`,
    port,
    async stop(mode) {
      await pg('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    async start() {
      await pg('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', serverOptions, '-w', 'start']);
      running = true;
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}
