import type { ComponentType } from 'react';
import type { PageHandle } from '../page-meta.ts';
import { loadAppTexts, loadPageTexts, loadStaffTexts } from '../../lib/i18n.ts';

/** A lazily loaded screen: each one is its own chunk, fetched when its route is first visited. */
export function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return { lazy: async () => ({ Component: pick(await load()) }) };
}

/** A public information page: its chunk and, in the app, the page texts it shows. */
export function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadPageTexts()]))[0], pick);
}

/** A feature screen of the signed-in areas: its chunk and the feature texts it shows. */
export function feature<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadAppTexts()]))[0], pick);
}

/** An admissions setup screen of the partner dashboard: its chunk and the setup texts. */
export function staffFeature<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return screen(async () => (await Promise.all([load(), loadStaffTexts()]))[0], pick);
}

/** Title and description keys of a public page: `meta.<name>.title` / `meta.<name>.description`. */
export function meta(name: string): { handle: PageHandle } {
  return { handle: { title: `meta.${name}.title`, description: `meta.${name}.description` } };
}
