// @vitest-environment node
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

/*
 * The web's boundary rules as `npm run lint` applies them: the repository's own configuration, on code
 * placed at a path inside apps/web/src. The imported files are real, so the resolver must follow the
 * web's .ts/.tsx-suffixed imports for a zone or a cycle to be seen at all.
 */
const root = join(import.meta.dirname, '..', '..');
const src = join(import.meta.dirname, 'src');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules broken by `code` if it were the file at `path` (relative to apps/web/src). */
async function brokenRules(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(src, path) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('web boundaries', { timeout: 60_000 }, () => {
  test('a feature may not import another feature', async () => {
    const code = `import { PushSection } from '../../notifications/components/push-section.tsx';
export const Push = PushSection;
`;
    expect(await brokenRules('features/settings/components/example.tsx', code)).toEqual([
      'import-x/no-restricted-paths',
    ]);
  });

  test('a feature may not load another feature lazily either', async () => {
    const code = `export const load = () => import('../../notifications/components/push-section.tsx');
`;
    expect(await brokenRules('features/settings/components/example.tsx', code)).toEqual([
      'import-x/no-restricted-paths',
    ]);
  });

  test('a feature may not import app/', async () => {
    const code = `import { routes } from '../../../app/routes.tsx';
export const table = routes;
`;
    expect(await brokenRules('features/review/components/example.tsx', code)).toEqual(['import-x/no-restricted-paths']);
  });

  test('shared components and lib may import neither a feature nor app/', async () => {
    const feature = `import { reviewKeys } from '../features/review/api/keys.ts';
export const keys = reviewKeys;
`;
    const app = `import { routes } from '../app/routes.tsx';
export const table = routes;
`;
    expect(await brokenRules('components/example.tsx', feature)).toEqual(['import-x/no-restricted-paths']);
    expect(await brokenRules('lib/example.ts', app)).toEqual(['import-x/no-restricted-paths']);
  });

  test('an import cycle fails', async () => {
    // add-note.ts imports keys.ts: keys.ts importing add-note.ts back closes a cycle inside one feature.
    const code = `import { useAddNote } from './add-note.ts';
export const hook = useAddNote;
`;
    expect(await brokenRules('features/review/api/keys.ts', code)).toEqual(['import-x/no-cycle']);
  });

  test('a feature importing its own files, components and lib, and app/ composing features, pass', async () => {
    const feature = `import { Tabs } from '../../../components/tabs.tsx';
import { paths } from '../../../lib/paths.ts';
import { reviewKeys } from '../api/keys.ts';
export const parts = [Tabs, paths, reviewKeys];
`;
    const app = `import { PushSection } from '../features/notifications/components/push-section.tsx';
import { SettingsPage } from '../features/settings/components/settings-page.tsx';
export const parts = [PushSection, SettingsPage];
`;
    expect(await brokenRules('features/review/components/example.tsx', feature)).toEqual([]);
    expect(await brokenRules('app/example.tsx', app)).toEqual([]);
  });
});
