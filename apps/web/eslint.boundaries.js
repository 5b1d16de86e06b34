/**
 * The web's dependency direction (ARCHITECTURE §3.1, ADR 031): app/ composes features; a feature uses
 * components/ and lib/ but no other feature; components/ and lib/ use neither a feature nor app/; and
 * no file imports itself through a cycle.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const src = join(import.meta.dirname, 'src');
// Read at lint time, so a new feature folder is fenced in the day it appears.
const features = readdirSync(join(src, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const COMPOSE_IN_APP = 'compose them in app/ (a route or layout passes one into the other)';

const zones = [
  ...features.map((feature) => ({
    target: `./features/${feature}`,
    from: './features',
    except: [`./${feature}`],
    message: `features/${feature} may not import another feature: move what they share to components/ or lib/, or ${COMPOSE_IN_APP}.`,
  })),
  {
    target: ['./features', './components', './lib'],
    from: './app',
    message: 'Only app/ imports app/: it composes features, not the other way round.',
  },
  {
    target: ['./components', './lib'],
    from: './features',
    message: 'Shared components and lib may not depend on a feature.',
  },
];

export default [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without it import-x reads only .js files, and no-cycle silently follows no import of the web.
      'import-x/extensions': ['.ts', '.tsx'],
      // The web imports its files with their .ts/.tsx suffixes (allowImportingTsExtensions).
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: join(import.meta.dirname, 'tsconfig.json') }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: src, zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
];
