import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ManifestTransform } from 'workbox-build';
import { FIRST_SCREENS_CHUNK } from './first-load.ts';

/** Vite's build manifest (build.manifest): each source module's file, its static imports and its CSS. */
interface ViteChunk {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
}

/**
 * The screens an applicant may open offline: the student shell and the home screen (one chunk, named
 * FIRST_SCREENS_CHUNK) and the applications area (list, form, receipt, decision), with the code and
 * catalogue parts they import.
 */
const STUDENT_ROOTS: readonly RegExp[] = [
  /^index\.html$/,
  /^src\/app\/home-sections\.tsx$/,
  /^src\/features\/applications\/components\/application-route\.tsx$/,
  /^src\/app\/application-slots\.tsx$/,
  /virtual:kaminuza-locale\/[a-z]{2}\/(core|app)$/,
  /^src\/lib\/locales\//,
];

/**
 * Keeps the precache to the app shell and the student screens' files (staff and admin screens load from
 * the network, as before), and stores the shell under an app route: the server answers those with it.
 */
export function studentPrecache(shellUrl: string): ManifestTransform {
  return (entries) => {
    const manifestFile = fileURLToPath(new URL('../dist/.vite/manifest.json', import.meta.url));
    const chunks = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ViteChunk>;
    const wanted = new Set<string>();
    const visit = (key: string) => {
      const chunk = chunks[key];
      if (!chunk || wanted.has(chunk.file)) return;
      wanted.add(chunk.file);
      for (const css of chunk.css ?? []) wanted.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const [key, chunk] of Object.entries(chunks)) {
      if (chunk.name === FIRST_SCREENS_CHUNK || STUDENT_ROOTS.some((root) => root.test(key))) visit(key);
    }

    const manifest = entries
      .filter((entry) => !entry.url.startsWith('assets/') || wanted.has(entry.url))
      .map((entry) => (entry.url === 'index.html' ? { ...entry, url: shellUrl } : entry));
    return { manifest, warnings: [] };
  };
}
