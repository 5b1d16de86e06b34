import { createHash } from 'node:crypto';

export interface InlineSources {
  /** CSP sources (`'sha256-…'`) of every inline <script>. */
  scripts: string[];
  /** CSP sources of every inline <style> element. */
  styles: string[];
  /** Whether any element carries a style="" attribute, which no hash can allow. */
  styleAttributes: boolean;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Hashes the inline code of the given HTML documents so the CSP can allow exactly that code. */
export function inlineSources(documents: Iterable<string>): InlineSources {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  let styleAttributes = false;
  for (const html of documents) {
    for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
      if (!/\bsrc\s*=/i.test(attributes) && body.length > 0) scripts.add(sha256(body));
    }
    for (const [, body = ''] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) {
      if (body.length > 0) styles.add(sha256(body));
    }
    styleAttributes ||= /<[a-z][^>]*\sstyle\s*=/i.test(html);
  }
  return { scripts: [...scripts], styles: [...styles], styleAttributes };
}

type Directives = Record<string, string[]>;

/** The site's policy: only our own files, plus the exact inline code found in the built HTML. */
export function siteDirectives(inline: InlineSources): Directives {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inline.scripts],
    'style-src': ["'self'", ...inline.styles],
    // Server-rendered style="" attributes can only be allowed wholesale; keep that to attributes.
    ...(inline.styleAttributes ? { 'style-src-attr': ["'unsafe-inline'"] } : {}),
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    // The service worker (/sw.js) and the web app manifest: our own files only (ADR 039).
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
  };
}

/** Swagger UI styles its widgets inline; it gets that allowance and nothing else. */
export function docsDirectives(site: Directives): Directives {
  return {
    ...site,
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
  };
}
