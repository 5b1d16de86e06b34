/**
 * Build step: renders every public page in every language to static HTML so it paints before any
 * JavaScript arrives; the browser then hydrates it. The server picks the file by the visitor's language.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '@kaminuza/shared/constants';
import { NOT_FOUND_PAGE, PUBLIC_PAGES, prerenderFile } from '@kaminuza/shared/routes';
import type { RenderedPage } from '../src/entry-server.tsx';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const serverEntry = join(dist, 'server', 'entry-server.js');

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function fill(template: string, lang: string, page: RenderedPage | null): string {
  const head = page ? `<meta name="description" content="${escapeHtml(page.description)}" />` : '';
  let html = template.replace('<html lang="en">', `<html lang="${lang}">`).replace('<!--head-->', head);
  if (page) html = html.replace('<title>Kaminuza</title>', `<title>${escapeHtml(page.title)}</title>`);
  return html.replace('<!--app-->', page?.html ?? '');
}

const template = await readFile(join(dist, 'index.html'), 'utf8');
if (!template.includes('<!--app-->')) throw new Error('dist/index.html has no <!--app--> placeholder');
const { render } = (await import(serverEntry)) as { render: (url: string, lang: string) => Promise<RenderedPage> };

let count = 0;
for (const lang of LANGUAGES) {
  for (const page of [...PUBLIC_PAGES, NOT_FOUND_PAGE]) {
    const file = join(dist, 'prerender', lang, prerenderFile(page));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, fill(template, lang, await render(page, lang)));
    count += 1;
  }
}
// The shell for signed-in areas, rendered in the browser only.
await writeFile(join(dist, 'index.html'), fill(template, 'en', null));
await rm(join(dist, 'server'), { recursive: true, force: true });
console.log(`prerendered ${count} pages`);
