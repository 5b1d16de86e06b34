// The api's dependency direction (docs/architecture.md, ADR 030), enforced by eslint-plugin-import-x.
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The modules from the bottom up. A module may import modules of lower layers and of its own layer (no
 * cycle), never a higher one; lib/ and db/ import no module.
 */
export const API_LAYERS = [
  ['email', 'health', 'waitlist'],
  ['auth'],
  ['settings', 'geo'],
  ['partners', 'notifications'],
  ['partner-settings', 'programs'],
  ['cycles'],
  ['forms', 'team'],
  ['institution-onboarding', 'catalogue'],
  ['students'],
  ['documents', 'waivers', 'eligibility'],
  ['uploads', 'payments', 'messaging', 'referees'],
  ['submissions'],
  ['applications'],
  ['decisions', 'chats', 'support'],
  ['review', 'home'],
  ['admin', 'account-data', 'partner-api'],
];

const src = 'apps/api/src';
const dir = (module) => `./${src}/modules/${module}`;
const modules = API_LAYERS.flat();

const zones = [
  {
    target: [`./${src}/lib`, `./${src}/db`],
    from: `./${src}/modules`,
    message: 'lib/ and db/ are below every module: pass what they need in from the caller.',
  },
  {
    target: [`./${src}/lib`, `./${src}/db`, `./${src}/modules`],
    from: [
      `./${src}/seed`,
      `./${src}/test`,
      `./${src}/cluster`,
      `./${src}/dev`,
      `./${src}/app.ts`,
      `./${src}/jobs.ts`,
      `./${src}/server.ts`,
    ],
    message: 'The app, the seeds and the test harness compose the modules: nothing below them imports them.',
  },
  {
    target: [`./${src}/lib`, `./${src}/db`, `./${src}/modules`],
    from: `./${src}/simulators`,
    message:
      "A simulator stands in for a provider: the app, the server and tests start one; the api's code talks to it over HTTP only.",
  },
  {
    target: `./${src}/simulators`,
    from: [`./${src}/lib`, `./${src}/db`, `./${src}/modules`],
    message: "A simulator speaks its provider's protocol on its own: it imports none of the api's code.",
  },
  ...API_LAYERS.slice(0, -1).flatMap((layer, rank) =>
    layer.map((module) => ({
      target: dir(module),
      from: API_LAYERS.slice(rank + 1)
        .flat()
        .map(dir),
      message: `${module} is in layer ${rank + 1} of API_LAYERS in apps/api/eslint.boundaries.js; it may not import a module of a higher layer.`,
    })),
  ),
  ...modules.map((module) => ({
    target: modules.filter((other) => other !== module).map(dir),
    from: dir(module),
    except: ['./index.ts'],
    message: `Another module is reached through its public entry: import from '../${module}/index.ts'.`,
  })),
];

// How import-x reads the files an import leads to: TypeScript, with the repo's `.ts`-suffixed specifiers.
const settings = {
  ...importX.flatConfigs.typescript.settings,
  'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${src}/../tsconfig.json` })],
};

export default [
  {
    files: [`${src}/**/*.ts`],
    // Composition roots and tests may reach into modules: the app wires the routes, seeds and tests
    // build data with the services themselves.
    ignores: [
      `${src}/**/*.test.ts`,
      `${src}/**/test-helpers.ts`,
      `${src}/test/**`,
      `${src}/cluster/**`,
      `${src}/dev/**`,
      `${src}/seed/**`,
      `${src}/app.ts`,
      `${src}/jobs.ts`,
      `${src}/server.ts`,
    ],
    plugins: { 'import-x': importX },
    settings,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    files: [`${src}/**/*.ts`],
    plugins: { 'import-x': importX },
    settings,
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
];
