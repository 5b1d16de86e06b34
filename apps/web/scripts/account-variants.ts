/**
 * The entry pages' build (ADR 044) resolves a few modules to light counterparts in `src/account/`: the
 * libraries the app needs for its many screens (React Router's data router, i18next, TanStack Query) and
 * the app's session and preference modules built on them. The pages' components import the usual names;
 * only this build sees the counterparts, and it fails if a component needs something they lack.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('../', import.meta.url));
const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** Packages, by import name. */
export const PACKAGE_VARIANTS: Readonly<Record<string, string>> = {
  'react-router': 'src/account/router.tsx',
  'react-i18next': 'src/account/react-i18next.tsx',
  '@tanstack/react-query': 'src/account/react-query.ts',
};

/** The app's own modules, by path. */
export const MODULE_VARIANTS: Readonly<Record<string, string>> = {
  'src/lib/session.tsx': 'src/account/session.tsx',
  'src/lib/account-settings.ts': 'src/account/account-settings.ts',
};

export function accountVariants(): Plugin {
  return {
    name: 'kaminuza-account-variants',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const variant = PACKAGE_VARIANTS[id];
      if (variant) return source(variant);
      if (!id.startsWith('.') || !importer) return undefined;
      const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
      const local = resolved && MODULE_VARIANTS[relative(root, resolved.id).split('\\').join('/')];
      return local ? source(local) : resolved;
    },
  };
}
