import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createTestApp, testEnv } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';

const THEME_SCRIPT = "(function(){document.documentElement.classList.toggle('dark',false)})()";
const THEME_HASH = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;

const document = (marker: string) =>
  `<!doctype html><html><head><script>${THEME_SCRIPT}</script>` +
  `<script type="module" src="/assets/index-abc123.js"></script></head><body>${marker}</body></html>`;

/** A built web app as Vite and the prerender script lay it out, in miniature. */
function writeFakeDist(root: string): void {
  const files: Record<string, string> = {
    'index.html': document('SPA shell'),
    'assets/index-abc123.js': 'console.log("app")',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'robots.txt': 'User-agent: *',
    'sw.js': 'self.addEventListener("fetch", () => {})',
    'manifest.webmanifest': '{"name":"Kaminuza"}',
    'server/entry-server.js': 'export const secret = 1',
    // Stored compressed at build time (apps/web/scripts/precompress.ts): a marker tells the copies apart.
    'assets/big-def456.js': 'x'.repeat(4096),
    '.vite/first-screen-preloads.json': JSON.stringify({
      '/home': {
        en: { scripts: ['/assets/home-en.js', '/assets/shell.js'], styles: ['/assets/home.css'] },
        fr: { scripts: ['/assets/home-fr.js', '/assets/shell.js'], styles: [] },
        rw: { scripts: ['/assets/home-rw.js', '/assets/shell.js'], styles: [] },
      },
    }),
  };
  for (const language of ['en', 'fr', 'rw']) {
    files[`prerender/${language}/index.html`] = document(`landing ${language}`);
    files[`prerender/${language}/waitlist.html`] = document(`waitlist ${language}`);
    files[`prerender/${language}/about/us.html`] = document(`about ${language}`);
    files[`prerender/${language}/__not-found.html`] = document(`not found ${language}`);
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  writeFileSync(join(root, 'assets/big-def456.js.br'), brotliCompressSync('brotli copy'));
  writeFileSync(join(root, 'assets/big-def456.js.gz'), gzipSync('gzip copy'));
}

let dist: string;
let database: Database;
let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'kz-web-dist-'));
  writeFakeDist(dist);
  database = await createTestDatabase();
  app = await createTestApp(database, testEnv({ WEB_DIST: dist }));
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { accept: 'text/html', ...headers } });

describe('redirects and trailing slashes', () => {
  it('redirects the route table with 301, keeping the query string exactly', async () => {
    const response = await get('/signup?ref=abc&utm_source=x%20y');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/waitlist?ref=abc&utm_source=x%20y');
    expect((await get('/dashboard')).headers.location).toBe('/home');
    const head = await app.inject({ method: 'HEAD', url: '/about?x=1' });
    expect(head.statusCode).toBe(301);
    expect(head.headers.location).toBe('/about/us?x=1');
  });

  it('redirects a trailing slash to the canonical path in one hop', async () => {
    expect((await get('/waitlist/?a=1')).headers.location).toBe('/waitlist?a=1');
    expect((await get('/about/')).headers.location).toBe('/about/us');
  });

  it('never redirects off-site', async () => {
    const response = await get('//evil.example/');
    expect(response.headers.location).toBeUndefined();
    expect(response.statusCode).toBe(404);
  });
});

describe('public pages', () => {
  it('serves the prerendered page in English by default', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('landing en');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-language']).toBe('en');
    expect(response.headers.vary).toMatch(/Cookie, Accept-Language/);
  });

  it('picks the language from the i18next cookie first', async () => {
    const response = await get('/about/us', { cookie: 'i18next=fr', 'accept-language': 'rw' });
    expect(response.body).toContain('about fr');
    expect(response.headers['content-language']).toBe('fr');
  });

  it('then from Accept-Language', async () => {
    expect((await get('/waitlist', { 'accept-language': 'fr-FR,fr;q=0.9' })).body).toContain('waitlist fr');
    expect((await get('/waitlist', { 'accept-language': 'rw-RW' })).body).toContain('waitlist rw');
  });

  it('answers a revalidation with 304', async () => {
    const first = await get('/');
    const etag = String(first.headers.etag);
    expect((await get('/', { 'if-none-match': etag })).statusCode).toBe(304);
    // Proxies may strip the weak marker or send several tags.
    expect((await get('/', { 'if-none-match': `"x", ${etag.slice(2)}` })).statusCode).toBe(304);
    expect((await get('/about/us', { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('allows exactly the inline theme script in the CSP', async () => {
    const csp = String((await get('/')).headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' ${THEME_HASH}`);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('answers HEAD without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/about/us' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('');
  });
});

describe('app routes and unknown paths', () => {
  it('serves the SPA shell for signed-in routes', async () => {
    for (const path of ['/home', '/partners/123/application/form', '/partner/settings']) {
      const response = await get(path);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('SPA shell');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('names the first screen’s files in the shell for /home, in the visitor’s language', async () => {
    const english = await get('/home');
    expect(english.body).toContain('SPA shell');
    expect(english.body).toContain('<link rel="stylesheet" crossorigin href="/assets/home.css">');
    expect(english.body).toContain('<link rel="modulepreload" crossorigin href="/assets/home-en.js">');
    expect(english.body).toContain('<link rel="modulepreload" crossorigin href="/assets/shell.js">');
    expect(english.body).not.toContain('home-fr.js');
    expect(english.headers.vary).toContain('Accept-Language');
    const french = await get('/home', { cookie: 'i18next=fr' });
    expect(french.body).toContain('href="/assets/home-fr.js"');
    expect(french.headers.etag).not.toBe(english.headers.etag);
    // The files go in the head, before the app's script is asked for.
    expect(french.body.indexOf('home-fr.js')).toBeLessThan(french.body.indexOf('</head>'));
    const revalidated = await get('/home', { cookie: 'i18next=fr', 'if-none-match': String(french.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    // Other app routes get the plain shell.
    const other = await get('/partner/settings');
    expect(other.body).not.toContain('modulepreload');
    expect(other.headers.vary ?? '').not.toContain('Accept-Language');
  });

  it('answers an unknown page with 404 and the prerendered not-found page in the visitor language', async () => {
    const response = await get('/no/such/page', { 'accept-language': 'fr' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('not found fr');
    expect(response.headers['content-language']).toBe('fr');
    const head = await app.inject({ method: 'HEAD', url: '/no/such/page' });
    expect(head.statusCode).toBe(404);
  });

  it('answers the JSON 404 to non-HTML clients and on /api', async () => {
    const json = await app.inject({ url: '/no/such/page', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json().error.status).toBe('NOT_FOUND');
    const api = await get('/api/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.status).toBe('NOT_FOUND');
  });

  it('does not serve build internals', async () => {
    expect((await get('/server/entry-server.js')).body).not.toContain('secret');
    expect((await get('/prerender/en/index.html')).statusCode).toBe(404);
  });
});

describe('static files', () => {
  it('caches hashed assets for a year', async () => {
    const response = await app.inject({ url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await app.inject({ method: 'HEAD', url: '/assets/index-abc123.js' });
    expect(head.statusCode).toBe(200);
  });

  it('sends the copy compressed at build time that the browser accepts, and the file itself otherwise', async () => {
    const brotli = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.rawPayload.equals(brotliCompressSync('brotli copy'))).toBe(true);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.equals(gzipSync('gzip copy'))).toBe(true);
    const plain = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('x'.repeat(4096));
  });

  it('caches root files briefly', async () => {
    const response = await app.inject({ url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('User-agent: *');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('has the service worker revalidated on every check, so a release reaches installed apps', async () => {
    const response = await app.inject({ url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
  });

  it('serves the web app manifest with its content type', async () => {
    const response = await app.inject({ url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.json()).toEqual({ name: 'Kaminuza' });
  });

  it('lets the page register its own service worker and manifest, nobody else’s', async () => {
    const csp = String((await get('/home')).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('answers a missing asset with 404', async () => {
    expect((await app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
  });
});

describe('without a built web app', () => {
  it('serves the API only', async () => {
    const apiOnly = await createTestApp(database);
    const response = await apiOnly.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.status).toBe('NOT_FOUND');
    await apiOnly.close();
  });
});

describe('live pages', () => {
  let liveDist: string;
  let liveDb: Database;
  let liveApp: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    liveDist = mkdtempSync(join(tmpdir(), 'kz-web-live-'));
    writeFakeDist(liveDist);
    // A server bundle that renders the landing page with the catalogue figures the API hands it.
    writeFileSync(
      join(liveDist, 'server/entry-server.js'),
      `let renders = 0;
       export async function renderDocument(url, lng, data) {
         renders += 1;
         const summary = await data.catalogueSummary();
         return '<!doctype html><html lang="' + lng + '"><body>live ' + url + ' ' + lng + ' ' + summary.universities + ' universities, render ' + renders + '</body></html>';
       }`,
    );
    liveDb = await createTestDatabase();
    liveApp = await createTestApp(liveDb, testEnv({ WEB_DIST: liveDist }));
  });

  afterAll(async () => {
    await liveApp.close();
    await liveDb.close();
    rmSync(liveDist, { recursive: true, force: true });
  });

  const getLive = (url: string, headers: Record<string, string> = {}) =>
    liveApp.inject({ url, headers: { accept: 'text/html', ...headers } });

  it('renders the landing page with live data, in the visitor language, and reuses the render', async () => {
    const first = await getLive('/', { cookie: 'i18next=rw' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('live / rw 0 universities, render 1');
    expect(first.headers['content-language']).toBe('rw');
    expect((await getLive('/', { cookie: 'i18next=rw' })).body).toContain('render 1');
    expect((await getLive('/')).body).toContain('live / en 0 universities, render 2');
  });

  it('keeps prerendered files for pages without live data', async () => {
    expect((await getLive('/about/us')).body).toContain('about en');
  });

  it('falls back to the prerendered landing page when rendering fails', async () => {
    // The main fixture's server bundle has no renderDocument: every live render fails.
    expect((await get('/')).body).toContain('landing en');
  });
});
