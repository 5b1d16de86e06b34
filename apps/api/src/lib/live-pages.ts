import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CatalogueSummary, Language } from '@kaminuza/shared';

/** What the web app's server bundle (apps/web/src/entry-server.tsx) offers the API. */
interface ServerEntry {
  renderDocument(url: string, lng: Language, data: PageData): Promise<string>;
}

/** Data the server hands to pages that show it (ADR 002). */
export interface PageData {
  catalogueSummary: () => Promise<CatalogueSummary>;
}

export interface LivePages {
  /** The page's HTML, rendered with live data at most once per `ttlMs` per language. */
  render(page: string, language: Language): Promise<Buffer>;
}

const DEFAULT_TTL_MS = 60_000;

/**
 * Pages with live data (the landing page's catalogue figures) are rendered on the server from the web
 * app's server bundle, and kept for a minute: the data changes rarely and a render costs milliseconds.
 * Null when the web app was built without its server bundle.
 */
export async function loadLivePages(
  distRoot: string,
  data: PageData,
  ttlMs = DEFAULT_TTL_MS,
): Promise<LivePages | null> {
  const entryPath = join(distRoot, 'server', 'entry-server.js');
  if (!existsSync(entryPath)) return null;
  const entry = (await import(pathToFileURL(entryPath).href)) as ServerEntry;
  const cache = new Map<string, { expires: number; html: Promise<Buffer> }>();

  return {
    render(page, language) {
      const key = `${language}:${page}`;
      const cached = cache.get(key);
      if (cached && cached.expires > Date.now()) return cached.html;
      // Concurrent requests share one render; a failed render is not kept.
      const html = entry.renderDocument(page, language, data).then((doc) => Buffer.from(doc));
      cache.set(key, { expires: Date.now() + ttlMs, html });
      html.catch(() => cache.delete(key));
      return html;
    },
  };
}
