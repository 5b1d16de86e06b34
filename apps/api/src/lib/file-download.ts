import type { FastifyReply } from 'fastify';
import { LONE_SURROGATES } from './file-name.ts';

/**
 * The policy of every response that carries a stored or generated file: opened in a browser tab
 * anyway, it runs no script, loads nothing and is a unique origin, so a file crafted as HTML or SVG
 * can reach neither the site's cookies nor its pages.
 */
export const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/**
 * `attachment` with the file's name: an ASCII fallback plus the exact name in RFC 5987 form. Whatever
 * the name holds, the header gets no control character, quote or backslash of it (names are cleaned
 * when stored, see file-name.ts; this holds for any name).
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // Controls are percent-encoded like any other byte; a lone surrogate has no UTF-8 form at all.
  const encoded = encodeURIComponent(name.replace(LONE_SURROGATES, '')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export interface Download {
  contentType: string;
  /** `attachment` (attachmentDisposition) for files to save; `inline` only for the site's own images. */
  disposition: string;
  cacheControl: string;
  length?: number;
}

/** The headers every file download answers with: its type as sniffed, never guessed again, and sandboxed. */
export function downloadHeaders(reply: FastifyReply, download: Download): FastifyReply {
  reply
    .header('content-type', download.contentType)
    .header('content-disposition', download.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', DOWNLOAD_CSP)
    .header('cache-control', download.cacheControl);
  if (download.length !== undefined) reply.header('content-length', download.length);
  return reply;
}
