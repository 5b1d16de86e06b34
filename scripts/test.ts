/**
 * The whole test suite, as the README's second command runs it: migrations in step with the schema,
 * lint, types, unit and api tests (on PostgreSQL when TEST_DATABASE_URL is set, on PGlite otherwise), the
 * many-instances test (PostgreSQL, two api processes and nginx, all started by the test), a production
 * build, then the end-to-end tests in Chromium (on PGlite).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from '../e2e/chromium.ts';
import { clusterPrerequisites } from '../apps/api/src/cluster/prerequisites.ts';
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

/**
 * Steps that do not depend on each other and are each mostly one process (lint, types): run side by side,
 * their output shown whole once each ends, in the order given.
 */
async function runTogether(steps: { label: string; command: string; args: string[] }[]) {
  const started = Date.now();
  console.log(`\n▶ ${steps.map(({ label }) => label).join(' + ')}`);
  const results = await Promise.all(
    steps.map(
      ({ command, args }) =>
        new Promise<{ status: number | null; output: string }>((resolve) => {
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('close', (status) => resolve({ status, output }));
        }),
    ),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  let failed = false;
  steps.forEach(({ label }, index) => {
    const { status, output } = results[index]!;
    if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    if (status === 0) console.log(`✔ ${label}`);
    else {
      console.error(`✖ ${label} failed`);
      failed = true;
    }
  });
  if (failed) process.exit(1);
  console.log(`✔ together in ${seconds}s`);
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

/**
 * The Debian programs the tests start: nginx and the PostgreSQL server (the many-instances test) and the
 * local S3 server (radosgw, ADR 034). Installed in one go when run as root; otherwise the command is shown.
 */
function ensureTestPrograms() {
  const packages = [
    ...clusterPrerequisites().missing,
    ...(missingS3ServerPrograms().length > 0 ? S3_SERVER_PACKAGES : []),
  ];
  if (packages.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(`The tests need ${packages.join(', ')}: \`sudo apt-get install -y ${packages.join(' ')}\`,`);
    console.error('then run `npm test` again.');
    process.exit(1);
  }
  run(`install ${packages.join(', ')} (apt-get)`, 'sh', [
    '-c',
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')} >/dev/null`,
  ]);
  if (clusterPrerequisites().missing.length > 0 || missingS3ServerPrograms().length > 0) process.exit(1);
}

ensureChromium();
ensureTestPrograms();
run('migrations match the schema', 'npm', ['run', '--silent', 'db:check']);
await runTogether([
  { label: 'lint', command: 'npm', args: ['run', '--silent', 'lint'] },
  { label: 'typecheck', command: 'npm', args: ['run', '--silent', 'typecheck'] },
]);
// The api tests run on PostgreSQL when one is given (CI), and on embedded PGlite otherwise. PGlite, the
// default database, still runs under the whole platform in the end-to-end tests below (ADR 017).
const { TEST_DATABASE_URL } = process.env;
const projectFlag = (name: string) => ['--project', name];
// The entry pages' tests are a project of their own (apps/web/vitest.account.config.ts, ADR 044).
const unit = ['shared', 'web', 'web-account'];
if (TEST_DATABASE_URL) {
  run('unit tests', 'npx', ['vitest', 'run', ...unit.flatMap(projectFlag)]);
  run('api tests (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DATABASE_URL });
} else {
  run('unit and api tests (PGlite)', 'npx', ['vitest', 'run', ...[...unit, 'api'].flatMap(projectFlag)], {
    TEST_DATABASE_URL: '',
  });
}
// Starts its own PostgreSQL, so it runs the same with or without TEST_DATABASE_URL.
run('many instances', 'npx', ['vitest', 'run', '--project', 'cluster']);
run('build', 'npm', ['run', '--silent', 'build']);
run('end-to-end tests (Chromium)', 'npx', ['playwright', 'test']);
