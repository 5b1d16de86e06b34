/**
 * JavaScript budgets (ARCHITECTURE §7): the first student screen — the app shell opening /home, with
 * the English texts — within 170 KB compressed; each entry page (its own bundle, ADR 044) within 100 KB.
 * Reads the Vite manifests of a build (`npm run build`) and follows each chunk's static imports; exits
 * with 1 when any page is over. Usage: npm run bench:bundle
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { FIRST_SCREENS_CHUNK } from '../apps/web/scripts/first-load.ts';
import { ACCOUNT_PAGE_MODULES } from '../apps/web/src/account/page-modules.ts';

interface Chunk {
  file: string;
  name?: string;
  imports?: string[];
}

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const read = (name: string) => JSON.parse(readFileSync(`${dist}.vite/${name}`, 'utf8')) as Record<string, Chunk>;
const appManifest = read('manifest.json');
const accountManifest = read('account-manifest.json');

/** The files a screen downloads: its entries and everything they import statically. */
function files(manifest: Record<string, Chunk>, entries: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  entries.forEach(visit);
  return seen;
}

/** A chunk the build named (a group of several modules has no source path of its own). */
function named(name: string): string {
  const key = Object.keys(appManifest).find((candidate) => appManifest[candidate]?.name === name);
  if (!key) throw new Error(`No chunk is named ${name}`);
  return key;
}

interface Screen {
  manifest: Record<string, Chunk>;
  entries: string[];
  budgetKb: number;
}

const screens: Record<string, Screen> = {
  'first student screen (/home)': {
    manifest: appManifest,
    // The student shell and the home screen share one chunk (apps/web/scripts/first-load.ts).
    entries: ['index.html', named(FIRST_SCREENS_CHUNK), 'virtual:kaminuza-locale/en/core'],
    budgetKb: 170,
  },
  ...Object.fromEntries(
    Object.entries(ACCOUNT_PAGE_MODULES).map(([path, page]) => [
      `entry page (${path})`,
      {
        manifest: accountManifest,
        entries: ['account.html', page.module, 'virtual:kaminuza-locale/en/core'],
        budgetKb: 100,
      },
    ]),
  ),
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const rows = Object.entries(screens).map(([screen, { manifest, entries, budgetKb }]) => {
  const chunks = [...files(manifest, entries)];
  const gzip = chunks.reduce((sum, file) => sum + gzipSync(readFileSync(dist + file), { level: 9 }).length, 0);
  return { screen, chunks: chunks.length, jsKb: kb(gzip), budgetKb };
});
console.table(rows);
for (const row of rows.filter((r) => r.jsKb > r.budgetKb)) {
  console.error(`${row.screen}: ${row.jsKb} KB > ${row.budgetKb} KB`);
  process.exitCode = 1;
}
