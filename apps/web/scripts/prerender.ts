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
import type * as AccountServerModule from '../src/account-server.tsx';

type ServerEntry = typeof ServerEntryModule;
type AccountServer = typeof AccountServerModule;

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const server = join(dist, 'server');

// Vite's two built documents become the server's templates.
await mkdir(join(server, 'templates'), { recursive: true });
await copyFile(join(dist, 'index.html'), join(server, 'templates', 'app.html'));
await copyFile(join(dist, 'public.html'), join(server, 'templates', 'public.html'));
await copyFile(join(dist, 'account.html'), join(server, 'templates', 'account.html'));
await rm(join(dist, 'public.html'));
await rm(join(dist, 'account.html'));
const app = await readFile(join(server, 'templates', 'app.html'), 'utf8');
if (!app.includes('<!--app-->')) throw new Error('index.html has no <!--app--> placeholder');

const { fillTemplate, renderDocument } = (await import(join(server, 'entry-server.js'))) as ServerEntry;
const { ACCOUNT_PAGES, renderAccountPage } = (await import(
  join(server, 'account', 'account-server.js')
)) as AccountServer;
const accountTemplate = await readFile(join(server, 'templates', 'account.html'), 'utf8');
const accountManifest = JSON.parse(await readFile(join(dist, '.vite', 'account-manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/**
 * The entry page's own chunk, what it imports and its texts in `lang`, named in its head: the script would
 * otherwise learn of them only once it runs, a round trip later on a slow network (ADR 043).
 */
function pagePreloads(module: string, lang: string): string {
  const entry = accountManifest['account.html'];
  if (!entry) throw new Error("The entry pages' manifest has no account.html");
  // What the page's head names already: the entry script, its imports and its styles.
  const named = new Set([entry.file, ...(entry.imports ?? []).map((key) => accountManifest[key]?.file)]);
  const files = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = accountManifest[key];
    if (!chunk) throw new Error(`${key} is not in the entry pages' manifest`);
    if (files.has(chunk.file) || named.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.filter((file) => !entry.css?.includes(file)).forEach((file) => styles.add(file));
    chunk.imports?.forEach(visit);
  };
  visit(module);
  visit(`virtual:kaminuza-locale/${lang}/core`);
  return [
    ...[...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
  ].join('');
}

let count = 0;
for (const lang of LANGUAGES) {
  for (const page of [...PUBLIC_PAGES, NOT_FOUND_PAGE]) {
    const file = join(dist, 'prerender', lang, prerenderFile(page));
    await mkdir(dirname(file), { recursive: true });
    const account = ACCOUNT_PAGES[page];
    if (account) {
      const rendered = await renderAccountPage(page, lang);
      const html = fillTemplate(accountTemplate, lang, rendered).replace(
        '</head>',
        `${pagePreloads(account.module, lang)}</head>`,
      );
      await writeFile(file, html);
    } else {
      await writeFile(file, await renderDocument(page, lang));
    }
    count += 1;
  }
}
// The shell for signed-in areas, rendered in the browser only.
await writeFile(join(dist, 'index.html'), fillTemplate(app, 'en', null));
console.log(`prerendered ${count} pages`);
