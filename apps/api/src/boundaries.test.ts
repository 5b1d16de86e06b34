import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The api's dependency direction (apps/api/eslint.boundaries.js) as `npm run lint` applies it: each case
 * lints a real module file with one import added, and names the rule that must refuse it.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const file = (path: string) => `${repo}apps/api/src/${path}`;
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repo });
});

async function problems(path: string, added: string): Promise<string[]> {
  const code = `${added}\n${readFileSync(file(path), 'utf8')}`;
  const [result] = await eslint.lintText(code, { filePath: file(path) });
  // The added import is unused; only the boundary rules are under test.
  return (result?.messages ?? [])
    .filter((message) => message.ruleId?.startsWith('import-x/'))
    .map((message) => `${message.ruleId}: ${message.message}`);
}

describe('api module boundaries', () => {
  // The whole tree is linted by `npm run lint`; here, one file as it is.
  it('accepts a file as it is', async () => {
    expect(await problems('modules/review/notes.service.ts', '')).toEqual([]);
  });

  it('accepts a lower module reached through its public entry', async () => {
    expect(
      await problems('modules/review/notes.service.ts', "import { getSettings } from '../partner-settings/index.ts';"),
    ).toEqual([]);
  });

  it('refuses an import of a higher layer', async () => {
    const found = await problems(
      'modules/auth/accounts.ts',
      "import { createInstitution } from '../partners/index.ts';",
    );
    // partners sits above auth and imports it, so this is a cycle as well; the layer rule names the cause.
    expect(found).toContainEqual(expect.stringMatching(/^import-x\/no-restricted-paths: .*auth is in layer 2/));
  });

  it('refuses a higher layer even where no cycle follows', async () => {
    const found = await problems(
      'modules/catalogue/catalogue.service.ts',
      "import { currentDocumentsOf } from '../review/index.ts';",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*catalogue is in layer 8/)]);
  });

  it('refuses a module in lib/ or db/', async () => {
    expect(await problems('lib/errors.ts', "import { requireUser } from '../modules/auth/index.ts';")).toContainEqual(
      expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ and db\/ are below every module/),
    );
    expect(await problems('db/client.ts', "import type { Caller } from '../modules/auth/index.ts';")).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ and db\/ are below every module/),
    ]);
  });

  it('refuses the seeds, the app and the test harness in a module or in lib/', async () => {
    const composition = /^import-x\/no-restricted-paths: .*compose the modules/;
    expect(
      await problems(
        'modules/partners/partners.service.ts',
        "import { DEMO_UNIVERSITIES } from '../../seed/index.ts';",
      ),
    ).toEqual([expect.stringMatching(composition)]);
    expect(await problems('lib/errors.ts', "import { buildApp } from '../app.ts';")).toContainEqual(
      expect.stringMatching(composition),
    );
  });

  it('keeps the provider simulators and the api apart, both ways', async () => {
    expect(
      await problems(
        'modules/payments/providers/mtn-momo.ts',
        "import { startMomoSimulator } from '../../../simulators/mtn-momo.ts';",
      ),
    ).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*A simulator stands in for a provider/)]);
    expect(await problems('simulators/mtn-momo.ts', "import { AppError } from '../lib/errors.ts';")).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*imports none of the api's code/),
    ]);
  });

  it("refuses another module's internals and routes, even of a lower layer", async () => {
    expect(
      await problems(
        'modules/review/notes.service.ts',
        "import { getSettings } from '../partner-settings/partner-settings.service.ts';",
      ),
    ).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*through its public entry/)]);
    expect(
      await problems(
        'modules/review/notes.service.ts',
        "import { paymentsRoutes } from '../payments/payments.routes.ts';",
      ),
    ).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*through its public entry/)]);
  });

  it('refuses an import cycle', async () => {
    // guard.ts reads sessions through auth.service.ts, which hashes with password.ts.
    expect(await problems('modules/auth/password.ts', "import { requireUser } from './guard.ts';")).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: /),
    ]);
  });
});
