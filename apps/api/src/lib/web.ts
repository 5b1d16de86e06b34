import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import {
  FIRST_SCREEN_PRELOADS_FILE,
  LIVE_PAGES,
  NOT_FOUND_PAGE,
  PUBLIC_PAGES,
  REDIRECTS,
  isAppRoute,
  normalisePath,
  prerenderFile,
  type FirstScreenPreloads,
  type Language,
} from '@kaminuza/shared';
import { AppError } from './errors.ts';
import type { LivePages } from './live-pages.ts';
import { chooseLanguage } from './language.ts';

interface Html {
  body: Buffer;
  etag: string;
}

/** The built web app, read once at start (the CSP hashes are computed from the same bytes). */
export interface WebDist {
  root: string;
  /** index.html: the SPA shell for signed-in routes. */
  shell: Html;
  /** Prerendered documents keyed by their path below prerender/, e.g. `fr/about/us.html`. */
  prerendered: Map<string, Html>;
  /**
   * The shell for the routes a visit most often opens cold, keyed `<path> <language>`: the same document
   * naming that screen's files in its head, so they download alongside the app's script.
   */
  firstScreens: Map<string, Html>;
}

/** Weak: the same document may leave compressed in different encodings. */
function html(body: Buffer): Html {
  return { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** If-None-Match uses the weak comparison and may list several tags. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header !== undefined && header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** Null when the web app has not been built: the API then runs alone. */
export function loadWebDist(root: string): WebDist | null {
  const shellPath = join(root, 'index.html');
  if (!existsSync(shellPath)) return null;
  const prerenderRoot = join(root, 'prerender');
  const prerendered = new Map<string, Html>();
  if (existsSync(prerenderRoot)) {
    for (const file of readdirSync(prerenderRoot, { recursive: true, encoding: 'utf8' })) {
      if (file.endsWith('.html')) {
        prerendered.set(file.split(sep).join('/'), html(readFileSync(join(prerenderRoot, file))));
      }
    }
  }
  const shell = readFileSync(shellPath, 'utf8');
  return { root, shell: html(Buffer.from(shell)), prerendered, firstScreens: firstScreenShells(root, shell) };
}

const firstScreenKey = (path: string, language: Language) => `${path} ${language}`;

/** A tag's attribute value: the file names come from our own build, escaped all the same. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function firstScreenShells(root: string, shell: string): Map<string, Html> {
  const shells = new Map<string, Html>();
  const file = join(root, FIRST_SCREEN_PRELOADS_FILE);
  if (!existsSync(file) || !shell.includes('</head>')) return shells;
  const table = JSON.parse(readFileSync(file, 'utf8')) as FirstScreenPreloads;
  for (const [path, languages] of Object.entries(table)) {
    for (const [language, { scripts, styles }] of Object.entries(languages)) {
      const links = [
        ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${attribute(href)}">`),
        ...scripts.map((href) => `<link rel="modulepreload" crossorigin href="${attribute(href)}">`),
      ].join('');
      shells.set(
        firstScreenKey(path, language as Language),
        html(Buffer.from(shell.replace('</head>', `${links}</head>`))),
      );
    }
  }
  return shells;
}

export function webDocuments(dist: WebDist): string[] {
  return [dist.shell, ...dist.prerendered.values(), ...dist.firstScreens.values()].map((doc) =>
    doc.body.toString('utf8'),
  );
}

const PAGES: ReadonlySet<string> = new Set(PUBLIC_PAGES);
const LIVE: ReadonlySet<string> = new Set(LIVE_PAGES);
const SHORT = 'public, max-age=3600';

/** Browsers navigating or fetching documents; other clients (scripts, images) get the JSON 404. */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** A same-site path only: `//host` or `/\host` would send a Location header off-site. */
function isLocalPath(path: string): boolean {
  return /^\/(?![/\\])/.test(path);
}

/**
 * Serves the built web app on the API's port: hashed assets cached for a year, redirects of the
 * route table, prerendered public pages in the visitor's language, the SPA shell for app routes,
 * and the prerendered not-found page for anything else.
 */
export async function webRoutes(
  app: FastifyInstance,
  { dist, live }: { dist: WebDist; live: LivePages | null },
): Promise<void> {
  await app.register(fastifyStatic, { root: dist.root, serve: false });

  const assets = join(dist.root, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      // Vite puts a content hash in every asset name, so a name never changes meaning.
      immutable: true,
      maxAge: '365d',
      // The build stores each script and stylesheet Brotli- and gzip-compressed at the highest settings.
      preCompressed: true,
    });
  }

  // Unhashed files at the root (favicon, robots.txt, manifest, service worker) may change between releases.
  const rootFiles = readdirSync(dist.root, { withFileTypes: true }).filter(
    // Plain names only: the name becomes a route path, where `:` or `*` would mean parameters.
    (entry) => entry.isFile() && entry.name !== 'index.html' && /^[\w.-]+$/.test(entry.name),
  );
  for (const { name } of rootFiles) {
    app.get(`/${name}`, { schema: { hide: true } }, (_request, reply) => {
      // A cached service worker would pin visitors to an old release, so it always revalidates.
      reply.header('cache-control', /^(sw|service-worker)\.js$/.test(name) ? 'no-cache' : SHORT);
      // Browsers install the app only from a manifest served as one.
      if (name.endsWith('.webmanifest')) reply.type('application/manifest+json');
      return reply.sendFile(name, { cacheControl: false });
    });
  }

  const prerendered = (language: Language, page: string) => dist.prerendered.get(`${language}/${prerenderFile(page)}`);

  function sendHtml(
    request: FastifyRequest,
    reply: FastifyReply,
    doc: Html,
    { language, varies = language !== undefined }: { language?: Language; varies?: boolean } = {},
  ) {
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (language) reply.header('content-language', language);
    if (varies) reply.header('vary', 'Cookie, Accept-Language');
    if (reply.statusCode === 200) {
      reply.header('etag', doc.etag);
      if (matchesEtag(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
    }
    return reply.send(doc.body);
  }

  /** A live page rendered with fresh data; its prerendered copy if rendering fails. */
  async function livePage(request: FastifyRequest, path: string, language: Language): Promise<Html | undefined> {
    if (!live || !LIVE.has(path)) return undefined;
    try {
      return html(await live.render(path, language));
    } catch (error) {
      request.log.error({ err: error, path }, 'live page render failed: serving the prerendered copy');
      return undefined;
    }
  }

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const queryStart = request.url.indexOf('?');
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : request.url.slice(queryStart);
    if (isApiPath(path)) throw new AppError('NOT_FOUND');

    const canonical = normalisePath(path);
    const target = REDIRECTS[canonical] ?? (canonical !== path ? canonical : undefined);
    if (target !== undefined && isLocalPath(target)) return reply.redirect(target + query, 301);

    const language = chooseLanguage(request.headers);
    if (PAGES.has(path)) {
      const page = (await livePage(request, path, language)) ?? prerendered(language, path);
      // Without a prerendered copy the shell renders the page in the browser.
      return page ? sendHtml(request, reply, page, { language }) : sendHtml(request, reply, dist.shell);
    }
    if (isAppRoute(path)) {
      // The shell's own language is the browser's choice; only the texts it preloads follow the request's.
      const firstScreen = dist.firstScreens.get(firstScreenKey(path, language));
      return sendHtml(request, reply, firstScreen ?? dist.shell, { varies: firstScreen !== undefined });
    }
    if (!wantsHtml(request)) throw new AppError('NOT_FOUND');

    reply.code(404);
    const notFound = prerendered(language, NOT_FOUND_PAGE);
    return notFound ? sendHtml(request, reply, notFound, { language }) : sendHtml(request, reply, dist.shell);
  });
}
