/**
 * Fails when the Drizzle schema and the committed migrations disagree (CI runs it as `npm run db:check`):
 * runs `drizzle-kit generate` into a scratch copy of the migrations folder and looks for a new file.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import config from '../drizzle.config.ts';

const apiDir = fileURLToPath(new URL('..', import.meta.url));
// The CLI is not an export of the package; it sits beside the package's entry point.
const drizzleKit = join(dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
const sqlFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.sql'));

if (!config.out || typeof config.schema !== 'string' || !config.casing) {
  throw new Error('check-migrations expects drizzle.config.ts to set out, a single schema and casing');
}

const scratch = mkdtempSync(join(tmpdir(), 'kz-migrations-'));
try {
  cpSync(join(apiDir, config.out), scratch, { recursive: true });
  const committed = sqlFiles(scratch);
  const run = spawnSync(
    process.execPath,
    [
      drizzleKit,
      'generate',
      `--dialect=${config.dialect}`,
      `--schema=${config.schema}`,
      // drizzle-kit prefixes `./` to --out, so it must be relative to the working directory.
      `--out=${relative(apiDir, scratch)}`,
      `--casing=${config.casing}`,
    ],
    // No stdin: a rename prompt then fails instead of waiting for an answer.
    { cwd: apiDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  const added = sqlFiles(scratch).filter((name) => !committed.includes(name));

  if (added.length > 0) {
    const sql = added.map((name) => readFileSync(join(scratch, name), 'utf8')).join('\n');
    console.error(
      `The Drizzle schema and the migrations in ${config.out} disagree: drizzle-kit generate would add ` +
        `${added.join(', ')}:\n\n${sql}\nRun \`npm run db:generate\` and commit the new migration.`,
    );
    process.exitCode = 1;
  } else if (run.status !== 0 || !run.stdout.includes('No schema changes')) {
    // drizzle-kit exits 0 on some failures, so success is its "no changes" line, not the exit code.
    console.error(`drizzle-kit generate did not run cleanly:\n${run.stdout}${run.stderr}${run.error ?? ''}`);
    process.exitCode = 1;
  } else {
    console.log('Migrations match the Drizzle schema.');
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
