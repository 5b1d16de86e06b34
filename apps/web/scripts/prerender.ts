/**
 * Build step: renders every public page in every language to static HTML so it paints before any
 * JavaScript arrives. The server picks the file by the visitor's language (ADR 002). The server
 * bundle stays in dist/server: the API renders pages with live data from it.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@kaminuza/shared/constants';
import { NOT_FOUND_PAGE, PUBLIC_PAGES, prerenderFile } from '@kaminuza/shared/routes';
import type * as ServerEntryModule from '../src/entry-server.tsx';

type ServerEntry = typeof ServerEntryModule;

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const server = join(dist, 'server');

// Vite's two built documents become the server's templates.
await mkdir(join(server, 'templates'), { recursive: true });
await copyFile(join(dist, 'index.html'), join(server, 'templates', 'app.html'));
await copyFile(join(dist, 'public.html'), join(server, 'templates', 'public.html'));
await rm(join(dist, 'public.html'));
const app = await readFile(join(server, 'templates', 'app.html'), 'utf8');
if (!app.includes('<!--app-->')) throw new Error('index.html has no <!--app--> placeholder');

const { fillTemplate, renderDocument } = (await import(join(server, 'entry-server.js'))) as ServerEntry;

let count = 0;
for (const lang of LANGUAGES) {
  for (const page of [...PUBLIC_PAGES, NOT_FOUND_PAGE]) {
    const file = join(dist, 'prerender', lang, prerenderFile(page));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await renderDocument(page, lang));
    count += 1;
  }
}
// The shell for signed-in areas, rendered in the browser only.
await writeFile(join(dist, 'index.html'), fillTemplate(app, 'en', null));
console.log(`prerendered ${count} pages`);
