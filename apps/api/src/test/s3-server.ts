import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './server-process.ts';

const run = promisify(execFile);

/** The Debian packages of the local S3 server (Ceph's RADOS Gateway on a one-OSD cluster). */
export const S3_SERVER_PACKAGES = ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common'] as const;
const PROGRAMS = ['monmaptool', 'ceph-mon', 'ceph-osd', 'ceph', 'radosgw', 'radosgw-admin'] as const;

export interface S3Server {
  /** The S3 API's address (path-style: the bucket goes in the path). */
  endpoint: string;
  region: string;
  /** A bucket created for the caller. */
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The env of an api using this bucket (STORAGE_DRIVER=s3 and the S3_/AWS_ variables). */
  env: Record<string, string>;
  /** How long it took to start, in milliseconds. */
  startedInMs: number;
  /** Stops every daemon and deletes the cluster's files (its data lived in memory). */
  stop(): Promise<void>;
}

function programPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** The programs of the local S3 server that are not installed (empty when it can run). */
export function missingS3ServerPrograms(): string[] {
  return PROGRAMS.filter((name) => !programPath(name));
}

async function until<T>(what: string, timeoutMs: number, attempt: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await attempt();
      if (value !== null) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
}

/**
 * A real S3 server on this machine for tests: Ceph's RADOS Gateway (radosgw, Debian's `radosgw`
 * package) over a throwaway one-monitor, one-OSD cluster whose objects live in memory (memstore), on
 * free ports, without authentication between the daemons. It creates a user with fresh keys and one
 * bucket. About 1 s to start (radosgw creating its pools), a few more when the OSD has to be started again.
 */
export async function startS3Server(options: { bucket?: string } = {}): Promise<S3Server> {
  const missing = missingS3ServerPrograms();
  if (missing.length > 0) {
    throw new Error(
      `the local S3 server needs ${missing.join(', ')}: install the Debian packages ` +
        `(apt-get install -y ${S3_SERVER_PACKAGES.join(' ')}), which \`npm test\` does when run as root`,
    );
  }
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'kz-s3-'));
  for (const sub of ['mon', 'osd', 'run', 'log', 'rgw']) mkdirSync(join(dir, sub));
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const conf = join(dir, 'ceph.conf');
  const fsid = randomUUID();
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
mon initial members = a
ms bind msgr2 = false
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 1
osd pool default pgp num = 1
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
# The monitor commits its maps at once rather than batching them for a second: radosgw's start, which
# creates its pools one after another, goes from about 14 s to about 1 s.
paxos propose interval = 0.05
paxos min wait = 0.01
osd pool default pg autoscale mode = off
osd objectstore = memstore
memstore device bytes = 1073741824
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
keyring = ${dir}/keyring
[mon.a]
mon data = ${dir}/mon
[osd.0]
osd data = ${dir}/osd
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
  );
  const children: ChildProcess[] = [];
  /** Daemons that ended before stop(), for the error message. */
  const exits: string[] = [];
  const ceph = (program: string, args: string[]) => run(program, ['-c', conf, ...args], { timeout: 60_000 });
  let stopping = false;
  const setpriv = programPath('setpriv');
  const daemon = (program: string, args: string[], restarts = 0) => {
    // In the foreground (-f), so that it is this process's child and stops with it.
    const out = openSync(join(dir, 'log', `${program}.out`), 'a');
    // Through setpriv (util-linux), the daemon is killed if this process dies without stopping it (a test
    // worker ended by a timeout); signals reach the daemon itself, which setpriv becomes.
    const command = [program, '-c', conf, '-f', ...args];
    const child = setpriv
      ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', ...command], { stdio: ['ignore', out, out] })
      : spawn(program, command.slice(1), { stdio: ['ignore', out, out] });
    closeSync(out);
    child.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      exits.push(`${program} exited (${signal ?? code})`);
      // A daemon of Ceph 16 sometimes sends its first command to the monitor before it has the cluster's
      // id, is refused ("wrong fsid") and exits; started again, it boots.
      if (!stopping && code !== 0 && restarts < 3) daemon(program, args, restarts + 1);
    });
    children.push(child);
  };
  const killAll = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killAll);

  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killAll);
    await Promise.all(
      children.reverse().map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await run('ceph-authtool', [
      '--create-keyring',
      join(dir, 'keyring'),
      '--gen-key',
      '-n',
      'mon.',
      '--cap',
      'mon',
      'allow *',
    ]);
    await run('monmaptool', [
      '--create',
      '--addv',
      'a',
      `[v1:127.0.0.1:${monPort}]`,
      '--fsid',
      fsid,
      join(dir, 'monmap'),
    ]);
    await ceph('ceph-mon', ['--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap'), '--keyring', join(dir, 'keyring')]);
    daemon('ceph-mon', ['-i', 'a']);
    // Waits for the monitor by itself.
    // The OSD is created with the uuid its store is then made with; on boot the monitor checks both match.
    const osdUuid = randomUUID();
    await ceph('ceph', ['--connect-timeout', '30', 'osd', 'create', osdUuid]);
    await ceph('ceph-osd', ['-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
    daemon('ceph-osd', ['-i', '0']);
    daemon('radosgw', ['-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    // radosgw answers once it has created its pools, which needs the OSD up.
    await until('radosgw', 90_000, async () => ((await fetch(endpoint)).ok ? true : null));

    const accessKeyId = randomBytes(10).toString('hex').toUpperCase();
    const secretAccessKey = randomBytes(20).toString('base64url');
    await ceph('radosgw-admin', [
      '-n',
      'client.admin',
      'user',
      'create',
      '--uid=kaminuza-test',
      '--display-name=kaminuza test',
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ]);
    const region = 'us-east-1';
    const bucket = options.bucket ?? `kz-test-${randomBytes(4).toString('hex')}`;
    const client = new S3Client({
      endpoint,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    try {
      // The deployment's step (the api never creates its bucket), played by the test setup.
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
    return {
      endpoint,
      region,
      bucket,
      accessKeyId,
      secretAccessKey,
      env: {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_REGION: region,
        S3_BUCKET: bucket,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: accessKeyId,
        AWS_SECRET_ACCESS_KEY: secretAccessKey,
      },
      startedInMs: Date.now() - started,
      stop,
    };
  } catch (error) {
    const ended = exits.join(', ');
    const logs = ['mon.a.log', 'osd.0.log', 'client.rgw.log', 'ceph-osd.out', 'radosgw.out']
      .map((name) => join(dir, 'log', name))
      .filter((path) => existsSync(path))
      .map((path) => `--- ${path}\n${readFileSync(path, 'utf8').split('\n').slice(-15).join('\n')}`)
      .join('\n');
    await stop();
    throw new Error(`the local S3 server did not start: ${String(error)}; ${ended || 'no daemon exited'}\n${logs}`, {
      cause: error,
    });
  }
}
