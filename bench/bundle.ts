/**
 * JavaScript budget (ARCHITECTURE §7): the first student screen — the app shell opening /home, with
 * the English texts — must stay within 170 KB compressed. Reads the Vite manifest of a build
 * (`npm run build`) and follows each chunk's static imports. Usage: npm run bench:bundle
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { FIRST_SCREENS_CHUNK } from '../apps/web/scripts/first-load.ts';

interface Chunk {
  file: string;
  name?: string;
  imports?: string[];
}

const BUDGET_KB = 170;
const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dist}.vite/manifest.json`, 'utf8')) as Record<string, Chunk>;

/** The files a screen downloads: its entries and everything they import statically. */
function files(entries: string[]): Set<string> {
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
  const key = Object.keys(manifest).find((candidate) => manifest[candidate]?.name === name);
  if (!key) throw new Error(`No chunk is named ${name}`);
  return key;
}

const screens = {
  'first student screen (/home)': [
    'index.html',
    // The student shell and the home screen share one chunk (apps/web/scripts/first-load.ts).
    named(FIRST_SCREENS_CHUNK),
    'virtual:kaminuza-locale/en/core',
  ],
  'sign-in (/login)': [
    'index.html',
    'src/features/auth/components/sign-in-page.tsx',
    'virtual:kaminuza-locale/en/core',
  ],
  'sign-up (/signup/live)': [
    'index.html',
    'src/features/auth/components/sign-up-page.tsx',
    'virtual:kaminuza-locale/en/core',
  ],
};

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const rows = Object.entries(screens).map(([screen, entries]) => {
  const chunks = [...files(entries)];
  const gzip = chunks.reduce((sum, file) => sum + gzipSync(readFileSync(dist + file), { level: 9 }).length, 0);
  return { screen, chunks: chunks.length, jsKb: kb(gzip) };
});
console.table(rows);
const first = rows[0]!;
if (first.jsKb > BUDGET_KB) {
  console.error(`${first.screen}: ${first.jsKb} KB > ${BUDGET_KB} KB`);
  process.exitCode = 1;
}
