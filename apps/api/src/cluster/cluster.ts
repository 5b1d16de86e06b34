import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase, type Database } from '../db/client.ts';
import { startPostgresCluster, type PostgresCluster } from '../test/postgres-cluster.ts';
import { freePort, startServerProcess, stopServerProcess } from '../test/server-process.ts';
import { clusterPrerequisites } from './prerequisites.ts';

/*
 * Many api instances as production runs them: one PostgreSQL cluster of its own, N api processes
 * (apps/api/src/server.ts) and nginx in front as a round-robin proxy. The database keeps its files in a
 * temporary folder of its own; everything else lives in one more: each instance's log and DATA_DIR,
 * nginx's config, logs and temp files.
 *
 * More services (an S3-compatible server, …) join through `env`: whatever they need the instances to
 * know is passed to every instance, e.g. `{ STORAGE_DRIVER: 's3', S3_ENDPOINT: … }`.
 */

const run = promisify(execFile);

export interface Instance {
  /** 0, 1, …: its place in the proxy's upstream. */
  index: number;
  port: number;
  /** Its own address, bypassing the proxy. */
  url: string;
  /** Its stdout and stderr. */
  log: string;
  /** Starts it (again) and resolves once it answers /ready. */
  start(): Promise<void>;
  /** SIGTERM lets in-flight requests finish; SIGKILL is a crash. Resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  running(): boolean;
}

export interface Cluster {
  dir: string;
  postgres: PostgresCluster;
  /** The database every instance uses. */
  databaseUrl: string;
  /** A connection of the test's own to that database (seeding fixtures, checking what was stored). */
  database: Database;
  instances: Instance[];
  /** nginx: the one address clients use. */
  proxy: { url: string; port: number; config: string };
  /** The instance that answered a response through the proxy (nginx's X-Upstream header), if any. */
  answeredBy(response: { headers: { get(name: string): string | null } }): Instance | undefined;
  /** The tail of every log (each instance's, nginx's errors), for a failed test's report. */
  logs(maxChars?: number): string;
  /** Stops everything and deletes the folder. */
  destroy(): Promise<void>;
}

/** The response header nginx adds: the upstream address(es) it tried, the last one answered. */
export const UPSTREAM_HEADER = 'x-upstream';

/**
 * A production-like nginx config: round robin over the instances, keep-alive connections to them, the
 * WebSocket upgrade passed through, and a request that could not reach an instance (refused, reset before
 * an answer, timed out) tried on the next one. nginx never resends a POST that already reached an
 * instance (no `non_idempotent`): that is the client's to retry, with its Idempotency-Key.
 */
export function nginxConfig(options: { dir: string; port: number; upstreams: number[] }): string {
  const { dir, port, upstreams } = options;
  return `# Generated for one run of the many-instances test.
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
events {
  worker_connections 1024;
}

http {
  log_format upstream '$remote_addr "$request" $status $request_time upstream=$upstream_addr/$upstream_status';
  access_log ${join(dir, 'nginx-access.log')} upstream;
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};

  # A WebSocket handshake asks for the upgrade; any other request keeps the upstream connection alive.
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' '';
  }

  upstream kaminuza_api {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 32;
  }

  server {
    listen 127.0.0.1:${port};
    # The api enforces its own body limits (uploads are resumable and chunked).
    client_max_body_size 0;

    location / {
      proxy_pass http://kaminuza_api;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      # nginx is the edge: the client's own address replaces anything it sent (TRUST_PROXY trusts nginx).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_504;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
      # Longer than the realtime heartbeat (30 s), so an idle WebSocket stays open.
      proxy_read_timeout 75s;
      proxy_send_timeout 75s;
      proxy_request_buffering off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

async function waitUntil(what: string, check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: not within ${withinMs} ms`);
}

function tail(path: string, maxChars: number): string {
  if (!existsSync(path)) return '(no log)';
  const text = readFileSync(path, 'utf8');
  return text.length > maxChars ? `…${text.slice(-maxChars)}` : text || '(empty)';
}

/**
 * Starts PostgreSQL, the api instances (all at once against the empty database: they take turns to
 * migrate and seed it), and nginx in front of them.
 */
export async function startCluster(
  options: {
    instances?: number;
    /** Added to every instance's environment (after the cluster's own, so it may override them). */
    env?: Record<string, string>;
  } = {},
): Promise<Cluster> {
  const { postgres: bin, nginx, missing } = clusterPrerequisites();
  if (!bin || !nginx) throw new Error(`the many-instances cluster needs ${missing.join(' and ')}`);
  const count = options.instances ?? 2;
  const dir = mkdtempSync(join(tmpdir(), 'kz-cluster-'));
  // nginx's workers and PostgreSQL's programs may run as other users: they need to reach their files.
  chmodSync(dir, 0o755);
  const cleanups: (() => Promise<unknown>)[] = [];
  const destroy = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const postgres = await startPostgresCluster(bin, { name: 'cluster' });
    cleanups.push(() => postgres.destroy());
    const databaseUrl = postgres.url;
    const ports = await Promise.all(Array.from({ length: count + 1 }, () => freePort()));
    const proxyPort = ports[count]!;
    const proxyUrl = `http://localhost:${proxyPort}`;
    const shared = {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: proxyUrl,
      // Not `production`: the fixtures of test/deadline.ts start sessions signed with the development
      // secret, which production refuses. Every instance signs and reads cookies with that same secret.
      NODE_ENV: 'test',
      MAILBOX: 'off',
      // Each instance would start simulators of its own, which the others' callbacks could not find.
      PAYMENT_SIMULATORS: 'off',
      TRUST_PROXY: '127.0.0.1',
      DATABASE_POOL_SIZE: '10',
      LOG_LEVEL: 'warn',
    };

    const instances: Instance[] = ports.slice(0, count).map((port, index) => {
      const log = join(dir, `api-${index + 1}.log`);
      // Each instance has a disk of its own, as each container would: nothing may rely on another's files.
      const dataDir = join(dir, `api-${index + 1}-data`);
      mkdirSync(dataDir);
      let child: ChildProcess | undefined;
      const instance: Instance = {
        index,
        port,
        url: `http://localhost:${port}`,
        log,
        async start() {
          child = await startServerProcess(
            port,
            { ...shared, DATA_DIR: dataDir, ...options.env },
            { log, readyWithinMs: 60_000 },
          );
        },
        async stop(signal = 'SIGTERM') {
          if (child) await stopServerProcess(child, signal);
        },
        running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      };
      cleanups.push(() => instance.stop('SIGKILL'));
      return instance;
    });
    // All at once on the empty database, as a deploy starting its instances together: migrations run
    // under an advisory lock, so one migrates and the others find nothing left to do.
    await Promise.all(instances.map((instance) => instance.start()));

    const config = join(dir, 'nginx.conf');
    await writeFile(config, nginxConfig({ dir, port: proxyPort, upstreams: ports.slice(0, count) }));
    await run(nginx, ['-t', '-q', '-c', config, '-e', join(dir, 'nginx-error.log')]);
    const proxy = spawn(nginx, ['-c', config, '-e', join(dir, 'nginx-error.log'), '-g', 'daemon off;'], {
      stdio: 'ignore',
    });
    cleanups.push(async () => {
      if (proxy.exitCode !== null || proxy.signalCode !== null) return;
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGQUIT');
      await exited;
    });
    await waitUntil('nginx answers', async () => (await fetch(`${proxyUrl}/health`)).ok, 10_000);

    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4 });
    cleanups.push(() => database.close());

    const byPort = new Map(instances.map((instance) => [String(instance.port), instance]));
    return {
      dir,
      postgres,
      databaseUrl,
      database,
      instances,
      proxy: { url: proxyUrl, port: proxyPort, config },
      answeredBy(response) {
        const last = response.headers.get(UPSTREAM_HEADER)?.split(',').at(-1)?.trim();
        return last === undefined ? undefined : byPort.get(last.split(':').at(-1)!);
      },
      logs(maxChars = 6_000) {
        const parts = instances.map((instance) => [
          `api instance ${instance.index + 1} (${instance.url})`,
          instance.log,
        ]);
        parts.push(['nginx errors', join(dir, 'nginx-error.log')], ['nginx access', join(dir, 'nginx-access.log')]);
        return parts.map(([title, path]) => `──── ${title} ────\n${tail(path!, maxChars)}`).join('\n');
      },
      destroy,
    };
  } catch (error) {
    const logs = ['api-1.log', 'api-2.log', 'nginx-error.log']
      .map((name) => `──── ${name} ────\n${tail(join(dir, name), 4_000)}`)
      .join('\n');
    await destroy();
    throw new Error(`the cluster did not start: ${(error as Error).message}\n${logs}`, { cause: error });
  }
}
