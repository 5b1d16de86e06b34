/**
 * The whole test suite, as the README's second command runs it: migrations in step with the schema,
 * lint, types, unit and api tests (on PostgreSQL when TEST_DATABASE_URL is set, on PGlite otherwise), a
 * production build, then the end-to-end tests in Chromium (on PGlite).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from '../e2e/chromium.ts';
import { missingS3ServerPrograms, S3_SERVER_PACKAGES } from '../apps/api/src/test/s3-server.ts';

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${label} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${label} (${seconds}s)`);
}

function ensureChromium() {
  if (chromiumPath()) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error('Chromium is needed for the end-to-end tests: install it with `sudo apt-get install -y chromium`');
    console.error('(or set CHROMIUM_PATH to a Chromium or Chrome binary), then run `npm test` again.');
    process.exit(1);
  }
  run('install Chromium (apt-get)', 'sh', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null',
  ]);
  if (!existsSync('/usr/bin/chromium')) process.exit(1);
}

/** The local S3 server the storage tests start (radosgw, ADR 034), installed from Debian when missing. */
function ensureS3Server() {
  if (missingS3ServerPrograms().length === 0) return;
  const packages = S3_SERVER_PACKAGES.join(' ');
  if (process.getuid?.() !== 0) {
    console.error(`The storage tests need a local S3 server: install it with \`sudo apt-get install -y ${packages}\`,`);
    console.error('then run `npm test` again.');
    process.exit(1);
  }
  run('install the local S3 server (apt-get)', 'sh', [
    '-c',
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages} >/dev/null`,
  ]);
  if (missingS3ServerPrograms().length > 0) process.exit(1);
}

ensureChromium();
ensureS3Server();
run('migrations match the schema', 'npm', ['run', '--silent', 'db:check']);
run('lint', 'npm', ['run', '--silent', 'lint']);
run('typecheck', 'npm', ['run', '--silent', 'typecheck']);
// The api tests run on PostgreSQL when one is given (CI), and on embedded PGlite otherwise. PGlite, the
// default database, still runs under the whole platform in the end-to-end tests below (ADR 017).
const { TEST_DATABASE_URL } = process.env;
if (TEST_DATABASE_URL) {
  run('unit tests', 'npx', ['vitest', 'run', '--project', 'shared', '--project', 'web']);
  run('api tests (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DATABASE_URL });
} else {
  run('unit and api tests (PGlite)', 'npx', ['vitest', 'run'], { TEST_DATABASE_URL: '' });
}
run('build', 'npm', ['run', '--silent', 'build']);
run('end-to-end tests (Chromium)', 'npx', ['playwright', 'test']);
